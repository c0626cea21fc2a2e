#include "net/silence_watch.hpp"

#include <algorithm>

namespace ttt::server {

SilenceWatch::SilenceWatch(std::chrono::milliseconds idle_timeout,
                           std::chrono::milliseconds heartbeat_timeout,
                           Clock::time_point now) noexcept
    : idle_timeout_(idle_timeout), heartbeat_timeout_(heartbeat_timeout), last_heard_(now) {}

bool SilenceWatch::set_heartbeat(bool on) noexcept {
  if (heartbeat_ == on) return false;
  heartbeat_ = on;
  return true;
}

SilenceWatch::Verdict SilenceWatch::check(Clock::time_point now) noexcept {
  const bool heartbeat = heartbeat_ && heartbeat_timeout_.count() > 0 &&
                         (idle_timeout_.count() == 0 || heartbeat_timeout_ < idle_timeout_);
  Verdict verdict;
  verdict.timeout = heartbeat ? heartbeat_timeout_ : idle_timeout_;
  if (verdict.timeout.count() <= 0) return verdict;
  const auto drop_at = last_heard_ + verdict.timeout;
  if (now >= drop_at) {
    verdict.action = heartbeat ? Action::kNoHeartbeat : Action::kIdle;
    verdict.next = drop_at;
    return verdict;
  }
  const auto interval = heartbeat ? verdict.timeout / 3 : verdict.timeout / 2;
  auto ping_at = std::max(last_heard_, last_ping_) + interval;
  if (now >= ping_at) {
    last_ping_ = now;
    verdict.action = Action::kPing;
    ping_at = now + interval;
  }
  verdict.next = std::min(drop_at, ping_at);
  return verdict;
}

}  // namespace ttt::server
