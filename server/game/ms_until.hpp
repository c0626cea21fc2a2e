// ms_until: the milliseconds from now to a steady-clock deadline, as the
// wire carries a time left (0 once it has passed).
#pragma once

#include <chrono>
#include <cstdint>

namespace ttt::server {

inline std::uint32_t ms_until(std::chrono::steady_clock::time_point when) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      when - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<std::uint32_t>(left.count()) : 0;
}

}  // namespace ttt::server
