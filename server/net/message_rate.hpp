// MessageRate: the frames one connection may send, of every kind (pings
// and pongs too): `per_second` on average with bursts of `burst`. A frame
// past that is refused; a peer that goes on past it (`burst` more refused
// frames, refilled at `per_second`) is flooding, and is cut off. A client
// that keeps within the limit never meets either. A rate of 0 turns both off.
// One connection's reader only: not thread-safe.
#pragma once

#include "limits/rate_limiter.hpp"

namespace ttt::server {

class MessageRate {
 public:
  using Clock = RateLimiter::Clock;
  enum class Verdict { kAllowed, kRefused, kFlooding };

  MessageRate(double per_second, double burst) noexcept
      : allowed_(per_second, burst), refusals_(per_second, burst) {}

  // The verdict on one more frame arriving at `now`.
  Verdict take(Clock::time_point now = Clock::now()) noexcept {
    if (allowed_.allow(now)) return Verdict::kAllowed;
    return refusals_.allow(now) ? Verdict::kRefused : Verdict::kFlooding;
  }

 private:
  RateLimiter allowed_;
  RateLimiter refusals_;
};

}  // namespace ttt::server
