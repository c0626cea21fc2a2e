// PlayerReplies: how a part of the lobby answers the players it serves. A
// request's answer may come later (a database read), when the player may be
// gone: it is looked up again by its seat id then. The Lobby implements it;
// the lobby's parts and their tests' fakes call it.
#pragma once

#include <cstdint>
#include <string>

#include "ids.hpp"
#include "lobby/lobby_player.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class PlayerReplies {
 public:
  virtual ~PlayerReplies() = default;
  // The player, if still known.
  virtual LobbyPlayer* player_of(SeatId id) = 0;
  virtual void reply(const LobbyPlayer& player, wire::ServerMessage message) = 0;
  virtual void error(const LobbyPlayer& player, wire::ErrorCode code, std::string text,
                     std::uint32_t request_id) = 0;
};

}  // namespace ttt::server
