#include "net/web_session.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/websocket/error.hpp>
#include <utility>

#include "net/use_tuple.hpp"
#include "net/web_server.hpp"
#include "ttt/tls/tls_errors.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using std::chrono::steady_clock;

// Each read takes at most this much of a message, so a message's memory
// grows (and is charged to the read budget) as it arrives.
constexpr std::size_t kReadChunk = 2048;
constexpr auto kWebBudgetRetry = std::chrono::milliseconds(20);

bool expected_end(const boost::system::error_code& ec) {
  return ec == websocket::error::closed || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
         ec == asio::error::bad_descriptor || tls::closed_without_notify(ec);
}

}  // namespace

WebSession::WebSession(tls::AsyncStream stream, std::shared_ptr<void> slot, WebServer& server,
                       std::string peer, std::string address)
    : NetworkParticipant(stream.get_executor(), server.gate(), server.logic(), server.limits(),
                         server.commons(), std::move(slot), "web connection", std::move(peer),
                         std::move(address), ConnectionPhase::kHello),
      ws_(FrameCountingStream(std::move(stream), [this](int opcode) { on_frame(opcode); })),
      read_share_(commons_.read_budget),
      writer_(limits_.max_queued_bytes, limits_.max_queued_frames, wire::kFrameHeaderSize) {
  if (commons_.metrics) commons_.metrics->web_sessions.add(1);
}

WebSession::~WebSession() {
  life_.meter().leave();
  if (commons_.metrics) commons_.metrics->web_sessions.add(-1);
}

void WebSession::start(Request request) {
  life_.enter(life_.phase());
  spawn(watchdog());
  spawn(run(std::move(request)));
}

asio::awaitable<void> WebSession::run(Request request) {
  auto self = shared_from_this();
  // Deadlines are the watchdog's; messages are binary protobuf; no
  // compression (a CPU cost, and secrets beside chat would invite
  // compression oracles).
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = websocket::stream_base::none();
  timeouts.idle_timeout = websocket::stream_base::none();
  timeouts.keep_alive_pings = false;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
    response.set(beast::http::field::server, "ttt-server");
  }));
  ws_.binary(true);
  ws_.read_message_max(limits_.max_frame + kReadChunk);
  auto [ec] = co_await ws_.async_accept(request, use_tuple);
  if (stopped()) co_return;
  if (ec) {
    stop("WebSocket upgrade failed: " + ec.message());
    co_return;
  }
  open_ = true;
  relay_.open(self, address_);
  write_next();
  co_await read_loop();
}

// --- reading --------------------------------------------------------------------

asio::awaitable<void> WebSession::read_loop() {
  asio::steady_timer budget_wait(executor_);
  bool paused = false;
  while (!stopped()) {
    if (!read_share_.cover(buffer_.size() + kReadChunk)) {
      // The budget is spent: leave the bytes in the kernel and ask again
      // shortly (TCP holds the browser back meanwhile).
      if (!paused) life_.meter().limit_hit("read_budget");
      paused = true;
      budget_wait.expires_after(kWebBudgetRetry);
      co_await budget_wait.async_wait(use_tuple);
      continue;
    }
    paused = false;
    auto [ec, n] = co_await ws_.async_read_some(buffer_, kReadChunk, use_tuple);
    if (stopped()) co_return;
    if (ec) {
      stop(expected_end(ec) ? std::string("closed by peer") : "read: " + ec.message());
      co_return;
    }
    const bool hello = life_.ready();
    const std::size_t limit =
        hello ? limits_.max_frame : std::min(limits_.max_hello_frame, limits_.max_frame);
    if (!closing() && buffer_.size() > limit) {
      life_.meter().refused("too_large");
      fail(wire::ERROR_CODE_FRAME_TOO_LARGE, "message of more than " + std::to_string(limit) +
                                                 " bytes (the limit" +
                                                 (hello ? "" : " before Hello") + ")");
    }
    if (closing()) {
      buffer_.consume(buffer_.size());  // drain the peer until it closes or the linger ends
    } else if (ws_.is_message_done()) {
      const auto now = steady_clock::now();
      life_.heard(now);
      const auto data = buffer_.data();
      const std::string_view body(static_cast<const char*>(data.data()), data.size());
      if (std::exchange(message_refused_, false)) {
        // Over the message rate: dropped, and the peer told (its request id
        // if it reads as a ClientMessage).
        warn_rate(body, now);
      } else if (!ws_.got_binary()) {
        life_.meter().refused("unparseable");
        fail(wire::ERROR_CODE_BAD_FRAME,
             "a text message: the game's WebSocket carries binary protobuf (docs/web.md)");
      } else {
        handle_message(body, now);
      }
      buffer_.consume(buffer_.size());
    }
    if (buffer_.size() == 0 && buffer_.capacity() > ReadBudget::kAllowance) {
      buffer_.shrink_to_fit();
      read_share_.fit(buffer_.capacity());
    }
  }
}

