// BudgetShare: what one connection holds of the ReadBudget for one use (its
// read buffer beyond the allowance, or its TLS state), given back when the
// share ends. One connection's executor only.
#pragma once

#include <cstddef>

#include "net/read_budget.hpp"

namespace ttt::server {

class BudgetShare {
 public:
  explicit BudgetShare(ReadBudget& budget) noexcept : budget_(budget) {}
  ~BudgetShare() { resize(0); }
  BudgetShare(const BudgetShare&) = delete;
  BudgetShare& operator=(const BudgetShare&) = delete;

  // The share becomes `bytes` (taken or given back); false (unchanged) if
  // the budget can't give that much now.
  bool resize(std::size_t bytes) noexcept;
  // A read buffer is to grow to `capacity`: takes what it needs beyond the
  // allowance and the share holds; false if the budget can't give it now.
  bool cover(std::size_t capacity) noexcept;
  // A read buffer holds `capacity` now: gives back what it no longer needs.
  void fit(std::size_t capacity) noexcept;

  std::size_t held() const noexcept { return held_; }

 private:
  ReadBudget& budget_;
  std::size_t held_ = 0;
};

}  // namespace ttt::server
