// GameClocks: a game's clocks. Either the move timeout (each move within a
// fixed time) or a Fischer clock (each side's time left, the increment a
// move earns; no move timeout then), and the one MoveClock that fires when
// the side to move runs out. A move whose write is refused is taken back
// with its clock: the mover's time runs on as if it had not moved.
// On the room's executor only.
#pragma once

#include <array>
#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <functional>
#include <optional>

#include "game/chess_clock.hpp"
#include "game/move_clock.hpp"
#include "ttt.pb.h"
#include "ttt/board.hpp"

namespace ttt::server {

class GameClocks {
 public:
  using ms = std::chrono::milliseconds;

  // clock: a Fischer clock (initial_ms 0: none, then move_timeout rules; a
  // zero move_timeout: no clock at all). on_expired runs on the executor
  // when the side to move runs out of time.
  GameClocks(boost::asio::any_io_executor executor, const wire::ClockSettings& clock,
             ms move_timeout, std::function<void()> on_expired);

  // Whether a Fischer clock runs (else the move timeout).
  bool fischer() const noexcept { return chess_.enabled(); }
  ms initial() const noexcept { return chess_.initial(); }
  ms increment() const noexcept { return chess_.increment(); }

  // A new round: both sides back to the initial time, nothing running.
  void reset() noexcept;
  // side's turn starts now: its Fischer time runs, or the move timeout.
  void start_turn(Player side);
  // The side to move moved now: its time is charged and earns the
  // increment; returns its time left (0 without a Fischer clock). Kept
  // until the next press, for take_back.
  ms press();
  // The last move was refused: `mover` is to move again, its time running
  // on from the start of its turn.
  void take_back(Player mover);
  // The game ended (or the room closes): nothing runs.
  void stop();
  // A game restored after a restart: each side's Fischer time left (X, O)
  // as stored (nothing without a Fischer clock).
  void restore(std::array<ms, 2> left) noexcept;

  // side's Fischer time left now.
  ms left(Player side) const noexcept;
  // The move timeout's time left while it runs (none with a Fischer clock).
  std::optional<ms> move_time_left() const;

 private:
  const ms move_timeout_;
  MoveClock move_clock_;          // the running side's time: the move timeout, or its Fischer time
  ChessClock chess_;              // with a Fischer clock: both sides' time
  ChessClock chess_before_move_;  // as it was before the last press
};

}  // namespace ttt::server
