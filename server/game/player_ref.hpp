// PlayerRef: a player as a room knows them (seated or watching).
#pragma once

#include <memory>
#include <string>

#include "ids.hpp"
#include "net/participant.hpp"

namespace ttt::server {

// A player as a room knows them.
struct PlayerRef {
  SeatId id{};          // this seat-holder (a bot has one per game)
  AccountId account{};  // the stored player (all bots of a level share one)
  std::string name;
  bool is_bot = false;
  std::weak_ptr<Participant> participant;  // its connection; expired while away
  bool hears_spectators = false;           // a player who chose to hear the spectators' chat
  std::string address;                     // where it connects from (an address key); "" unknown
};

}  // namespace ttt::server
