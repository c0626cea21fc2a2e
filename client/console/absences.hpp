// Absences: the players of the game who lost the connection and whose seat
// the server holds for a while. Those who watch hear who went away and came
// back (players hear of their opponent through OpponentStatus); an away
// seat's countdown is said at its marks.
#pragma once

#include <array>
#include <chrono>

#include "console/countdown.hpp"
#include "console/terminal.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class Absences {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  explicit Absences(Terminal& terminal) : terminal_(terminal) {}

  // The game went from before to after at now (watching: the player only
  // watches it): an away seat is held until what after says; one that
  // just went away starts its countdown.
  void track(const wire::GameState& before, const wire::GameState& after, bool watching,
             time_point now);

  // Once a second in a game in progress: each away seat's countdown.
  void tick(const wire::GameState& game, time_point now);

 private:
  Terminal& terminal_;
  std::array<time_point, 2> away_until_{};  // X, O: the seat held until
  std::array<Countdown, 2> countdowns_;
};

}  // namespace ttt::client
