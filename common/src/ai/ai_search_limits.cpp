#include "ai/ai_search_limits.hpp"

#include <algorithm>

namespace ttt::internal::ai {

SearchLimits::SearchLimits(Clock::time_point deadline, std::uint64_t max_nodes) noexcept
    : deadline_(deadline), max_nodes_(max_nodes) {}

bool SearchLimits::check() noexcept {
  if (!stopped_) {
    stopped_ = nodes_ >= max_nodes_ ||
               (deadline_ != Clock::time_point::max() && Clock::now() >= deadline_);
  }
  if (stopped_) {
    next_check_ = 0;
    return true;
  }
  next_check_ = std::min(nodes_ + kClockInterval, max_nodes_);
  return false;
}

SearchLimits SearchLimits::share(std::uint64_t nodes, Clock::time_point deadline) const noexcept {
  SearchLimits child = *this;
  child.deadline_ = std::min(deadline_, deadline);
  const std::uint64_t room = max_nodes_ - nodes_;
  child.max_nodes_ = nodes_ + std::min(nodes, room);
  child.next_check_ = std::min(child.next_check_, child.max_nodes_);
  if (child.next_check_ <= child.nodes_) child.next_check_ = child.nodes_ + 1;
  return child;
}

void SearchLimits::absorb(const SearchLimits& share) noexcept {
  nodes_ = share.nodes_;
  next_check_ = std::min(next_check_, nodes_ + 1);
}

}  // namespace ttt::internal::ai
