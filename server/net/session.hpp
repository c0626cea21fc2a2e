// Session: one client connection over TCP, plain or TLS (tls::Stream). A
// reader, a writer and a watchdog coroutine keep it alive: the reader opens
// TLS, reads what has arrived within its turn and the read budget and cuts
// it into frames; the writer drains the FrameWriter's bounded queue with
// exactly one write in flight; the watchdog does what the ConnectionLife's
// deadlines ask (Hello, silence, heartbeat, the close linger). Parsed
// messages go to the connection's Inbox on the logic executor through an
// InboxRelay (docs/architecture.md, "One concurrency story").
#pragma once

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "metrics/server_metrics.hpp"
#include "net/budget_share.hpp"
#include "net/connection_life.hpp"
#include "net/frame_writer.hpp"
#include "net/inbox.hpp"
#include "net/inbox_relay.hpp"
#include "net/log_limiter.hpp"
#include "net/message_rate.hpp"
#include "net/participant.hpp"
#include "net/rate_limiter.hpp"
#include "net/read_budget.hpp"
#include "net/read_turn.hpp"
#include "net/web_entrance.hpp"
#include "net/write_cork.hpp"
#include "ttt/tls/stream.hpp"
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

class Session : public Participant,
                public WriteCork::Writer,
                public std::enable_shared_from_this<Session> {
 public:
  // The socket's executor is the session's own: a strand of its own, or the
  // one thread's executor. With a TLS context the peer must open with a TLS
  // handshake (a plain client is told TLS_REQUIRED); without one, the session
  // speaks plain TCP (a client opening a TLS handshake is told
  // TLS_UNAVAILABLE). slot, if given, is let go when the session is destroyed
  // (net/connection_slots.hpp).
  Session(boost::asio::ip::tcp::socket socket, Gate& gate, boost::asio::any_io_executor logic,
          const SessionLimits& limits, SessionCommons commons, std::shared_ptr<void> slot = nullptr,
          std::shared_ptr<boost::asio::ssl::context> tls = nullptr);

  // Opens its inbox and starts the coroutines.
  void start();

  // Participant: both are safe from any thread.
  void deliver(const Outbound& message) override;
  void close() override;
  void set_heartbeat(bool on) override;

  // WriteCork::Writer: what was queued while corked goes out in one write.
  void uncork() noexcept override;

 private:
  boost::asio::awaitable<void> read_loop();
  // A TLS server's first step: the handshake, or a plain client told that
  // TLS is required. False once the session stopped.
  boost::asio::awaitable<bool> open_tls();
  enum class ReadResult { kDrained, kPaused, kYield, kStopped };
  // Reads and handles whatever has arrived (plain, or TLS after the
  // handshake): until the socket is drained, the read budget is spent
  // (paused), this wake-up's turn is spent (yield: input may be left), or
  // the session stopped.
  ReadResult read_available();
  // Handles the whole frames the reader holds, arrived at `now`, as many
  // as the turn allows.
  void take_frames(std::chrono::steady_clock::time_point now);
  // Reserves from the read budget what the next read needs beyond the
  // allowance (and, over TLS, OpenSSL's buffers given back while idle);
  // false if the budget can't give it now.
  bool reserve_read_space();
  // Gives back to the budget what the read buffer no longer holds.
  void return_read_space();
  // TLS: an idle connection gives OpenSSL's buffers back (and their share
  // of the budget); the next time to look, or max() when nothing is held.
  std::chrono::steady_clock::time_point release_idle_tls(std::chrono::steady_clock::time_point now);
  boost::asio::awaitable<void> write_loop();
  // Does what the life's deadlines ask, and gives TLS buffers back while
  // the connection is idle.
  boost::asio::awaitable<void> watchdog();

  // Handles one frame that arrived at `now`; false when the connection must
  // stop reading.
  bool handle_frame(std::string_view body, std::chrono::steady_clock::time_point now);
  // True when the caller runs on the socket's executor and it is the
  // io_context's (one thread): where dispatch would run a function at once.
  bool on_own_thread() const noexcept;
  void enqueue(const std::shared_ptr<const std::string>& frame);
  // Writes the frame now as far as the socket takes it (nothing queued, no
  // write in flight); the rest is queued for the writer.
  void write_at_once(const std::shared_ptr<const std::string>& frame);
  // Queues the frame, `sent` bytes of it written already, for the writer.
  void queue_push(const std::shared_ptr<const std::string>& frame, std::size_t sent);
  // Sends (or hands the writer) the TLS records a read made.
  void send_stream_output();
  // A message too large for the whole queue: the server's own error, logged
  // as such; the client gets a short Error instead and stays connected.
  void refuse_oversized(const Outbound& message);
  void send_now(const wire::ServerMessage& message);
  // The write queue overflowed: drops what is queued for one fatal Error.
  void drop_slow_consumer();
  // Sends a fatal Error, then closes.
  void fail(wire::ErrorCode code, std::string text);
  void begin_close(std::string reason);
  void stop(std::string reason);
  // The connection is a browser's: its stream (with `received`, the bytes
  // read from it) and slot go to the web entrance; this session ends
  // without a word.
  void hand_to_web(std::string received);

  bool closing() const noexcept { return life_.closing(); }
  bool stopped() const noexcept { return life_.stopped(); }

  boost::asio::ip::tcp::socket& socket() noexcept { return stream_.socket(); }

  // The socket's executor, kept apart: other threads post to it while the
  // socket moves under TLS.
  const boost::asio::any_io_executor executor_;
  tls::Stream stream_;
  std::shared_ptr<boost::asio::ssl::context> tls_;  // null: plain TCP
  // Frames may be written: plain TCP, or TLS after the handshake. Apart from
  // the phase: a close may begin before the handshake ends.
  bool linked_ = false;
  // The io_context's executor behind executor_ when it is that (one
  // thread), else null (a strand).
  const boost::asio::io_context::executor_type* const own_io_;
  const SessionLimits& limits_;
  SessionCommons commons_;
  BudgetShare read_share_;  // the read budget this session's read buffer holds
  BudgetShare tls_share_;   // the read budget held for its TLS state

  wire::FrameReader reader_;
  FrameWriter writer_;
  bool writing_ = false;  // the writer's write (or TLS flush) is in flight
  // The queue's frames wait for an open WriteCork to close (uncork), which
  // sends them in one write.
  bool corked_ = false;
  bool dropped_backlog_ = false;  // a slow consumer: the stream's records no longer count
  boost::asio::steady_timer wake_writer_;
  boost::asio::steady_timer watchdog_timer_;
  MessageRate rate_;
  ReadTurn turn_;
  std::size_t drained_ = 0;                          // bytes read and dropped while closing
  std::chrono::steady_clock::time_point last_read_;  // the last bytes taken from the socket

  RateLimiter rate_warnings_{1.0, 1.0};  // tell a flooding peer once a second
  std::shared_ptr<void> slot_;           // the connection's place in ConnectionSlots
  std::string peer_;
  std::string address_;  // the key limits per address use (net/peer_address.hpp)
  ConnectionLife life_;
  InboxRelay relay_;
  bool first_read_ = true;  // plain TCP: the first bytes are checked for a TLS handshake
};

}  // namespace ttt::server
