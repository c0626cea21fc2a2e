// RateLimiter: a token bucket. `rate` tokens a second refill it up to `burst`;
// each event takes one. A rate of 0 turns the limit off.
#pragma once

#include <algorithm>
#include <chrono>

namespace ttt::server {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimiter(double rate, double burst) noexcept : rate_(rate), burst_(burst), tokens_(burst) {}

  // True (and one token spent) if an event is allowed at `now`.
  bool allow(Clock::time_point now = Clock::now()) noexcept {
    if (rate_ <= 0) return true;
    const std::chrono::duration<double> elapsed = now - last_;
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed.count() * rate_);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

  // True if an event would be allowed at `now` (nothing spent).
  bool would_allow(Clock::time_point now = Clock::now()) const noexcept {
    if (rate_ <= 0) return true;
    const std::chrono::duration<double> elapsed = now - last_;
    return std::min(burst_, tokens_ + elapsed.count() * rate_) >= 1.0;
  }

 private:
  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_ = Clock::now();
};

}  // namespace ttt::server
