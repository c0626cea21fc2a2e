#include "net/connection_meter.hpp"

namespace ttt::server {

void ConnectionMeter::enter(ConnectionPhase phase) noexcept {
  switch (phase) {
    case ConnectionPhase::kHandshake:
      set(metrics::ConnectionState::kHandshake);
      return;
    case ConnectionPhase::kHello:
      set(metrics::ConnectionState::kHello);
      return;
    case ConnectionPhase::kReady:
      set(metrics::ConnectionState::kReady);
      return;
    case ConnectionPhase::kClosing:
    case ConnectionPhase::kStopped:
      set(metrics::ConnectionState::kClosing);
      return;
  }
}

void ConnectionMeter::set(metrics::ConnectionState to) noexcept {
  if (state_ == to) return;
  if (metrics_) metrics_->connection_state(state_, to);
  state_ = to;
}

void ConnectionMeter::refused(const char* reason) noexcept {
  if (metrics_) metrics_->frames_refused.at(reason).add();
}

void ConnectionMeter::error_sent(wire::ErrorCode code) noexcept {
  if (metrics_) metrics_->error_sent(code);
}

void ConnectionMeter::limit_hit(const char* limit) noexcept {
  if (metrics_) metrics_->limit_hits.at(limit).add();
}

void ConnectionMeter::read(const wire::ClientMessage& message,
                           std::chrono::steady_clock::time_point now) noexcept {
  if (!message.has_make_move()) return;
  move_request_ = message.request_id() != 0 ? message.request_id() : 1;
  move_game_ = message.make_move().game_id();
  move_read_at_ = now;
}

void ConnectionMeter::sent(const wire::ServerMessage& message) noexcept {
  if (metrics_ == nullptr) return;
  if (message.has_error()) metrics_->error_sent(message.error().code());
  if (move_request_ == 0) return;
  const bool answer =
      (message.has_state() && (move_game_ == 0 || message.state().game_id() == move_game_)) ||
      (message.has_error() && message.in_reply_to() == move_request_);
  if (!answer) return;
  metrics_->move_reply_seconds.observe(std::chrono::steady_clock::now() - move_read_at_);
  move_request_ = 0;
}

}  // namespace ttt::server
