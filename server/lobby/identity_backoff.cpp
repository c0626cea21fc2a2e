#include "lobby/identity_backoff.hpp"

#include <algorithm>

#include "net/peer_address.hpp"

namespace ttt::server {

IdentityBackoff::IdentityBackoff(std::size_t free_failures, std::size_t max_keys)
    : free_failures_(free_failures), max_keys_(std::max<std::size_t>(max_keys, 1)) {}

std::string IdentityBackoff::name_key(const std::string& name_key, const std::string& address) {
  if (address.empty()) return "";
  return name_key + "@" + network_key(address);
}

IdentityBackoff::Clock::duration IdentityBackoff::wait(const std::string& key,
                                                       Clock::time_point now) const {
  if (free_failures_ == 0 || key.empty()) return Clock::duration::zero();
  const auto found = failures_.find(key);
  if (found == failures_.end() || now - found->second.last >= kForgetAfter) {
    return Clock::duration::zero();
  }
  return std::max(found->second.locked_until - now, Clock::duration::zero());
}

void IdentityBackoff::failed(const std::string& key, Clock::time_point now) {
  if (free_failures_ == 0 || key.empty()) return;
  auto found = failures_.find(key);
  if (found == failures_.end()) {
    if (failures_.size() >= max_keys_) {
      failures_.erase(recent_.back());
      recent_.pop_back();
    }
    recent_.push_front(key);
    found = failures_.emplace(key, Failures{}).first;
    found->second.at = recent_.begin();
  } else {
    recent_.splice(recent_.begin(), recent_, found->second.at);
  }
  Failures& f = found->second;
  if (f.count > 0 && now - f.last >= kForgetAfter) {
    f.count = 0;
    f.locked_until = {};
  }
  ++f.count;
  f.last = now;
  if (f.count > free_failures_) {
    // 1 s for the first failure past the free ones, doubling, capped.
    const std::size_t doublings = std::min<std::size_t>(f.count - free_failures_ - 1, 16);
    const auto delay =
        std::min<Clock::duration>(std::chrono::seconds(1) * (1LL << doublings), kLongestWait);
    f.locked_until = now + delay;
  }
}

}  // namespace ttt::server
