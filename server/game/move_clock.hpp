// MoveClock: the time the player to move has left. Restarting it for each
// move moves a deadline, not a timer: the one timer wakes at an earlier
// deadline and re-arms itself for the current one, so a fast game costs no
// timer operations per move.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>

namespace ttt::server {

class MoveClock {
 public:
  // on_expired runs on the executor when a started clock reaches its deadline.
  MoveClock(boost::asio::any_io_executor executor, std::function<void()> on_expired);

  // The deadline becomes now + limit (a zero limit: no clock).
  void start(std::chrono::milliseconds limit);
  void stop();
  bool running() const noexcept { return running_; }

  // Time to the deadline, at least 1 ms while running (0 when stopped).
  std::chrono::milliseconds left() const;

 private:
  void arm();
  void on_timer();

  boost::asio::steady_timer timer_;
  std::function<void()> on_expired_;
  std::chrono::steady_clock::time_point deadline_{};
  bool running_ = false;
  bool armed_ = false;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // expires with the clock
};

}  // namespace ttt::server
