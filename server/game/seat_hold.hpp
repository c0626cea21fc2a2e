// SeatHold: a seat kept for its absent player through the reconnect grace
// period: whether it is held, until when, and the timer that says the hold
// ran out. A hold released (the player back, the seat emptied, the room
// closing) never reports running out, even when its timer was due already.
// On the room's executor only.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace ttt::server {

class SeatHold {
 public:
  explicit SeatHold(boost::asio::any_io_executor executor);

  // The seat is held from now for `grace`; on_expired runs on the executor
  // when that passes unless the hold is released or held anew first.
  void hold(std::chrono::milliseconds grace, std::function<void()> on_expired);
  // The hold ends without running out.
  void release();
  bool held() const noexcept { return held_; }
  // Milliseconds left of the hold, as the wire carries them (0 if none).
  std::uint32_t ms_left() const;

 private:
  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point until_{};
  bool held_ = false;
  std::uint64_t generation_ = 0;                           // which hold the timer is for
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // expires with the hold
};

}  // namespace ttt::server
