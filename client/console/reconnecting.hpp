// Reconnecting: a lost link as the player sees it while the connection tries
// again: how long it keeps trying, the countdown said at its marks, and the
// prompt meanwhile.
#pragma once

#include <chrono>
#include <string>

#include "console/countdown.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class Reconnecting {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  explicit Reconnecting(Terminal& terminal) : terminal_(terminal) {}

  // The connection tries again for up to `left` from now (it says so
  // before each try). True on the first call after the link was up: the
  // caller says the link was lost.
  bool begin(std::chrono::milliseconds left, time_point now);

  // The link is back (a Welcome).
  void end() noexcept { active_ = false; }

  // True from the first try until the link is back.
  bool active() const noexcept { return active_; }

  // Once a second while active: "Still reconnecting: 30 s left." at each
  // mark of the countdown.
  void tick(time_point now);

  // The prompt while active: "reconnecting (30 s left; Ctrl-C gives up)> ".
  std::string prompt(time_point now) const;

 private:
  std::chrono::milliseconds left(time_point now) const;

  Terminal& terminal_;
  bool active_ = false;
  time_point deadline_{};  // when the connection stops trying
  Countdown countdown_;
};

}  // namespace ttt::client
