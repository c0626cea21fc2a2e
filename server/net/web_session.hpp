// WebSession: one browser's WebSocket (/ws) on the game port: the same
// protocol as a Session, each WebSocket message one ClientMessage or
// ServerMessage in binary protobuf (no length prefix: the WebSocket frames
// it; docs/web.md says why binary). The lobby and the rooms see a
// Participant like any other. Every limit of a TCP session holds: the
// frame cap (and the small one before Hello), the Hello deadline, the
// message rate (every WebSocket frame counts: each fragment of a message,
// pings, pongs, closes), the shared read budget, the bounded send queue (a browser
// that stops reading is dropped as a slow consumer), the idle and heartbeat
// deadlines; the connection slot taken when it was accepted is held until
// it ends. A reader and a watchdog coroutine keep it alive, as in Session;
// writes follow one another from its FrameWriter, exactly one in flight.
// Its phase, deadlines and end are a ConnectionLife; its messages reach the
// lobby through an InboxRelay.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "metrics/server_metrics.hpp"
#include "net/budget_share.hpp"
#include "net/connection_life.hpp"
#include "net/frame_counting_stream.hpp"
#include "net/frame_writer.hpp"
#include "net/inbox_relay.hpp"
#include "net/message_rate.hpp"
#include "net/participant.hpp"
#include "net/rate_limiter.hpp"
#include "net/session.hpp"
#include "ttt/tls/async_stream.hpp"

namespace ttt::server {

class WebServer;

class WebSession : public Participant, public std::enable_shared_from_this<WebSession> {
 public:
  using Request = boost::beast::http::request<boost::beast::http::empty_body>;

  // peer: "ADDRESS:PORT" for the log; address: the key the lobby's limits
  // per address count it by (net/peer_address.hpp; behind a trusted proxy,
  // the browser's, from X-Forwarded-For).
  WebSession(tls::AsyncStream stream, std::shared_ptr<void> slot, WebServer& server,
             std::string peer, std::string address);
  ~WebSession() override;

  // Answers the upgrade (101), opens the inbox and starts the coroutines.
  void start(Request request);

  // Participant: safe from any thread.
  void deliver(const Outbound& message) override;
  void close() override;
  void set_heartbeat(bool on) override;

 private:
  boost::asio::awaitable<void> run(Request request);
  boost::asio::awaitable<void> read_loop();
  // Writes the queue's next message (one write in flight); from enqueue when
  // the writer is idle, and from each write's completion. Plain callbacks,
  // not a coroutine woken by a timer: a move's state costs one post less.
  void write_next();
  void written(const boost::system::error_code& ec);
  // Does what the life's deadlines ask.
  boost::asio::awaitable<void> watchdog();
  // Handles one whole message; false when the connection must stop reading.
  bool handle_message(std::string_view body, std::chrono::steady_clock::time_point now);
  // One frame's header arrived (FrameCountingStream): it counts against the
  // message rate. Over the rate, the message it belongs to is refused; on
  // past the warning, the connection is cut off.
  void on_frame(int opcode);
  // Tells the peer it is over the message rate (at most once a second).
  void warn_rate(std::uint32_t request_id, std::chrono::steady_clock::time_point now);
  // True when the caller runs on the stream's executor and it is the
  // io_context's (one thread): where dispatch would run a function at once.
  bool on_own_thread() const noexcept;
  void enqueue(const std::shared_ptr<const std::string>& frame);
  void send_now(const wire::ServerMessage& message);
  void refuse_oversized(const Outbound& message);
  void drop_slow_consumer();
  void fail(wire::ErrorCode code, std::string text);
  void begin_close(std::string reason);
  void stop(std::string reason);
  bool closing() const noexcept { return life_.closing(); }
  bool stopped() const noexcept { return life_.stopped(); }

  const boost::asio::any_io_executor executor_;
  boost::beast::websocket::stream<FrameCountingStream> ws_;
  // The io_context's executor behind executor_ when it is that (one
  // thread), else null (a strand).
  const boost::asio::io_context::executor_type* const own_io_;
  const SessionLimits& limits_;
  SessionCommons commons_;
  BudgetShare read_share_;  // the read budget the message being read holds

  boost::beast::flat_buffer buffer_;  // the message being read
  FrameWriter writer_;                // frames (4-byte length + body), one message a write
  bool open_ = false;                 // the upgrade is answered: messages may be written
  bool writing_ = false;              // a write (or the closing handshake) is in flight
  boost::asio::steady_timer watchdog_timer_;
  MessageRate rate_;                     // every frame the peer sends
  RateLimiter rate_warnings_{1.0, 1.0};  // tell a flooding peer once a second
  bool message_refused_ = false;         // a frame of the message being read was over the rate
  bool flooded_ = false;                 // cut off for flooding (the close is on its way)

  std::shared_ptr<void> slot_;
  std::string peer_;
  std::string address_;
  ConnectionLife life_;
  InboxRelay relay_;
};

}  // namespace ttt::server
