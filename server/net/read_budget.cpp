#include "net/read_budget.hpp"

namespace ttt::server {

bool ReadBudget::reserve(std::size_t bytes) noexcept {
  std::size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (limit_ != 0 && (bytes > limit_ || used > limit_ - bytes)) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void ReadBudget::release(std::size_t bytes) noexcept {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
}

}  // namespace ttt::server
