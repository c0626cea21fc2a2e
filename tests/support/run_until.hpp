// run_until: runs an io_context (its ready handlers and its timers) until a
// condition holds or `timeout` passes; true if it held. Each round restarts
// it first, so one that ran out of work runs again, and runs it before the
// condition is asked, so what is already posted is done by then.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>

namespace ttt::testing {

template <typename Condition>
bool run_until(boost::asio::io_context& io, Condition condition,
               std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    io.restart();
    io.run_for(std::chrono::milliseconds(10));
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= give_up) return false;
  }
}

}  // namespace ttt::testing
