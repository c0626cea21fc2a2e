// AddressQuotas: how many game seats the players from one address hold at
// once — in any game, and in games against the server's bots — so that one
// address can't fill the server with rooms (docs/protocol.md, "Limits"). An
// account holds one seat at most (it sits in one game at a time), so these
// are the caps that matter. Runs on the logic executor.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

namespace ttt::server {

struct QuotaLimits {
  std::size_t games = 32;     // seats in any game per address; 0 = no limit
  std::size_t bot_games = 8;  // of which in games against the server's bot; 0 = no limit
};

class AddressQuotas {
 public:
  explicit AddressQuotas(QuotaLimits limits) : limits_(limits) {}

  // Why a player from address can't take one more seat (in a bot game or
  // not), in words; empty if it can. An empty address (a player restored
  // after a restart) is never limited.
  std::string refusal(const std::string& address, bool bot_game) const;

  // A seat taken, and given back.
  void take(const std::string& address, bool bot_game);
  void give_back(const std::string& address, bool bot_game);

  // Seats held from the address (for tests).
  std::size_t games(const std::string& address) const;
  std::size_t bot_games(const std::string& address) const;

 private:
  struct Held {
    std::size_t games = 0;
    std::size_t bot_games = 0;
  };
  QuotaLimits limits_;
  std::unordered_map<std::string, Held> held_;
};

}  // namespace ttt::server
