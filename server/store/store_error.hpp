// StoreError: a store's failure, its message naming what failed (the
// statement or the step, and the engine's own words). GameLost: a write to
// a game this node no longer holds (several nodes).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ttt::server {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A write of game `game` refused because this node no longer holds it in
// progress: another node took it over (`holder`), or it is over (`status`).
// Nothing of the write stands, and the transaction goes on.
class GameLost : public StoreError {
 public:
  GameLost(std::int64_t game_id, std::string now_held_by, std::string now_status)
      : StoreError("game " + std::to_string(game_id) + " is no longer held by this node (held by " +
                   (now_held_by.empty() ? std::string("nobody") : "node " + now_held_by) + ", " +
                   now_status + ")"),
        game(game_id),
        holder(std::move(now_held_by)),
        status(std::move(now_status)) {}

  std::int64_t game;
  std::string holder;
  std::string status;
};

}  // namespace ttt::server
