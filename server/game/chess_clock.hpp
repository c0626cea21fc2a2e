// ChessClock: a game's Fischer clock — each side's time left, whose time
// runs, and the increment a move earns. Bookkeeping only, on times the
// caller gives (tests give their own); the room arms its MoveClock for the
// running side's time left and ends the game when it runs out.
#pragma once

#include <array>
#include <chrono>
#include <optional>

#include "ttt/board.hpp"

namespace ttt::server {

class ChessClock {
 public:
  using Clock = std::chrono::steady_clock;
  using ms = std::chrono::milliseconds;

  // No clock: enabled() is false and nothing runs.
  ChessClock() = default;
  // Each side starts with `initial`; a move earns `increment`.
  ChessClock(ms initial, ms increment);

  bool enabled() const noexcept { return initial_.count() > 0; }
  ms initial() const noexcept { return initial_; }
  ms increment() const noexcept { return increment_; }

  // Both sides back to the initial time, nothing running (a new round).
  void reset() noexcept;
  // side's time runs from now on (the other side's stands).
  void run(Player side, Clock::time_point now) noexcept;
  // The running side moved at `now`: its time is charged up to now, then
  // earns the increment, and nothing runs. Its time left is returned.
  ms press(Clock::time_point now) noexcept;
  // Charges the running side up to now and stops it (the game ended).
  void stop(Clock::time_point now) noexcept;
  // side's time left at `now` (never below zero).
  ms left(Player side, Clock::time_point now) const noexcept;
  // Sets a side's time left (a game restored after a restart).
  void set_left(Player side, ms left) noexcept;
  std::optional<Player> running() const noexcept { return running_; }

 private:
  static std::size_t index(Player side) noexcept { return side == Player::X ? 0 : 1; }

  ms initial_{0};
  ms increment_{0};
  std::array<ms, 2> left_{};
  std::optional<Player> running_;
  Clock::time_point since_{};  // when the running side's time started running
};

}  // namespace ttt::server
