// GameClocks: the current game's clocks as they run between the states the
// server sends: both Fischer clocks or the mover's move limit, and an away
// player's seat, for the prompt; our time left on our turn, and the line
// and bell once a turn when it runs low.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "console/current_game.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class GameClocks {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Our time to move this low: a line and a bell, once a turn.
  static constexpr std::chrono::milliseconds kTimeWarning{10'000};

  // The clocks of `game` (read as it is now); warnings go to terminal.
  GameClocks(Terminal& terminal, const CurrentGame& game) : terminal_(terminal), game_(game) {}

  // The clocks as they run at now, for the prompt: "X 2:58 O 3:00 | ",
  // "X 52 s | ", then each away player's seat ("O away 25 s | "); "" when
  // nothing runs (no game in progress).
  std::string prompt(time_point now) const;

  // On our turn, the time left on our clock (the move limit or the Fischer
  // clock) at now; none without a clock or out of turn.
  std::optional<std::chrono::milliseconds> my_time_left(time_point now) const;

  // Once a turn, when our time left reaches kTimeWarning: a line and a bell.
  void warn(time_point now);

 private:
  Terminal& terminal_;
  const CurrentGame& game_;
  // The turn (round, moves) whose low time was said.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> warned_turn_;
};

}  // namespace ttt::client
