// Internal: when a search must stop: a wall-clock deadline and a node cap.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>

namespace ttt::internal::ai {

// Counts the positions a search visits and says when to stop. The clock is
// read every kClockInterval nodes, so a stop is noticed within microseconds.
// Once stopped, it stays stopped. Not thread-safe: one per search.
class SearchLimits {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint64_t kNoNodeCap = std::numeric_limits<std::uint64_t>::max();

  SearchLimits(Clock::time_point deadline, std::uint64_t max_nodes) noexcept;

  // No deadline and no node cap (tests and benchmarks).
  static SearchLimits unlimited() noexcept { return {Clock::time_point::max(), kNoNodeCap}; }

  // Counts one node; true when the search must stop.
  bool tick() noexcept { return ++nodes_ >= next_check_ ? check() : false; }

  // True once a limit was reached (re-reads the clock).
  bool expired() noexcept { return check(); }

  bool stopped() const noexcept { return stopped_; }
  std::uint64_t nodes() const noexcept { return nodes_; }
  std::uint64_t remaining() const noexcept { return nodes_ < max_nodes_ ? max_nodes_ - nodes_ : 0; }

  // A copy that may spend at most `nodes` more nodes and stops at `deadline`
  // if that comes before its own; hand it back with absorb().
  SearchLimits share(std::uint64_t nodes,
                     Clock::time_point deadline = Clock::time_point::max()) const noexcept;

  Clock::time_point deadline() const noexcept { return deadline_; }
  bool capped() const noexcept { return max_nodes_ != kNoNodeCap; }

  // Takes over the nodes a share() spent.
  void absorb(const SearchLimits& share) noexcept;

 private:
  static constexpr std::uint64_t kClockInterval = 256;

  bool check() noexcept;

  Clock::time_point deadline_;
  std::uint64_t max_nodes_;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = 0;
  bool stopped_ = false;
};

}  // namespace ttt::internal::ai
