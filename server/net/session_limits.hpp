// SessionLimits and SessionCommons: what every network session (Session,
// WebSession) is bounded by, and what it shares with the others.
#pragma once

#include <chrono>
#include <cstddef>

#include "limits/log_limiter.hpp"
#include "metrics/server_metrics.hpp"
#include "net/connection_life.hpp"
#include "net/read_budget.hpp"
#include "net/read_turn.hpp"
#include "net/web_entrance.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {

struct SessionLimits {
  std::size_t max_frame = wire::kDefaultMaxFrame;   // larger declared frames are refused
  std::size_t max_hello_frame = 4096;               // the same before Hello
  std::chrono::milliseconds hello_timeout{10'000};  // Hello must arrive by then
  std::chrono::milliseconds idle_timeout{60'000};   // ping at half, drop at full; 0 = off
  // While the lobby asks for a heartbeat (a player seated in a game): ping a
  // peer silent for a third of this, drop it (at once, no linger) when silent
  // for all of it; 0 = off.
  std::chrono::milliseconds heartbeat_timeout{10'000};
  std::size_t max_queued_bytes = 1 << 20;  // a client this far behind is dropped
  std::size_t max_queued_frames = 1024;
  // Frames of any kind a connection may send; a peer that goes on a burst
  // past the limit is cut off (net/message_rate.hpp). 0 = no rate limit.
  double messages_per_second = 200;
  double message_burst = 400;
  // What one wake-up of a connection's reader handles before the others
  // run (net/read_turn.hpp).
  ReadTurnLimits read_turn;
  std::chrono::milliseconds close_linger{2'000};  // time to flush before closing
  // SO_SNDBUF of each connection; 0 leaves the kernel's autotuning (tests set
  // it so that a client that doesn't read fills the queue quickly).
  int socket_send_buffer = 0;

  // The deadlines a connection's life keeps.
  ConnectionLife::Deadlines deadlines() const noexcept {
    return {hello_timeout, idle_timeout, heartbeat_timeout, close_linger};
  }
};

// What every session shares with the others: the budget their read buffers
// draw on and the log lines allowed per address. Both outlive the sessions.
struct SessionCommons {
  ReadBudget& read_budget;
  LogLimiter& log;
  metrics::ServerMetrics* metrics = nullptr;  // what /metrics counts; null: nothing
  // Where a browser's connection goes (the web client); null: --web off.
  WebEntrance* web = nullptr;
};

}  // namespace ttt::server
