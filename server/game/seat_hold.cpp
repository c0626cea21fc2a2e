#include "game/seat_hold.hpp"

#include <utility>

#include "game/ms_until.hpp"

namespace ttt::server {

SeatHold::SeatHold(boost::asio::any_io_executor executor) : timer_(std::move(executor)) {}

void SeatHold::hold(std::chrono::milliseconds grace, std::function<void()> on_expired) {
  held_ = true;
  until_ = std::chrono::steady_clock::now() + grace;
  const std::uint64_t generation = ++generation_;
  timer_.expires_at(until_);
  // A wait that completed just before a release (or the hold's end) still
  // runs: it finds the hold gone, released, or held anew.
  timer_.async_wait([this, alive = std::weak_ptr<int>(alive_), generation,
                     on_expired = std::move(on_expired)](const boost::system::error_code& ec) {
    if (ec || alive.expired() || generation != generation_ || !held_) return;
    on_expired();
  });
}

void SeatHold::release() {
  held_ = false;
  ++generation_;
  timer_.cancel();
}

std::uint32_t SeatHold::ms_left() const { return held_ ? ms_until(until_) : 0; }

}  // namespace ttt::server
