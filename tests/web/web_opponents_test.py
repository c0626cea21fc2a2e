#!/usr/bin/env python3
"""A browser plays ttt-client (the console client) and the server's bot
(/?play-bot=...); a game's clocks count down on the page; a flag falls."""

import os
import re
import subprocess
import time

import webtest as w


def console_client(server, name):
    """ttt-client in script mode (lines on stdin and stdout)."""
    folder = w.scratch()
    process = subprocess.Popen(
        [os.path.join(w.BIN_DIR, "ttt-client"), "--host", "127.0.0.1", "--port", str(server.port),
         "--no-tls", "--name", name, "--no-token-file",
         "--secret-file", os.path.join(folder, f"{name}.secret")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
        env=dict(os.environ, NO_COLOR="1", XDG_CONFIG_HOME=os.path.join(folder, "config")))
    w.on_cleanup(lambda: w._kill_group(process))
    return process


def main():
    server = w.Server("--max-connections-per-ip", "0")
    browser = w.Browser()

    # 1. A browser against ttt-client.
    browser.open("dana", server.url("dana.localhost"))
    dana = browser.use("dana")
    w.sign_in(dana, "dana")
    game = w.create_game(dana)
    client = console_client(server, "carl")
    # Moves typed ahead are queued and played when the turn comes.
    client.stdin.write(f"/join {game}\nb1\nb2\n")
    client.stdin.flush()
    client.stdin.close()
    w.play(dana, "a1", 1)
    w.play(dana, "a2", 3)
    w.play(dana, "a3", 5)
    w.eventually(lambda: "You won." in w.notes(dana), 10, "dana's win over ttt-client")
    out = client.stdout.read()  # to its end: the client leaves once the game is over
    client.wait(timeout=10)
    assert "Game over: X wins" in out, out
    assert "You lost." in out, out
    # The console client prints the game's watch link at the end.
    assert f"/game/{game}" in out, out

    # 2. A browser against the server's bot, straight from the address, with
    # a board and rule from it.
    browser.open("erin", server.url("erin.localhost", "/?play-bot=random&size=4&win=3&name=erin"))
    erin = browser.use("erin")
    w.eventually(lambda: w.visible(erin, "game"), 10, "erin's bot game")
    assert "4x4, 3 in a row" in w.text_of(erin, "game-title"), w.text_of(erin, "game-title")
    # The game may show before the bot's seat is in it: wait for the bot.
    w.eventually(lambda: "bot (random)" in w.text_of(erin, "player-o"), 10, "the bot seated")
    for _ in range(16):
        if "Game over" in w.text_of(erin, "game-status"):
            break
        w.wait_my_move(erin)
        free = [n for n, mark in zip(erin.execute_script(
            "return [...document.querySelectorAll('#board .cell')].map(b => b.dataset.cell);"),
            w.cells(erin)) if not mark]
        before = sum(1 for c in w.cells(erin) if c)
        w.click_cell(erin, free[0])
        w.eventually(lambda: sum(1 for c in w.cells(erin) if c) > before, 10, "erin's move")
        w.eventually(lambda: "Your move" in w.text_of(erin, "game-status") or
                     "Game over" in w.text_of(erin, "game-status"), 10, "the bot's answer")
    w.eventually(lambda: "Game over" in w.text_of(erin, "game-status"), 10, "the bot game's end")

    # 3. Both clocks of a game with a Fischer clock count down on the page
    # (the mover's between states).
    erin.execute_script("document.getElementById('leave').click();")
    w.eventually(lambda: w.visible(erin, "lobby"), 10, "erin back in the lobby")
    erin.execute_script(
        "document.getElementById('ng-clock').value = '60000,0';"
        "document.getElementById('create-bot').click();")
    w.eventually(lambda: w.visible(erin, "game") and
                 w.text_of(erin, "player-x").count(":") >= 1, 10, "a game with clocks")

    def seconds_shown(player):
        text = erin.execute_script(
            f"return document.querySelector('#{player} .clock').textContent;")
        m, s = re.search(r"(\d+):(\d+(?:\.\d)?)", text).groups()
        return int(m) * 60 + float(s)

    first = seconds_shown("player-x")
    o_clock = seconds_shown("player-o")
    assert 50 <= first <= 60 and o_clock == 60, (first, o_clock)
    w.eventually(lambda: seconds_shown("player-x") <= first - 1, 5, "X's clock counting down")
    w.click_cell(erin, "b2")
    w.eventually(lambda: seconds_shown("player-o") < 60 or "Your move" in w.text_of(erin, "game-status"),
                 10, "O's clock running for the bot")

    # 4. Quick match: dana waits in the queue (and sees she does), erin asks
    # for the same game, and they are paired.
    def quick_match(page):
        page.execute_script("window.confirm = () => true; document.getElementById('leave').click();")
        w.eventually(lambda: w.visible(page, "lobby"), 10, "back in the lobby")
        page.execute_script(
            "const s = document.getElementById('ng-size'); s.value = '5';"
            "s.dispatchEvent(new Event('change'));"
            "document.getElementById('ng-clock').value = '';"
            "document.getElementById('quick-match').click();")

    dana = browser.use("dana")
    quick_match(dana)
    w.eventually(lambda: w.visible(dana, "queue") and
                 "Waiting for a quick match: 5x5" in w.text_of(dana, "queue-text"), 10,
                 "dana in the queue")
    quick_match(browser.use("erin"))
    dana = browser.use("dana")
    w.eventually(lambda: w.visible(dana, "game") and "5x5" in w.text_of(dana, "game-title"), 10,
                 "dana paired by quick match")
    paired = w.game_id(dana)
    erin = browser.use("erin")
    w.eventually(lambda: w.visible(erin, "game") and w.game_id(erin) == paired, 10,
                 "erin in the same game")

    # 5. A flag falls: a server whose move clock is 2 s; the page shows it
    # counting, then the loss on time.
    fast = w.Server("--move-timeout", "2", "--max-connections-per-ip", "0")
    browser.open("fred", fast.url("fred.localhost", "/?play-bot=random&name=fred"))
    fred = browser.use("fred")
    w.wait_my_move(fred)
    w.eventually(lambda: "Move clock: 0:0" in w.text_of(fred, "move-clock"), 5, "the move clock")
    w.eventually(lambda: "Game over: O wins (X ran out of time)" in w.text_of(fred, "game-status"),
                 10, "the flag falling")
    w.eventually(lambda: "You lost." in w.notes(fred), 5, "You lost.")
    print(f"ttt-client beaten in game {game}; the bot played; clocks ran; a flag fell")


w.BIN_DIR = w.BIN_DIR or os.path.join(os.path.dirname(__file__), "../../build/bin")
w.run(main, 110)
