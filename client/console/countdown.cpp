#include "console/countdown.hpp"

namespace ttt::client {
namespace {

// Countdowns are said every this many seconds in their last minute (and at
// 5 s), once a minute before.
constexpr long kCountdownStep = 10;

// Which countdown mark `left` has reached: one per 10 s in the last
// minute, one at 5 s, one per minute before.
long countdown_mark(std::chrono::milliseconds left) {
  const long seconds = static_cast<long>((left.count() + 999) / 1000);
  if (seconds <= 5) return 0;
  constexpr long kMinute = 60;
  if (seconds > kMinute)
    return kMinute / kCountdownStep + (seconds - kMinute + kMinute - 1) / kMinute;
  return (seconds + kCountdownStep - 1) / kCountdownStep;
}

}  // namespace

void Countdown::start(std::chrono::milliseconds left) noexcept { said_ = countdown_mark(left); }

bool Countdown::due(std::chrono::milliseconds left) noexcept {
  const long mark = countdown_mark(left);
  if (mark >= said_ || left.count() <= 0) return false;
  said_ = mark;
  return true;
}

std::chrono::milliseconds Countdown::shown(std::chrono::milliseconds left) noexcept {
  const auto nearest = [&](long long step_ms) {
    return std::chrono::milliseconds((left.count() + step_ms / 2) / step_ms * step_ms);
  };
  const long long seconds = (left.count() + 999) / 1000;
  if (seconds > 60) return nearest(60'000);
  if (seconds > 5) return nearest(kCountdownStep * 1000);
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace ttt::client
