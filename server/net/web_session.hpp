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
// it ends. It is its transport's reader and writer: a reader and a
// watchdog coroutine keep it alive, as in Session; writes follow one another
// from its FrameWriter, exactly one in flight. What it is at the lobby's
// end, and how it closes, is its NetworkParticipant base.
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

#include "net/budget_share.hpp"
#include "net/frame_counting_stream.hpp"
#include "net/frame_writer.hpp"
#include "net/network_participant.hpp"
#include "net/session_limits.hpp"
#include "ttt/tls/async_stream.hpp"

namespace ttt::server {

class WebServer;

class WebSession : public NetworkParticipant<WebSession> {
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

 private:
  friend class NetworkParticipant<WebSession>;

  boost::asio::awaitable<void> run(Request request);
  boost::asio::awaitable<void> read_loop();
  // Writes the queue's next message (one write in flight); from enqueue when
  // the writer is idle, and from each write's completion. Plain callbacks,
  // not a coroutine woken by a timer: a move's state costs one post less.
  void write_next();
  void written(const boost::system::error_code& ec);
  // Handles one whole message; false when the connection must stop reading.
  bool handle_message(std::string_view body, std::chrono::steady_clock::time_point now);
  // One frame's header arrived (FrameCountingStream): it counts against the
  // message rate. Over the rate, the message it belongs to is refused; on
  // past the warning, the connection is cut off.
  void on_frame(int opcode);
  void drop_slow_consumer();

  // What NetworkParticipant asks of its transport (network_participant.hpp).
  void enqueue(const std::shared_ptr<const std::string>& frame);
  bool can_speak() const noexcept { return open_; }
  void closing_begun() { write_next(); }
  void close_transport();
  std::chrono::steady_clock::time_point wake_at(std::chrono::steady_clock::time_point,
                                                std::chrono::steady_clock::time_point next) {
    return next;
  }
  void became_ready() {}
  static constexpr bool kCorks = false;

  boost::beast::websocket::stream<FrameCountingStream> ws_;
  BudgetShare read_share_;  // the read budget the message being read holds

  boost::beast::flat_buffer buffer_;  // the message being read
  FrameWriter writer_;                // frames (4-byte length + body), one message a write
  bool open_ = false;                 // the upgrade is answered: messages may be written
  bool writing_ = false;              // a write (or the closing handshake) is in flight
  bool message_refused_ = false;      // a frame of the message being read was over the rate
  bool flooded_ = false;              // cut off for flooding (the close is on its way)
};

}  // namespace ttt::server
