// KeyedRateLimiter: one token bucket per key (an address, an account), in a
// table of bounded size. A key that has been quiet long enough to refill its
// bucket is forgotten, since a fresh bucket says the same. Not thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

#include "limits/rate_limiter.hpp"

namespace ttt::server {

class KeyedRateLimiter {
 public:
  using Clock = RateLimiter::Clock;

  // rate tokens a second up to burst, for each key; at most max_keys keys
  // are remembered (past that, the quietest are dropped first).
  KeyedRateLimiter(double rate, double burst, std::size_t max_keys = 65'536);

  // True (and one token of key's spent) if an event is allowed at now.
  bool allow(const std::string& key, Clock::time_point now = Clock::now());

  // True if key has a token left at now, without spending it.
  bool would_allow(const std::string& key, Clock::time_point now = Clock::now()) const;

  // Seconds until key has a token again (0 if it has one).
  double wait_seconds(const std::string& key, Clock::time_point now = Clock::now()) const;

  // Gives key a full bucket again (an event that turned out not to count).
  void forget(const std::string& key) { buckets_.erase(key); }

  // Keys remembered (for tests: the table stays bounded).
  std::size_t size() const noexcept { return buckets_.size(); }

 private:
  struct Bucket {
    double tokens;
    Clock::time_point last;
  };
  double tokens_at(const Bucket& bucket, Clock::time_point now) const noexcept;
  // Makes room for one more key.
  void purge(Clock::time_point now);

  double rate_;
  double burst_;
  std::size_t max_keys_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace ttt::server
