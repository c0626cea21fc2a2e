// The console client's sentences about a player's session and the
// conversation around a game: a lost link and its countdown, offers that
// ended, rating changes, games decided while away, /me, a spectator's
// goodbye, a player away and back. Pure functions of wire messages, every
// server string through safe_text, so tests can check the exact words.
#pragma once

#include <chrono>
#include <string>

#include "ttt.pb.h"
#include "view/dropped_round.hpp"

namespace ttt::client {

// Words of ours or the server's as a line of the console: a capital first.
std::string sentence_case(std::string text);

// "Connection lost (REASON); reconnecting for up to 45 s (the server holds
// your seat 30 s after it notices)...". seat_grace 0: no seat at stake.
// restarts: in a game a restarted server gives back, said too ("...; a
// restarted server gives the game back"). On a terminal (give_up_hint):
// " Ctrl-C or /quit gives up." after it.
std::string connection_lost_text(const std::string& reason, std::chrono::milliseconds left,
                                 std::chrono::milliseconds seat_grace, bool restarts = false,
                                 bool give_up_hint = false);

// "Still reconnecting: 30 s left.", "Still reconnecting: 4 min left."
std::string reconnect_countdown_text(std::chrono::milliseconds left);

// The prompt while reconnecting: "reconnecting (30 s left)> ", "reconnecting
// (4:32 left; Ctrl-C gives up)> " (give_up_hint).
std::string reconnecting_prompt(std::chrono::milliseconds left, bool give_up_hint = false);

// A wait in words, rounded up: "45 s" up to 90 s, then "5 min" or "4 min 30 s".
std::string wait_text(std::chrono::milliseconds ms);

// A clock face for a countdown: "45 s" under a minute, "4:32" from one.
std::string countdown_text(std::chrono::milliseconds ms);

// The line at kTimeWarning on our turn: "10 s left to move: the game is
// lost when it runs out." (fischer: "10 s left on your clock: ...").
std::string time_warning_text(std::chrono::milliseconds left, bool fischer);

// How a draw offer or rematch request ended, from `me`'s point of view
// (SIDE_SPECTATOR for a spectator), the players named from state: "bob
// declined your draw offer.", "alice's draw offer lapsed: a move was
// played.", "Your rematch request lapsed: bob left or lost the connection."
std::string offer_ended_text(const wire::OfferEnded& ended, const wire::GameState& state,
                             wire::Side me);

// After a rated game: "Your rating: 1205 -> 1189 (-16)." for a player,
// "Ratings: alice 1205 -> 1189 (-16), bob 1195 -> 1211 (+16)." for a
// spectator; empty when the state carries no change (unrated, not over).
// A change smaller than the result alone would make says why: "1205 ->
// 1205 (+0: your 5th rated game against each other within 24 hours: from
// the 5th on they move no rating)", "(+4: your 3rd rated game against each
// other within 24 hours counts 1/4)", "(+0: bob's rating is provisional:
// an established rating does not move against it)", "(+0: the game ended
// before both players moved)", "(+0: the result the ratings expected)".
std::string rating_change_text(const wire::GameState& state, wire::Side me);

// One line per game decided while the player was away: "While you were
// away, game 3 against bob ended: O wins (X disconnected). You lost; your
// rating 1205 -> 1189 (-16)." Empty when there were none.
std::string away_results_text(const wire::Welcome& welcome);

// The game the connection dropped, found over in the player's history:
// "Game 3 against bob ended while you were away: O wins (X disconnected).
// You lost."
std::string dropped_round_text(const RoundEnd& end);

// "/me": "alice: rating 1216, rank 3 of 40; 12 games: 7 wins, 4 losses,
// 1 draw." or "..., no games yet (unranked)."
std::string profile_text(const wire::Profile& profile);

// Why this connection left its game: "alice and bob left; back in the
// lobby." for a spectator whose room closed, else the lobby's hint.
std::string left_text(const wire::Left& left);

// A player of the game (side) lost the connection or came back, for those
// who watch: "alice (X) lost the connection; the seat is held 30 s."
// "alice (X) is back."
std::string player_away_text(const wire::GameState& state, wire::Side side);
std::string player_back_text(const wire::GameState& state, wire::Side side);

// The countdown of an away player's seat: "alice (X) is away: the seat is
// held 20 s more."
std::string away_countdown_text(const wire::GameState& state, wire::Side side,
                                std::chrono::milliseconds left);

// The opponent went away or came back, named: "bob (O) lost the connection;
// the seat is held 30 s (then the game is lost by disconnect).", "bob (O) is
// back.", "bob (O) left the game."
std::string opponent_named_text(const wire::OpponentStatus& status, const wire::GameState& state,
                                wire::Side opponent);

// Whole seconds, rounded up: "30 s".
std::string whole_seconds(std::chrono::milliseconds ms);

// The line /quit prints when it leaves a game in progress, naming `command`
// (the client as the user ran it, e.g. "./ttt client"): the seat is held by
// a server of its own; with own_server (./ttt play's, which stops with the
// client) the game is kept when a token file lets the next run take it back,
// else it ends here.
std::string mid_game_goodbye(const std::string& command, bool own_server, bool token_kept);

// /quit or Ctrl-C while reconnecting in a game: "Stopped reconnecting: if
// the server still holds your game, run ./ttt client again to take it back."
// (own_server: the server stopped with this client: "Stopped reconnecting.")
std::string gave_up_text(const std::string& command, bool own_server, bool seated);

}  // namespace ttt::client
