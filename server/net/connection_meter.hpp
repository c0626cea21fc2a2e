// ConnectionMeter: what /metrics sees of one connection: the phase it is in
// (ttt_connections{state}), the frames it refused, the Errors it sent and
// how long each move took from being read to its answer
// (ttt_move_reply_seconds). Without metrics every call does nothing.
#pragma once

#include <chrono>
#include <cstdint>

#include "metrics/server_metrics.hpp"
#include "net/connection_phase.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class ConnectionMeter {
 public:
  explicit ConnectionMeter(metrics::ServerMetrics* metrics) noexcept : metrics_(metrics) {}
  // The connection no longer counts in any state.
  ~ConnectionMeter() { leave(); }
  ConnectionMeter(const ConnectionMeter&) = delete;
  ConnectionMeter& operator=(const ConnectionMeter&) = delete;

  // The connection is in `phase` now (stopped counts as closing).
  void enter(ConnectionPhase phase) noexcept;
  // The connection is no longer this server's to count (handed on, or gone).
  void leave() noexcept { set(metrics::ConnectionState::kNone); }
  // A frame refused, for `reason` (a label of frames_refused).
  void refused(const char* reason) noexcept;
  // An Error sent by the session itself (not through deliver).
  void error_sent(wire::ErrorCode code) noexcept;
  // A message read at `now`: a move starts its reply timing.
  void read(const wire::ClientMessage& message, std::chrono::steady_clock::time_point now) noexcept;
  // A message on its way to the peer: its Error counted; the state (or
  // error) that answers the move in flight ends that move's timing.
  void sent(const wire::ServerMessage& message) noexcept;
  // A limit of limit_hits was met.
  void limit_hit(const char* limit) noexcept;

 private:
  void set(metrics::ConnectionState to) noexcept;

  metrics::ServerMetrics* const metrics_;
  metrics::ConnectionState state_ = metrics::ConnectionState::kNone;
  // The move in flight: its request and game and when it was read; request
  // 0 when none.
  std::uint32_t move_request_ = 0;
  std::uint64_t move_game_ = 0;
  std::chrono::steady_clock::time_point move_read_at_;
};

}  // namespace ttt::server
