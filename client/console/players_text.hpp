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
// doing), e.g. "alice             1216  playing game 3 against bob".
std::string player_list_text(const wire::PlayerList& list);

// What a player online is doing: "in the lobby", "waiting in quick match
// for a 3x3 game", "waiting for an opponent in game 5 (4x4)", "playing game
// 3 against bob", "watching game 3 (alice vs bob)"; a private game's id is
// not shown.
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

// "Blocked: bob, carol." or "Nobody is blocked."
std::string block_list_text(const wire::BlockList& list);

}  // namespace ttt::client
