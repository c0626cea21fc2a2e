#include "lobby/identity_backoff.hpp"

#include <algorithm>

namespace ttt::server {

IdentityBackoff::IdentityBackoff(std::size_t free_failures, std::size_t max_addresses)
    : free_failures_(free_failures), max_addresses_(std::max<std::size_t>(max_addresses, 1)) {}

IdentityBackoff::Clock::duration IdentityBackoff::wait(const std::string& address,
                                                       Clock::time_point now) const {
  if (free_failures_ == 0 || address.empty()) return Clock::duration::zero();
  const auto found = failures_.find(address);
  if (found == failures_.end() || now - found->second.last >= kForgetAfter) {
    return Clock::duration::zero();
  }
  return std::max(found->second.locked_until - now, Clock::duration::zero());
}

void IdentityBackoff::failed(const std::string& address, Clock::time_point now) {
  if (free_failures_ == 0 || address.empty()) return;
  auto found = failures_.find(address);
  if (found == failures_.end()) {
    if (failures_.size() >= max_addresses_) forget_oldest();
    found = failures_.emplace(address, Failures{}).first;
  }
  Failures& f = found->second;
  if (f.count > 0 && now - f.last >= kForgetAfter) f = Failures{};
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

void IdentityBackoff::forget_oldest() {
  auto oldest = failures_.begin();
  for (auto it = failures_.begin(); it != failures_.end(); ++it) {
    if (it->second.last < oldest->second.last) oldest = it;
  }
  if (oldest != failures_.end()) failures_.erase(oldest);
}

}  // namespace ttt::server
