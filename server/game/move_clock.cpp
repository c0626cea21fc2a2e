#include "game/move_clock.hpp"

#include <algorithm>

namespace ttt::server {

using std::chrono::steady_clock;

MoveClock::MoveClock(boost::asio::any_io_executor executor, std::function<void()> on_expired)
    : timer_(std::move(executor)), on_expired_(std::move(on_expired)) {}

void MoveClock::start(std::chrono::milliseconds limit) {
  if (limit.count() <= 0) return;
  deadline_ = steady_clock::now() + limit;
  running_ = true;
  if (!armed_) arm();
}

void MoveClock::stop() {
  running_ = false;
  armed_ = false;
  timer_.cancel();
}

std::chrono::milliseconds MoveClock::left() const {
  if (!running_) return std::chrono::milliseconds(0);
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - steady_clock::now());
  return std::max(left, std::chrono::milliseconds(1));
}

void MoveClock::arm() {
  armed_ = true;
  timer_.expires_at(deadline_);
  // A wait that completed just before the clock was destroyed still runs:
  // it finds the clock gone through its weak token.
  timer_.async_wait(
      [this, alive = std::weak_ptr<int>(alive_)](const boost::system::error_code& ec) {
        if (!ec && !alive.expired()) on_timer();
      });
}

void MoveClock::on_timer() {
  armed_ = false;
  if (!running_) return;
  if (steady_clock::now() < deadline_) {
    arm();
    return;
  }
  running_ = false;
  on_expired_();
}

}  // namespace ttt::server
