#include "bot/waiting_notice.hpp"

#include <ostream>

namespace ttt::client {

WaitingNotice::WaitingNotice(boost::asio::any_io_executor io, std::string label,
                             std::chrono::milliseconds every, std::ostream& out)
    : label_(std::move(label)), every_(every), out_(out), timer_(std::move(io)) {}

void WaitingNotice::start(std::string what, bool say_now) {
  what_ = std::move(what);
  if (since_) return;  // the count goes on
  since_ = std::chrono::steady_clock::now();
  if (say_now) out_ << label_ << ": waiting for " << what_ << std::endl;
  schedule();
}

void WaitingNotice::stop() {
  since_.reset();
  timer_.cancel();
}

void WaitingNotice::schedule() {
  if (every_.count() <= 0) return;
  timer_.expires_after(every_);
  timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired() || !since_) return;
        const auto waited = std::chrono::duration_cast<std::chrono::seconds>(
            std::chrono::steady_clock::now() - *since_);
        out_ << label_ << ": still waiting for " << what_ << " (" << waited.count() << " s so far)"
             << std::endl;
        schedule();
      });
}

}  // namespace ttt::client
