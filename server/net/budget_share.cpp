#include "net/budget_share.hpp"

namespace ttt::server {
namespace {

// What a read buffer of `capacity` needs from the budget.
std::size_t beyond_allowance(std::size_t capacity) noexcept {
  return capacity > ReadBudget::kAllowance ? capacity - ReadBudget::kAllowance : 0;
}

}  // namespace

bool BudgetShare::resize(std::size_t bytes) noexcept {
  if (bytes > held_ && !budget_.reserve(bytes - held_)) return false;
  if (bytes < held_) budget_.release(held_ - bytes);
  held_ = bytes;
  return true;
}

bool BudgetShare::cover(std::size_t capacity) noexcept {
  const std::size_t needed = beyond_allowance(capacity);
  return needed <= held_ || resize(needed);
}

void BudgetShare::fit(std::size_t capacity) noexcept {
  const std::size_t needed = beyond_allowance(capacity);
  if (needed < held_) resize(needed);
}

}  // namespace ttt::server
