// GameDirectory: the games players can find — each room's listing, kept
// current by the room's owner whenever it changes (seats, status, watchers;
// not on every move). In-process today; a directory shared by several nodes
// (Redis) can replace it without touching rooms or sessions. Runs on the
// logic executor.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class GameDirectory {
 public:
  virtual ~GameDirectory() = default;
  // Adds a game's listing or replaces it.
  virtual void publish(const wire::GameSummary& summary) = 0;
  // The game is gone.
  virtual void withdraw(GameId game) = 0;
  // Every listed game, by id.
  virtual std::vector<wire::GameSummary> list() const = 0;
  virtual std::size_t size() const = 0;
};

// The directory of one server process.
class LocalGameDirectory final : public GameDirectory {
 public:
  void publish(const wire::GameSummary& summary) override;
  void withdraw(GameId game) override;
  std::vector<wire::GameSummary> list() const override;
  std::size_t size() const override { return games_.size(); }

 private:
  std::map<GameId, wire::GameSummary> games_;
};

}  // namespace ttt::server
