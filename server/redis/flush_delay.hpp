// FlushDelay: how changes for Redis wait to be written together. The first
// change arms it; `delay` later it calls what flushes them, once, unless a
// flush came first (disarm) or it was stopped for good. A run that a disarm
// or a stop overtook (already queued when the timer was cancelled) does
// nothing. Runs on the logic executor, as its owner does.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace ttt::server::redis {

class FlushDelay {
 public:
  FlushDelay(boost::asio::any_io_executor executor, std::chrono::milliseconds delay)
      : timer_(std::move(executor)), delay_(delay) {}

  // Calls `due` after the delay, unless a wait already runs or it was stopped.
  void arm(std::function<void()> due) {
    if (armed_ || stopped_) return;
    armed_ = true;
    const std::uint64_t wait = ++waits_;
    timer_.expires_after(delay_);
    timer_.async_wait([this, wait, due = std::move(due)](boost::system::error_code ec) {
      // Overtaken (already queued when cancelled): by a disarm or a stop,
      // and maybe by a later arm whose own wait still runs.
      if (ec || !armed_ || wait != waits_) return;
      armed_ = false;
      due();
    });
  }
  // A flush came first: the wait ends without a call.
  void disarm() {
    if (!armed_) return;
    armed_ = false;
    timer_.cancel();
  }
  // No call any more, whatever is armed later.
  void stop() {
    stopped_ = true;
    disarm();
  }

 private:
  boost::asio::steady_timer timer_;
  std::chrono::milliseconds delay_;
  bool armed_ = false;
  bool stopped_ = false;
  std::uint64_t waits_ = 0;  // the number of the latest wait
};

}  // namespace ttt::server::redis
