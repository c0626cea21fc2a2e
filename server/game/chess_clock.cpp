#include "game/chess_clock.hpp"

#include <algorithm>

namespace ttt::server {

ChessClock::ChessClock(ms initial, ms increment) : initial_(initial), increment_(increment) {
  reset();
}

void ChessClock::reset() noexcept {
  left_ = {initial_, initial_};
  running_.reset();
}

void ChessClock::run(Player side, Clock::time_point now) noexcept {
  if (!enabled()) return;
  if (running_) stop(now);
  running_ = side;
  since_ = now;
}

ChessClock::ms ChessClock::press(Clock::time_point now) noexcept {
  if (!running_) return ms(0);
  const Player side = *running_;
  stop(now);
  left_[index(side)] += increment_;
  return left_[index(side)];
}

void ChessClock::stop(Clock::time_point now) noexcept {
  if (!running_) return;
  left_[index(*running_)] = left(*running_, now);
  running_.reset();
}

ChessClock::ms ChessClock::left(Player side, Clock::time_point now) const noexcept {
  ms time = left_[index(side)];
  if (running_ == side) time -= std::chrono::duration_cast<ms>(now - since_);
  return std::max(time, ms(0));
}

void ChessClock::set_left(Player side, ms time) noexcept {
  left_[index(side)] = std::max(time, ms(0));
}

}  // namespace ttt::server
