// eventually: waits for a condition, not for a clock. Polls `condition`
// until it holds or `timeout` passes; true if it held.
#pragma once

#include <chrono>
#include <thread>

namespace ttt::testing {

template <typename Condition>
bool eventually(Condition condition,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace ttt::testing
