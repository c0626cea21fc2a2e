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
    print(f"game {game} survived a reload and a server crash")


w.run(main, 110)
