#include "net/connection_life.hpp"

#include <spdlog/spdlog.h>

#include <utility>

namespace ttt::server {

ConnectionLife::ConnectionLife(const Deadlines& deadlines, ConnectionPhase first,
                               metrics::ServerMetrics* metrics, Clock::time_point now)
    : deadlines_(deadlines),
      phase_(first),
      meter_(metrics),
      started_at_(now),
      silence_(deadlines.idle_timeout, deadlines.heartbeat_timeout, now) {}

void ConnectionLife::enter(ConnectionPhase phase) noexcept {
  phase_ = phase;
  meter_.enter(phase);
}

ConnectionLife::Admission ConnectionLife::admit(const wire::ClientMessage& message,
                                                Clock::time_point now) noexcept {
  if (!ready() && !message.has_hello()) {
    meter_.refused("before_hello");
    return Admission::kHelloRequired;
  }
  if (message.has_ping()) return Admission::kPing;
  if (message.has_pong()) return Admission::kPong;
  meter_.read(message, now);
  if (!message.has_hello() || ready() || closing()) return Admission::kMessage;
  enter(ConnectionPhase::kReady);
  return Admission::kHello;
}

bool ConnectionLife::begin_close(std::string reason, Clock::time_point now) {
  if (closing()) return false;
  enter(ConnectionPhase::kClosing);
  end_reason_ = std::move(reason);
  close_deadline_ = now + deadlines_.close_linger;
  return true;
}

bool ConnectionLife::stop(std::string reason) {
  if (stopped()) return false;
  enter(ConnectionPhase::kStopped);
  if (end_reason_.empty()) end_reason_ = std::move(reason);
  return true;
}

void ConnectionLife::hand_over() noexcept {
  phase_ = ConnectionPhase::kStopped;
  meter_.leave();
}

void ConnectionLife::log_end(LogLimiter& log, std::string_view kind, std::string_view peer,
                             const std::string& address, Clock::time_point now) const {
  const auto lifetime = std::chrono::duration_cast<std::chrono::milliseconds>(now - started_at_);
  // One line per connection, but not thousands a second from one address.
  if (const auto verdict = log.check(address); verdict.log) {
    spdlog::info("{} {} closed after {} ms: {}{}", kind, peer, lifetime.count(), end_reason_,
                 LogLimiter::suffix(address, verdict.held_back));
  }
}

ConnectionLife::Step ConnectionLife::check(Clock::time_point now) {
  Step step;
  if (closing()) {
    step.next = close_deadline_;
    if (now >= close_deadline_) {
      step.action = Action::kStop;
      step.text = end_reason_;
    }
    return step;
  }
  if (!ready()) {
    step.next = started_at_ + deadlines_.hello_timeout;
    if (now >= step.next) {
      step.action = Action::kFail;
      step.code = wire::ERROR_CODE_HELLO_TIMEOUT;
      step.text = "no Hello within " + std::to_string(deadlines_.hello_timeout.count()) + " ms";
    }
    return step;
  }
  const SilenceWatch::Verdict verdict = silence_.check(now);
  step.next = verdict.next;
  const auto why = [&] { return "silent for " + std::to_string(verdict.timeout.count()) + " ms"; };
  switch (verdict.action) {
    case SilenceWatch::Action::kWait:
      break;
    case SilenceWatch::Action::kPing:
      step.action = Action::kPing;
      break;
    case SilenceWatch::Action::kIdle:
      step.action = Action::kFail;
      step.code = wire::ERROR_CODE_IDLE_TIMEOUT;
      step.text = why();
      break;
    case SilenceWatch::Action::kNoHeartbeat:
      step.action = Action::kStop;  // the link is dead: nobody would read an Error
      step.text = "no heartbeat: " + why();
      break;
  }
  return step;
}

}  // namespace ttt::server
