// CurrentGame: the game this client sits in or watches, as the server last
// reported it, and the player's place in it: the side, whose turn it is,
// whether a seat is at stake. ConsoleClient keeps it from Joined, GameState
// and Left; the other parts read it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "ttt.pb.h"

namespace ttt::client {

class CurrentGame {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // The player's id from the Welcome: which seat is ours.
  void set_player(std::uint64_t player_id) noexcept { player_id_ = player_id; }

  // Joined a game, seated or watching; its state came at now.
  void join(const wire::Joined& joined, time_point now);

  // A newer state of this game, come at now: returns the state it replaces.
  // A state of another game (one left meanwhile) is not kept: nullopt.
  std::optional<wire::GameState> update(const wire::GameState& state, time_point now);

  // Out of the game (it was left, or the server no longer holds it).
  void clear() noexcept;

  // The spectators of this game now: false (nothing kept) when the count is
  // another game's or unchanged.
  bool set_spectators(const wire::SpectatorCount& count);

  // The game, or null when there is none.
  const wire::GameState* state() const noexcept { return game_ ? &*game_ : nullptr; }
  // When the state came: the clocks run on from it.
  time_point received_at() const noexcept { return received_at_; }

  // True when the game is watched, not played.
  bool watching() const noexcept { return watching_; }
  // The side the player's seat holds (SIDE_NONE without one).
  wire::Side side() const noexcept;
  // Whom the game is told to: the player's side, or SIDE_SPECTATOR.
  wire::Side viewpoint() const noexcept;
  // A player of this game (not watching it).
  bool seated() const noexcept;
  // Seated in a game in progress whose turn is ours.
  bool my_turn() const noexcept;
  // Seated in a game in progress: the seat is at stake when the link drops.
  bool holds_seat() const noexcept;
  // A game in progress, seated or watching.
  bool in_progress() const noexcept;

 private:
  std::uint64_t player_id_ = 0;
  std::optional<wire::GameState> game_;
  bool watching_ = false;
  time_point received_at_{};
};

}  // namespace ttt::client
