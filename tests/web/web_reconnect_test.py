#!/usr/bin/env python3
"""A browser's player comes back to the seat: after a reload mid-game, and
after the server is killed (SIGKILL) and started again mid-game."""

import os

import webtest as w


def main():
    db = os.path.join(w.scratch(), "ttt.db")
    server = w.Server("--max-connections-per-ip", "0", "--reconnect-grace", "30", db=db)
    browser = w.Browser()
    browser.open("gina", server.url("gina.localhost"))
    gina = browser.use("gina")
    w.sign_in(gina, "gina")
    game = w.create_game(gina)
    browser.open("hal", server.url("hal.localhost"))
    hal = browser.use("hal")
    w.sign_in(hal, "hal")
    w.join_from_list(hal, game)

    w.play(browser.use("gina"), "a1", 1)
    w.play(browser.use("hal"), "b1", 2)

    # A reload mid-game: the page takes the seat back with its resume token.
    gina = browser.use("gina")
    gina.refresh()
    w.eventually(lambda: w.visible(gina, "game") and w.game_id(gina) == game, 10,
                 "gina back in the game after a reload")
    w.eventually(lambda: f"Back in game {game} as X." in w.notes(gina), 5, "Back in game")
    assert w.cells(gina)[0] == "X" and w.cells(gina)[1] == "O", w.cells(gina)
    w.play(gina, "a2", 3)

    # The server dies mid-game and comes back on the same port with its database.
    server.kill()
    for key in ("gina", "hal"):
        page = browser.use(key)
        w.eventually(lambda: "Connection lost" in w.notes(page), 15, f"{key} noticing")
        assert "reconnecting for up to" in w.notes(page), w.notes(page)
    server.restart()
    for key, side in (("gina", "X"), ("hal", "O")):
        page = browser.use(key)
        w.eventually(lambda: f"Reconnected as {key}: back in game {game}." in w.notes(page), 20,
                     f"{key} reconnected")
        w.eventually(lambda: w.visible(page, "game") and
                     sum(1 for c in w.cells(page) if c) == 3, 10, f"{key}'s board back")
    w.play(browser.use("hal"), "b2", 4)
    w.play(browser.use("gina"), "a3", 5)
    w.eventually(lambda: "You won." in w.notes(browser.use("gina")), 10, "gina's win")

    # Back in the lobby, hal finds gina among the players online and
    # challenges her; the challenge pops up on her page and she accepts.
    for key in ("gina", "hal"):
        page = browser.use(key)
        page.execute_script("window.confirm = () => true; document.getElementById('leave').click();")
        w.eventually(lambda: w.visible(page, "lobby"), 10, f"{key} in the lobby")
    hal = browser.use("hal")
    hal.execute_script("document.querySelector('.tabs button[data-tab=players]').click();")
    w.eventually(lambda: hal.execute_script(
        "const b = [...document.querySelectorAll('#players-table tr')]"
        "  .find(tr => tr.cells[0] && tr.cells[0].textContent === 'gina');"
        "if (!b) { document.getElementById('players-refresh').click(); return false; }"
        "[...b.querySelectorAll('button')].find(x => x.textContent === 'Challenge').click(); return true;"), 10, "gina in /who")
    w.eventually(lambda: hal.execute_script("return document.getElementById('challenge-form').open"),
                 5, "the challenge form")
    hal.execute_script("document.querySelector('#challenge-form button[value=send]').click();")
    gina = browser.use("gina")
    w.eventually(lambda: gina.execute_script("return document.getElementById('challenge-offer').open"),
                 10, "the challenge popping up on gina's page")
    assert "hal" in w.text_of(gina, "challenge-offer-text"), w.text_of(gina, "challenge-offer-text")
    gina.execute_script("document.getElementById('challenge-accept').click();")
    w.eventually(lambda: w.visible(gina, "game") and w.game_id(gina) != game, 10,
                 "the challenge's game on gina's page")
    hal = browser.use("hal")
    w.eventually(lambda: w.visible(hal, "game") and "X (you)" in w.text_of(hal, "player-x"), 10,
                 "hal playing X, as challenger")
    print(f"game {game} survived a reload and a server crash; a challenge was taken")


w.run(main, 110)
