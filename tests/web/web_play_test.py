#!/usr/bin/env python3
"""Two browser pages play a whole game against each other while a third
watches by link, move by move, and sees the replay once it ends; the game
is rated and each page says how the ratings moved, with why they moved less
when they did; names and chat that look like markup stay text on every
page."""

import re

import webtest as w

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_CHAT = "<script>document.title='pwned'</script><b>bold</b><style>*{}</style>"


def main():
    # The three pages share an address: --rate-same-address rates the game.
    server = w.Server("--max-connections-per-ip", "0", "--rate-same-address")
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
    # Two provisional ratings: the winner's goes up as much as the loser's
    # goes down, with no note.
    alice = browser.use("alice")
    mine = w.eventually(lambda: re.search(r"Your rating: 1200 -> (\d+) \(\+(\d+)\)\.",
                                          w.notes(alice)), 10, "alice's rating line")
    assert int(mine.group(1)) - 1200 == int(mine.group(2)) > 0, mine.group(0)
    bob = browser.use("bob")
    w.eventually(lambda: re.search(r"Your rating: 1200 -> \d+ \(-\d+\)\.", w.notes(bob)), 10,
                 "bob's rating line")
    carol = browser.use("carol")
    w.eventually(lambda: re.search(r"Ratings: .* 1200 -> \d+ \(\+\d+\), bob 1200 -> \d+ "
                                   r"\(-\d+\)\.", w.notes(carol)), 10, "carol's ratings line")
    # The words for each note, as ttt-client says them.
    said = carol.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/js/words.js').then(m => done(["
        "  m.ratingChangeText({rating_before: 1500, rating: 1508.2, rating_note:"
        "      'RATING_NOTE_REPEAT', repeat_game: 2}, 'bob', true),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1500.2, rating_note:"
        "      'RATING_NOTE_REPEAT', repeat_game: 5}, 'bob', false),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1500, rating_note:"
        "      'RATING_NOTE_PROVISIONAL_OPPONENT'}, 'bob', true),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1500, rating_note:"
        "      'RATING_NOTE_TOO_SHORT'}, 'bob', true),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1503, rating_note:"
        "      'RATING_NOTE_FEW_OPPONENTS', opponent_variety: 3}, 'bob', true),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1500.3}, 'bob', true),"
        "  m.ratingChangeText({rating_before: 1500, rating: 1484}, 'bob', true)]),"
        "  e => done(String(e)));")
    assert said == [
        "1500 -> 1508 (+8: your 2nd rated game against each other within 24 hours counts 1/2)",
        "1500 -> 1500 (+0: their 5th rated game against each other within 24 hours: from the 5th"
        " on they move no rating)",
        "1500 -> 1500 (+0: bob's rating is provisional: an established rating does not move"
        " against it)",
        "1500 -> 1500 (+0: the game ended before both players moved)",
        "1500 -> 1503 (+3: bob has played rated games against only 3 other accounts: it counts"
        " 3/10)",
        "1500 -> 1500 (+0: the result the ratings expected)",
        "1500 -> 1484 (-16)"], said
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
