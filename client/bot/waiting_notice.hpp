// WaitingNotice: while a bot waits for an opponent (a queue, its open game,
// challenges), a line on stdout every so often saying what for and how long
// so far, so that whoever runs it knows it is alive.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

namespace ttt::client {

class WaitingNotice {
 public:
  // Lines go to out, "LABEL: still waiting for WHAT (N s so far)", every
  // `every` (0: never).
  WaitingNotice(boost::asio::any_io_executor io, std::string label, std::chrono::milliseconds every,
                std::ostream& out);

  // Waiting for `what` (in words, e.g. "an opponent in quick match (3x3)"):
  // the count starts, unless it runs already (then only the words change).
  // say_now: "LABEL: waiting for WHAT" at once.
  void start(std::string what, bool say_now);

  // The wait is over (a game started, or the bot stops).
  void stop();

 private:
  void schedule();

  std::string label_;
  std::chrono::milliseconds every_;
  std::ostream& out_;
  boost::asio::steady_timer timer_;
  std::optional<std::chrono::steady_clock::time_point> since_;
  std::string what_;
  // Expires with this object: a line due after it is gone is not said.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace ttt::client
