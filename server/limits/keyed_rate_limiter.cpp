#include "limits/keyed_rate_limiter.hpp"

#include <algorithm>
#include <chrono>

namespace ttt::server {

KeyedRateLimiter::KeyedRateLimiter(double rate, double burst, std::size_t max_keys)
    : rate_(rate), burst_(burst), max_keys_(std::max<std::size_t>(max_keys, 1)) {}

double KeyedRateLimiter::tokens_at(const Bucket& bucket, Clock::time_point now) const noexcept {
  const std::chrono::duration<double> elapsed = now - bucket.last;
  return std::min(burst_, bucket.tokens + std::max(0.0, elapsed.count()) * rate_);
}

bool KeyedRateLimiter::allow(const std::string& key, Clock::time_point now) {
  if (rate_ <= 0) return true;
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) purge(now);
    it = buckets_.emplace(key, Bucket{burst_, now}).first;
  }
  Bucket& bucket = it->second;
  bucket.tokens = tokens_at(bucket, now);
  bucket.last = now;
  if (bucket.tokens < 1.0) return false;
  bucket.tokens -= 1.0;
  return true;
}

bool KeyedRateLimiter::would_allow(const std::string& key, Clock::time_point now) const {
  return wait_seconds(key, now) == 0.0;
}

double KeyedRateLimiter::wait_seconds(const std::string& key, Clock::time_point now) const {
  if (rate_ <= 0) return 0.0;
  const auto it = buckets_.find(key);
  if (it == buckets_.end()) return 0.0;
  const double tokens = tokens_at(it->second, now);
  return tokens >= 1.0 ? 0.0 : (1.0 - tokens) / rate_;
}

void KeyedRateLimiter::purge(Clock::time_point now) {
  // Full buckets are as good as forgotten.
  std::erase_if(buckets_,
                [&](const auto& entry) { return tokens_at(entry.second, now) >= burst_; });
  if (buckets_.size() < max_keys_) return;
  // Still full of busy keys: drop the one with the most tokens left, the
  // one that loses least by starting afresh.
  auto fullest =
      std::max_element(buckets_.begin(), buckets_.end(), [&](const auto& a, const auto& b) {
        return tokens_at(a.second, now) < tokens_at(b.second, now);
      });
  buckets_.erase(fullest);
}

}  // namespace ttt::server
