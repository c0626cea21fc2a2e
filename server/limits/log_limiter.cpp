#include "limits/log_limiter.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <vector>

namespace ttt::server {

LogLimiter::LogLimiter(double burst, Clock::duration every, std::size_t max_addresses)
    : burst_(burst),
      rate_(1.0 / std::chrono::duration<double>(every).count()),
      max_addresses_(max_addresses) {}

void LogLimiter::refill(Entry& entry, Clock::time_point now) const {
  const std::chrono::duration<double> elapsed = now - entry.last;
  entry.tokens = std::min(burst_, entry.tokens + std::max(0.0, elapsed.count()) * rate_);
  entry.last = now;
}

LogLimiter::Verdict LogLimiter::check(const std::string& address, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(address);
  if (it == entries_.end()) {
    if (entries_.size() >= max_addresses_) {
      // A flood from very many addresses: those with nothing held back and
      // a full allowance lose nothing by being forgotten.
      for (auto e = entries_.begin(); e != entries_.end();) {
        refill(e->second, now);
        e = e->second.held_back == 0 && e->second.tokens >= burst_ ? entries_.erase(e)
                                                                   : std::next(e);
      }
      if (entries_.size() >= max_addresses_) {
        ++dropped_;
        return {};
      }
    }
    it = entries_.emplace(address, Entry{burst_, now}).first;
  }
  Entry& entry = it->second;
  refill(entry, now);
  if (entry.tokens < 1.0) {
    ++entry.held_back;
    ++dropped_;
    return {};
  }
  entry.tokens -= 1.0;
  return {true, std::exchange(entry.held_back, 0)};
}

std::string LogLimiter::suffix(const std::string& address, std::uint64_t held_back) {
  if (held_back == 0) return "";
  return " (" + std::to_string(held_back) + " similar line" + (held_back == 1 ? "" : "s") +
         " from " + address + " held back)";
}

void LogLimiter::flush(Clock::time_point now) {
  std::vector<std::pair<std::string, std::uint64_t>> held;
  {
    std::lock_guard lock(mutex_);
    for (auto e = entries_.begin(); e != entries_.end();) {
      Entry& entry = e->second;
      refill(entry, now);
      if (entry.held_back > 0 && entry.tokens >= 1.0) {
        // The count takes the line the address may log now.
        entry.tokens -= 1.0;
        held.emplace_back(e->first, std::exchange(entry.held_back, 0));
      }
      e = entry.held_back == 0 && entry.tokens >= burst_ ? entries_.erase(e) : std::next(e);
    }
  }
  for (const auto& [address, count] : held) {
    spdlog::info("{} log line{} from {} held back", count, count == 1 ? "" : "s", address);
  }
}

std::uint64_t LogLimiter::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace ttt::server
