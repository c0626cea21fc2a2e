// NewNameAllowance: how many new names one address may register in an hour,
// and an IPv6 /48 (so many /64 addresses) kNetworkShare times that. Runs on
// the logic executor.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "limits/keyed_rate_limiter.hpp"

namespace ttt::server {

class NewNameAllowance {
 public:
  using Clock = KeyedRateLimiter::Clock;

  // per_hour: new names an address may register in an hour; 0 = no limit.
  explicit NewNameAllowance(std::size_t per_hour);

  // Whether address key `address` ("" unknown: not counted) may register one
  // more name now: nullopt, with one of its allowance spent, if it may; the
  // refusal's text (with the wait) if not, and nothing spent.
  std::optional<std::string> spend(const std::string& address,
                                   Clock::time_point now = Clock::now());

 private:
  std::size_t per_hour_;
  KeyedRateLimiter addresses_;
  KeyedRateLimiter networks_;
};

}  // namespace ttt::server
