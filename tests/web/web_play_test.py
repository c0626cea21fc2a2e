#!/usr/bin/env python3
"""Two browser pages play a whole game against each other while a third
watches by link, move by move, and sees the replay once it ends; names and
chat that look like markup stay text on every page."""

import webtest as w

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_CHAT = "<script>document.title='pwned'</script><b>bold</b><style>*{}</style>"


def main():
    server = w.Server("--max-connections-per-ip", "0")
    browser = w.Browser()
    # Three origins of one server (Chromium sends *.localhost to loopback):
    # three players, each with storage of its own.
    browser.open("alice", server.url("alice.localhost"))
    alice = browser.use("alice")
    w.sign_in(alice, HOSTILE_NAME)
    game = w.create_game(alice)
    assert "Waiting for an opponent" in w.text_of(alice, "game-status")

    browser.open("bob", server.url("bob.localhost"))
    bob = browser.use("bob")
    w.sign_in(bob, "bob")
    # The lobby lists the hostile name as text.
    w.eventually(lambda: (w.click(bob, "games-refresh") or True) and
                 HOSTILE_NAME in w.text_of(bob, "games-table"), 10, "the game in bob's list")
    w.join_from_list(bob, game)

    browser.open("carol", server.url("carol.localhost", f"/game/{game}"))
    carol = browser.use("carol")
    w.eventually(lambda: w.visible(carol, "game") and "Watching game" in w.notes(carol), 10,
                 "carol watching")

    moves = [("alice", "a1"), ("bob", "b1"), ("alice", "a2"), ("bob", "b2"), ("alice", "a3")]
    for n, (who, cell) in enumerate(moves, start=1):
        page = browser.use(who)
        w.play(page, cell, n)
        # The spectator follows move by move.
        watcher = browser.use("carol")
        mark = "X" if who == "alice" else "O"
        w.eventually(lambda: f"{cell} {mark}" in w.cell_labels(watcher), 10,
                     f"carol seeing {cell} {mark}")
        if n == 2:
            page = browser.use("alice")
            page.execute_script(
                "document.getElementById('chat-input').value = arguments[0];"
                "document.getElementById('chat-form').requestSubmit();", HOSTILE_CHAT)
            for key in ("bob", "carol"):
                other = browser.use(key)
                w.eventually(lambda: HOSTILE_CHAT in w.text_of(other, "chat-log"), 10,
                             f"the chat on {key}'s page")

    alice = browser.use("alice")
    w.eventually(lambda: "Game over: X wins (column a)" in w.text_of(alice, "game-status"), 10,
                 "alice's result")
    w.eventually(lambda: "You won." in w.notes(alice), 10, "You won.")
    bob = browser.use("bob")
    w.eventually(lambda: "You lost." in w.notes(bob), 10, "You lost.")
    carol = browser.use("carol")
    # The spectator's page turns to the finished game's replay.
    w.eventually(lambda: w.visible(carol, "replay"), 15, "carol's replay")
    assert f"Replay of game {game}" in w.text_of(carol, "replay-title")
    assert "Move 5 of 5" in w.text_of(carol, "replay-status"), w.text_of(carol, "replay-status")
    carol.execute_script("document.getElementById('replay-start').click();")
    assert "Move 0 of 5" in w.text_of(carol, "replay-status")
    carol.execute_script("document.getElementById('replay-next').click();")
    assert "X a1" in w.text_of(carol, "replay-status")

    # Once both players have left (the room closes), the watch link shows
    # the game's replay.
    for key in ("alice", "bob"):
        page = browser.use(key)
        page.execute_script("window.confirm = () => true; document.getElementById('leave').click();")
        w.eventually(lambda: w.visible(page, "lobby"), 10, f"{key} back in the lobby")
    carol = browser.use("carol")
    w.eventually(lambda: "left; back in the lobby" in w.notes(carol), 10, "carol told the players left")
    browser.open("dave", server.url("dave.localhost", f"/game/{game}"))
    dave = browser.use("dave")
    w.eventually(lambda: w.visible(dave, "replay"), 10, "the replay from the watch link")
    assert f"Replay of game {game}" in w.text_of(dave, "replay-title")
    assert "Move 5 of 5" in w.text_of(dave, "replay-status")

    # Nothing a player typed became an element, a script or a style anywhere.
    for key in ("alice", "bob", "carol", "dave"):
        page = browser.use(key)
        assert w.foreign_elements(page) == [], (key, w.foreign_elements(page))
        assert page.title == "ttt", page.title
        assert HOSTILE_NAME in page.execute_script("return document.body.textContent")
    print(f"game {game}: played by two pages, watched by a third")


w.run(main, 110)
