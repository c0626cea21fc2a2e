// ConnectionLife: one connection's life as the protocol sees it, whatever
// carries it (Session over TCP or TLS, WebSession over a WebSocket): the
// phase it is in (and the ConnectionMeter that counts it), what each phase
// lets through, its deadlines (Hello, silence and heartbeat through a
// SilenceWatch, the close linger) and why it ends. Bookkeeping only, on
// times the caller gives: the session does the I/O each step asks for.
// One connection's executor only: not thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "limits/log_limiter.hpp"
#include "metrics/server_metrics.hpp"
#include "net/connection_meter.hpp"
#include "net/connection_phase.hpp"
#include "net/silence_watch.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class ConnectionLife {
 public:
  using Clock = std::chrono::steady_clock;

  // The deadlines a connection keeps (SessionLimits fills them); a zero
  // idle or heartbeat timeout turns that check off.
  struct Deadlines {
    std::chrono::milliseconds hello_timeout;  // Hello must arrive by then
    std::chrono::milliseconds idle_timeout;
    std::chrono::milliseconds heartbeat_timeout;
    std::chrono::milliseconds close_linger;  // time to flush before closing
  };

  // What the watchdog does now.
  enum class Action {
    kWait,  // nothing before `next`
    kPing,  // ping the peer, then look again
    kFail,  // tell the peer `code` and `text`, and close
    kStop,  // stop at once (nobody would read an Error) for `text`
  };
  struct Step {
    Action action = Action::kWait;
    Clock::time_point next = Clock::time_point::max();
    wire::ErrorCode code = wire::ERROR_CODE_UNSPECIFIED;
    std::string text;
  };

  // What a message read lets the session do in its phase.
  enum class Admission {
    kHelloRequired,  // not ready and not a Hello: the peer is failed
    kPing,           // a ping: answered with a pong, not handed on
    kPong,           // a pong: life, nothing more
    kHello,          // the Hello that makes the connection ready: handed on
    kMessage,        // anything else: handed on
  };

  // Starts in `first` at `now`; metrics may be null.
  ConnectionLife(const Deadlines& deadlines, ConnectionPhase first, metrics::ServerMetrics* metrics,
                 Clock::time_point now);

  ConnectionPhase phase() const noexcept { return phase_; }
  bool ready() const noexcept { return phase_ == ConnectionPhase::kReady; }
  bool closing() const noexcept { return phase_ >= ConnectionPhase::kClosing; }
  bool stopped() const noexcept { return phase_ == ConnectionPhase::kStopped; }
  // Moves on to `phase` (and the meter sees it).
  void enter(ConnectionPhase phase) noexcept;
  ConnectionMeter& meter() noexcept { return meter_; }

  // A whole message (or frame) arrived from the peer at `now`.
  void heard(Clock::time_point now) noexcept { silence_.heard(now); }
  // Whether a heartbeat is asked for; true if the deadlines changed.
  bool set_heartbeat(bool on) noexcept { return silence_.set_heartbeat(on); }
  // Sorts a parsed message read at `now`: a Hello makes the connection ready;
  // one it lets through starts its reply timing (the meter), one it refuses
  // is counted.
  Admission admit(const wire::ClientMessage& message, Clock::time_point now) noexcept;

  // Closing begins for `reason`, the linger counted from `now`; false if it
  // had begun already.
  bool begin_close(std::string reason, Clock::time_point now);
  // Stopped, for `reason` unless a close gave one first; false if it was
  // stopped already.
  bool stop(std::string reason);
  // Stopped without a word or a close: the connection is handed on, and no
  // longer this server's to count.
  void hand_over() noexcept;
  const std::string& end_reason() const noexcept { return end_reason_; }
  // The one log line of the connection's end (`kind` "connection", say),
  // within the log's allowance for `address`.
  void log_end(LogLimiter& log, std::string_view kind, std::string_view peer,
               const std::string& address, Clock::time_point now) const;

  // What the deadlines ask for at `now`: past the linger, stop; before
  // Hello, fail at its deadline; after it, ping a silent peer and drop one
  // silent too long (SilenceWatch). A kPing step counts as the ping sent.
  Step check(Clock::time_point now);

 private:
  const Deadlines deadlines_;
  ConnectionPhase phase_;
  ConnectionMeter meter_;
  const Clock::time_point started_at_;
  Clock::time_point close_deadline_;
  SilenceWatch silence_;
  std::string end_reason_;
};

}  // namespace ttt::server
