// The console client's sentences about games: the `Game over:` line, whose
// turn it is, who plays whom, the lobby's game list and server refusals.
// Pure functions of wire messages, so tests can check the exact words.
#pragma once

#include <cstdint>
#include <string>

#include "console/board_render.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// "Game over: X wins (row 1)", "Game over: O wins (X resigned)",
// "Game over: draw", "Game over: draw (agreed)", ... Precondition: is_over.
std::string game_over_line(const wire::GameState& state);

// The result and why, as in game_over_line without "Game over: ": the
// shared words of wire::result_text.
std::string result_text(const wire::GameState& state);

// How the result went for `me` ("You won.", "You lost.", "A draw."); empty
// for a spectator or an aborted game.
std::string personal_result(const wire::GameState& state, wire::Side me);

// "Game 3, 3x3, rated: alice (X, 1216) vs bob (O, 1184)" (or "Game 3,
// 15x15, 5 in a row, rated: ..." when k in a row wins): the players with
// their ratings, whether the result changes them, and notes such as
// "round 2", "private", "2 watching", "[away]".
std::string players_line(const wire::GameState& state);

// Whether the game has a Fischer clock (both players' time, shown as clock
// faces), rather than a move timeout.
bool has_chess_clock(const wire::GameState& state) noexcept;

// Both clocks as the state gives them: "X 2:58, O 3:00".
std::string clocks_text(const wire::GameState& state);

// Whose move it is, from `me`'s point of view (SIDE_NONE or SIDE_SPECTATOR
// for a spectator), with the mover's clock when there is one; pending draw
// offers and rematch requests are mentioned too.
std::string turn_line(const wire::GameState& state, wire::Side me);

// The draw offer and rematch request that are new in `after` (pending there,
// not in `before`), from `me`'s point of view: "X offers a draw: /draw to
// accept.", "You asked for a rematch.". Empty when nothing new is pending
// (an offer taken back or taken up says nothing here). The turn line is not
// repeated: it has not changed.
std::string offers_news(const wire::GameState& before, const wire::GameState& after, wire::Side me);

// "Connected to HOST:PORT as alice (rating 1216). Type /help for commands."
// ("Reconnected to" when again), the name made safe to show.
std::string connected_line(const std::string& server, const wire::Welcome& welcome, bool again);

// The other side's move in words, for the board drawn after it: "bob (O)
// played b2." when `after` is `before` plus one move by someone other than
// `me` (every move, for a spectator: me SIDE_SPECTATOR); with own_moves our
// moves too ("You (X) played b2."); else empty.
std::string move_headline(const wire::GameState& before, const wire::GameState& after,
                          wire::Side me, bool own_moves = false);

// Someone took the free seat of our waiting game (me: our side): "bob (O,
// 1184) joined game 5: the game begins, X to move."
std::string joined_game_text(const wire::GameState& state, wire::Side me);

// A chat line: "[alice (X)] good game", "[carol (watching)] hi"; the name
// and the text made safe to show (field_width::kName, kChat).
std::string chat_line(const wire::ChatMessage& chat);

// The opponent's coming and going: "Your opponent left the game.", "...
// lost the connection; their seat is held for 30 s.", "... is back."
std::string opponent_text(const wire::OpponentStatus& status);

// "Waiting for another player who wants a 3x3 game (a bot steps in after
// 10 s)...".
std::string queued_text(const wire::Queued& queued);

// What the player sees of a game after a change: a blank line, headline
// (if any), the players line, the board (not while waiting for an
// opponent), with_result the `Game over:` line and personal_result, then the
// turn line; each line ending in '\n'. A board that can't be read is one
// line saying so, its cells made safe to show. Without with_board (a screen
// that draws the game itself): only the headline and the result's lines.
std::string state_text(const wire::GameState& state, wire::Side me, const std::string& headline,
                       RenderStyle style, bool with_result, bool with_board = true);

// The lobby's game list, one game per line, or a hint when it is empty.
// Names are made safe to show and cut to their column (16 wide). At most
// width columns wide (0: no limit): the notes (private, vs bot, watching,
// the node) go first, then names and the board are cut short, then the
// board and the status are left out; the id and both names stay.
std::string game_list_text(const wire::GameList& list, std::size_t width = 0);

// A server refusal as one line for the player (the server's text made safe
// to show, at most field_width::kMessage columns).
std::string error_text(const wire::Error& error);

// A rating as players see it: rounded to a whole number, "1216".
std::string rating_text(double rating);

// "X" or "O" ("?" for anything else).
std::string side_name(wire::Side side);

}  // namespace ttt::client
