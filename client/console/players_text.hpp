// The console client's words for the players online and the challenges
// between them: the /who table, a challenge received, sent and ended, the
// blocked players. Every name from the server goes through safe_text.
#pragma once

#include <cstdint>
#include <string>

#include "ttt.pb.h"

namespace ttt::client {

// A game's settings as a challenge carries them: "3x3", "15x15, 5 in a
// row, clock 3+2, unrated".
std::string challenge_settings_text(const wire::Challenge& settings, bool rated);

// The /who page: a header and one row a player (name, rating, what it is
// doing), e.g. "alice             1216  playing game 3 against bob". At
// most width columns wide (0: no limit): what a player is doing wraps
// under itself, names are cut short, then the rating is left out.
std::string player_list_text(const wire::PlayerList& list, std::size_t width = 0);

// What a player online is doing: "in the lobby", "waiting in quick match
// for a 3x3 game", "waiting for an opponent in game 5 (4x4)", "playing game
// 3 against bob", "just finished game 3 against bob (3x3)" (seated in a
// game that is over), "watching game 3 (alice vs bob)"; a private game's id
// is not shown, and an opponent who is one of the server's bots is "the
// server's bot (hard)".
std::string activity_text(const wire::PlayerPresence& player);

// "bob (1216) challenges you to a 3x3 game, clock 3+2: /accept or /decline
// (challenge 4, for 60 s)."
std::string challenge_offer_text(const wire::ChallengeOffer& offer);

// "You challenged bob to a 3x3 game (challenge 4); it stands 60 s."
std::string challenge_sent_text(const wire::ChallengeSent& sent);

// How a challenge ended, from `me`'s side (my name as the server holds it):
// "bob declined your challenge.", "Your challenge to bob expired.", "alice
// withdrew her challenge (offline, or in another game).", ...
std::string challenge_ended_text(const wire::ChallengeEnded& ended, const std::string& me);

// "Blocked (no challenges or chat from them): bob, carol." or "Nobody is
// blocked."
std::string block_list_text(const wire::BlockList& list);

// The answer to /block NAME (blocked) or /unblock NAME, naming whom it was
// about: "bob is blocked: no challenges or chat from bob (blocked: bob,
// carol).", "bob is not blocked (nobody is).", "bob is not blocked (still
// blocked: carol)." The name as typed is made safe to show.
std::string block_answer_text(const wire::BlockList& list, const std::string& name, bool blocked);

}  // namespace ttt::client
