// GameRequestChecks: the checks every request for a new game passes,
// whichever desk takes it (a room created, a quick match, a challenge):
// the rules and clock it asks for, and the seats its player's address
// holds. RoomDesk answers them; ChallengeDesk asks them.
#pragma once

#include <cstdint>

#include "lobby/lobby_player.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class GameRequestChecks {
 public:
  virtual ~GameRequestChecks() = default;
  // Checks a board size and a win length (0: the size); replies an Error
  // naming the wrong one and returns false if either is out of range.
  virtual bool valid_rules(LobbyPlayer& player, int size, int win_length,
                           std::uint32_t request_id) = 0;
  // Checks a Fischer clock (none is fine); replies BAD_REQUEST and returns
  // false if it is out of range.
  virtual bool valid_clock(LobbyPlayer& player, const wire::ClockSettings& clock,
                           std::uint32_t request_id) = 0;
  // Whether the player's address may hold one more game seat (against the
  // bot or not); replies TOO_MANY_GAMES if not.
  virtual bool within_quota(LobbyPlayer& player, bool bot_game, std::uint32_t request_id) = 0;
  // The same, asked for a player who made no request now: nothing is replied.
  virtual bool may_hold_seat(const LobbyPlayer& player) const = 0;
};

}  // namespace ttt::server
