#!/usr/bin/env python3
"""The page as people see it, over HTTPS (the server's own certificate):
screenshots at 1280x800 (desktop) and 390x844 (a phone) of a 15x15 game,
saved under the test's output and checked for the board (there, not
blank, no horizontal scroll at phone width); the board played by keyboard
alone; every cell a button named by its coordinate and mark."""

import webtest as w


def set_viewport(driver, width, height, mobile):
    w.cdp(driver, "Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    if mobile:
        w.cdp(driver, "Emulation.setTouchEmulationEnabled", {"enabled": True})


def board_region_colors(png, rect):
    """Distinct colours inside rect (x, y, width, height) of a screenshot."""
    width, height, channels, rows = w.png_pixels(png)
    x0, y0 = max(0, int(rect["x"])), max(0, int(rect["y"]))
    x1, y1 = min(width, int(rect["x"] + rect["width"])), min(height, int(rect["y"] + rect["height"]))
    assert x1 - x0 > 50 and y1 - y0 > 50, ("the board is too small or off screen", rect, width, height)
    colors = set()
    for y in range(y0, y1, 3):
        row = rows[y]
        for x in range(x0, x1, 3):
            colors.add(row[x * channels:x * channels + 3])
    return colors


def check_screen(driver, name, width, height, mobile):
    set_viewport(driver, width, height, mobile)
    w.eventually(lambda: driver.execute_script("return window.innerWidth") == width, 5, "the viewport")
    rect = driver.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect();"
        "return {x: r.x, y: r.y, width: r.width, height: r.height};")
    scroll = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth];")
    assert scroll[0] <= scroll[1], f"{name}: horizontal scroll ({scroll[0]} > {scroll[1]})"
    assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width + 0.5, (name, rect)
    path = w.shot(driver, f"{name}-{width}x{height}.png")
    with open(path, "rb") as f:
        png = f.read()
    shot_width, shot_height, _, _ = w.png_pixels(png)
    assert (shot_width, shot_height) == (width, height), (shot_width, shot_height)
    colors = board_region_colors(png, rect)
    # Cells, grid lines, marks (X and O in colours of their own), the last move.
    assert len(colors) >= 4, f"{name}: the board looks blank ({len(colors)} colours)"
    print(f"{path}: board {rect['width']:.0f} px wide, {len(colors)} colours")


def main():
    server = w.Server("--max-connections-per-ip", "0", tls=True)
    browser = w.Browser()
    browser.open("ivy", server.url("localhost", "/?play-bot=easy&size=15&win=5&name=ivy"))
    ivy = browser.use("ivy")
    w.wait_my_move(ivy)
    labels = w.cell_labels(ivy)
    assert len(labels) == 225 and labels[0] == "a1" and labels[-1] == "o15", labels[:3]
    assert ivy.execute_script(
        "return [...document.querySelectorAll('#board .cell')].every(b => b.tagName === 'BUTTON');")

    # Keyboard only: focus the board, arrows to h8, Enter.
    from selenium.webdriver.common.keys import Keys
    first = ivy.find_element("css selector", "#board .cell[data-cell='a1']")
    first.click()  # a1 X: a move by pointer first
    w.eventually(lambda: "a1 X" in w.cell_labels(ivy), 10, "a1 X")
    w.wait_my_move(ivy)
    active = ivy.switch_to.active_element
    for key in [Keys.ARROW_RIGHT] * 7 + [Keys.ARROW_DOWN] * 7:
        active.send_keys(key)
        active = ivy.switch_to.active_element
    assert active.get_attribute("data-cell") == "h8", active.get_attribute("data-cell")
    active.send_keys(Keys.ENTER)
    w.eventually(lambda: "h8 X" in w.cell_labels(ivy), 10, "h8 X by keyboard")
    w.eventually(lambda: sum(1 for c in w.cells(ivy) if c == "O") == 2, 10, "the bot's answer")
    # The side to move is announced.
    w.eventually(lambda: "Your move" in w.text_of(ivy, "announce"), 5, "the announcement")

    check_screen(ivy, "game-desktop", 1280, 800, False)
    check_screen(ivy, "game-phone", 390, 844, True)
    # Played by touch at phone width too.
    w.wait_my_move(ivy)
    ivy.find_element("css selector", "#board .cell[data-cell='o15']").click()
    w.eventually(lambda: "o15 X" in w.cell_labels(ivy), 10, "o15 X by tap")
    assert w.foreign_elements(ivy) == []


w.run(main, 100)
