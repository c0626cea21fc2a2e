#!/usr/bin/env python3
"""A game that ended while the page was away, and that the server no longer
holds when the page comes back: the page looks for its end in the player's
history and says it. Gina's network is cut (a relay) mid-game; Hal resigns
meanwhile; the server restarts (forgetting what it kept for Gina's next
Welcome) before her network is back."""

import os

import webtest as w


def main():
    db = os.path.join(w.scratch(), "ttt.db")
    server = w.Server("--max-connections-per-ip", "0", "--reconnect-grace", "60", db=db)
    relay = w.Relay(server.port)
    browser = w.Browser()
    # Gina's page reaches the server through the relay; its Host and Origin
    # name the relay's port, as a proxy's would.
    browser.open("gina", f"http://gina.localhost:{relay.port}/")
    gina = browser.use("gina")
    w.sign_in(gina, "gina")
    game = w.create_game(gina)
    browser.open("hal", server.url("hal.localhost"))
    hal = browser.use("hal")
    w.sign_in(hal, "hal")
    w.join_from_list(hal, game)
    w.play(browser.use("gina"), "a1", 1)
    w.play(browser.use("hal"), "b1", 2)

    # Gina's network goes away; Hal sees her away, and resigns.
    relay.cut()
    gina = browser.use("gina")
    w.eventually(lambda: "Connection lost" in w.notes(gina), 15, "gina noticing")
    hal = browser.use("hal")
    w.eventually(lambda: "gina (X) lost the connection; the seat is held" in w.notes(hal), 15,
                 "hal told gina is away")
    hal.execute_script("window.confirm = () => true; document.getElementById('resign').click();")
    w.eventually(lambda: "You lost." in w.notes(hal), 10, "hal's resignation counted")

    # The server restarts: the result it kept for Gina's next Welcome is gone.
    server.kill()
    server.restart()
    assert server.port == relay.target, "the server came back on its port"
    relay.open()
    gina = browser.use("gina")
    w.eventually(lambda: "The server no longer holds your game" in w.notes(gina), 30,
                 "gina back, her game gone from the server")
    said = f"Game {game} against hal ended while you were away: X wins (O resigned). You won."
    w.eventually(lambda: said in w.notes(gina), 10, "the game's end, from gina's history")
    w.eventually(lambda: w.visible(gina, "lobby"), 5, "gina in the lobby")
    print(f"game {game}: its end found in the history after a restart: {said}")


w.run(main, 110)
