// Countdown: when to say how long is left of a wait that runs out (a lost
// link's reconnecting, an away player's seat): once a minute, every 10 s in
// the last minute, and at 5 s; each mark once.
#pragma once

#include <chrono>

namespace ttt::client {

class Countdown {
 public:
  // The wait is seen to start with `left` to go: the marks after it are due.
  // Until then (a wait seen only midway) none is.
  void start(std::chrono::milliseconds left) noexcept;

  // With `left` to go now: true when a mark not said yet has been reached
  // (say it now).
  bool due(std::chrono::milliseconds left) noexcept;

  // How a mark says `left`: rounded to its mark's step (whole minutes before
  // the last minute, tens of seconds in it, whole seconds from 5 s), so a
  // mark said a moment late still says the mark ("4 min", not "3 min 59 s").
  static std::chrono::milliseconds shown(std::chrono::milliseconds left) noexcept;

 private:
  long said_ = -1;  // the last mark said; -1: not started
};

}  // namespace ttt::client
