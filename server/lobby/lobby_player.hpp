// LobbyPlayer: the lobby's record of one seat-holder — a human online or
// away, or one of the server's bots — with the room it sits in or watches
// (the quick match it waits for is QuickMatch's).
#pragma once

#include <memory>
#include <string>

#include "game/game_room.hpp"
#include "ids.hpp"
#include "limits/rate_limiter.hpp"
#include "net/inbox.hpp"
#include "net/participant.hpp"

namespace ttt::server {

struct LobbyPlayer {
  SeatId id{};
  AccountId account{};
  std::string name;
  std::string key;       // the name's key (text_rules' name_key); empty for a bot
  bool is_bot = false;   // the server's own bot
  bool program = false;  // said Hello as a bot (ttt-bot)
  // Its connection as the network sees it (expired while away), and the
  // lobby's end of it (a Lobby::Connection; null while away).
  std::weak_ptr<Participant> participant;
  Inbox* inbox = nullptr;
  std::shared_ptr<GameRoom> room;  // the room it sits in or watches
  RateLimiter chat_limiter{1.0, 5.0};
  std::string address;              // where its connection comes from ("" if restored or a bot)
  bool hears_spectators = false;    // chose to hear the spectators' chat (ChatSettings)
  bool refuses_challenges = false;  // /challenges off
  // The seat it holds counts against this address (and, if bot_quota, as a
  // game against the bot) until it leaves the seat.
  bool holds_quota = false;
  bool bot_quota = false;
  std::string quota_address;

  // The player as a room knows it.
  PlayerRef ref() const {
    return PlayerRef{id, account, name, is_bot, participant, hears_spectators, address};
  }
};

}  // namespace ttt::server
