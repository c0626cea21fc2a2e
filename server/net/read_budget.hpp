// ReadBudget: the memory every connection's read buffer may hold together.
// Each connection reads into a small allowance of its own; what a frame
// needs beyond it is reserved here first, and a connection that finds the
// budget spent is not read until others give memory back (its deadlines
// still run). Thread-safe.
#pragma once

#include <atomic>
#include <cstddef>

namespace ttt::server {

class ReadBudget {
 public:
  // What a connection may hold without reserving: enough for any ordinary
  // request and a Hello.
  static constexpr std::size_t kAllowance = 2048;

  // limit: bytes beyond the allowances; 0 = no limit.
  explicit ReadBudget(std::size_t limit) : limit_(limit) {}

  // Takes bytes from the budget; false (nothing taken) if they don't fit.
  bool reserve(std::size_t bytes) noexcept;
  void release(std::size_t bytes) noexcept;

  std::size_t used() const noexcept { return used_.load(std::memory_order_relaxed); }
  std::size_t limit() const noexcept { return limit_; }

 private:
  const std::size_t limit_;
  std::atomic<std::size_t> used_{0};
};

}  // namespace ttt::server