bool WebSession::handle_message(std::string_view body, steady_clock::time_point now) {
  wire::ClientMessage message;
  if (!wire::parse_body(body, message)) {
    life_.meter().refused("unparseable");
    fail(wire::ERROR_CODE_BAD_FRAME, "a message that is not a ClientMessage");
    return false;
  }
  return take(message, now);
}

void WebSession::on_frame(int opcode) {
  if (closing() || flooded_) return;
  const auto now = steady_clock::now();
  switch (rate_.take(now)) {
    case MessageRate::Verdict::kAllowed:
      return;
    case MessageRate::Verdict::kRefused:
      life_.meter().refused("rate_limited");
      if (opcode < 8) {
        message_refused_ = true;  // a data frame: its message goes unheard
      } else {
        // A control frame: Beast answers a ping by itself; the peer is told.
        asio::post(executor_, [self = shared_from_this(), now] { self->warn_rate({}, now); });
      }
      return;
    case MessageRate::Verdict::kFlooding:
      // The frame's bytes are still on their way into Beast: the connection
      // is failed from the executor's queue, not from inside the read.
      life_.meter().refused("flood");
      flooded_ = true;
      asio::post(executor_, [self = shared_from_this()] {
        self->fail(wire::ERROR_CODE_RATE_LIMITED,
                   "flooding: more than " +
                       std::to_string(static_cast<long long>(self->limits_.messages_per_second)) +
                       " WebSocket frames a second, and on past the warning");
      });
      return;
  }
}

// --- writing --------------------------------------------------------------------

void WebSession::enqueue(const std::shared_ptr<const std::string>& frame) {
  if (stopped()) return;
  if (!writer_.fits(frame->size())) {
    if (!closing()) drop_slow_consumer();
    return;
  }
  writer_.push(frame);
  write_next();
}

void WebSession::drop_slow_consumer() {
  std::string reason = "stopped reading: write queue full (" + std::to_string(writer_.frames()) +
                       " messages, " + std::to_string(writer_.bytes()) + " bytes)";
  writer_.drop_waiting();
  fail(wire::ERROR_CODE_SLOW_CONSUMER, std::move(reason));
}

void WebSession::write_next() {
  if (writing_ || stopped() || !open_) return;
  if (writer_.empty()) {
    if (closing()) {
      // Everything is sent: the closing handshake (the watchdog ends it if
      // the browser never answers).
      writing_ = true;
      ws_.async_close(websocket::close_code::normal,
                      [self = shared_from_this()](const boost::system::error_code&) {});
    }
    return;
  }
  writing_ = true;
  // One frame a message: the writer drops its 4-byte length (the TCP
  // framing's), as the WebSocket frames the body itself.
  ws_.async_write(writer_.begin_write(1).front(),
                  [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                    self->written(ec);
                  });
}

void WebSession::written(const boost::system::error_code& ec) {
  writing_ = false;
  writer_.end_write();
  if (ec) {
    stop(expected_end(ec) ? std::string("closed by peer") : "write: " + ec.message());
    return;
  }
  write_next();
}

void WebSession::close_transport() {
  ws_.next_layer().close();
  writer_.clear();
}

}  // namespace ttt::server
