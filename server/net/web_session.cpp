#include "net/web_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/error.hpp>
#include <utility>

#include "net/replies.hpp"
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

std::string web_kind_of(const wire::ServerMessage& message) {
  const auto* field = wire::ServerMessage::descriptor()->FindFieldByNumber(message.body_case());
  return field ? field->name() : "message";
}

bool expected_end(const boost::system::error_code& ec) {
  return ec == websocket::error::closed || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
         ec == asio::error::bad_descriptor || tls::closed_without_notify(ec);
}

}  // namespace

WebSession::WebSession(tls::AsyncStream stream, std::shared_ptr<void> slot, WebServer& server,
                       std::string peer, std::string address)
    : executor_(stream.get_executor()),
      ws_(FrameCountingStream(std::move(stream), [this](int opcode) { on_frame(opcode); })),
      gate_(server.gate()),
      logic_(server.logic()),
      own_io_(executor_.target<asio::io_context::executor_type>()),
      logic_io_(logic_.target<asio::io_context::executor_type>()),
      limits_(server.limits()),
      commons_(server.commons()),
      watchdog_timer_(executor_),
      rate_(limits_.messages_per_second, limits_.message_burst),
      started_at_(steady_clock::now()),
      last_received_(started_at_),
      slot_(std::move(slot)),
      peer_(std::move(peer)),
      address_(std::move(address)) {
  if (commons_.metrics) commons_.metrics->web_sessions.add(1);
}

WebSession::~WebSession() {
  if (reserved_ > 0) commons_.read_budget.release(reserved_);
  set_state(metrics::ConnectionState::kNone);
  if (commons_.metrics) commons_.metrics->web_sessions.add(-1);
}

bool WebSession::on_thread(const asio::io_context::executor_type* io) noexcept {
  return io != nullptr && io->running_in_this_thread();
}

template <typename F>
void WebSession::to_logic(F&& f) {
  if (on_thread(logic_io_)) {
    guarded(f);
    return;
  }
  asio::dispatch(
      logic_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { self->guarded(f); });
}

template <typename F>
void WebSession::guarded(F& f) {
  try {
    f();
  } catch (const std::exception& e) {
    spdlog::error("web connection {}: {}", peer_, e.what());
    close();
  }
}

void WebSession::start(Request request) {
  set_state(metrics::ConnectionState::kHello);
  auto on_exception = [self = shared_from_this()](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      spdlog::error("web connection {} failed: {}", self->peer_, ex.what());
      self->stop(std::string("internal error: ") + ex.what());
    }
  };
  asio::co_spawn(executor_, watchdog(), on_exception);
  asio::co_spawn(executor_, run(std::move(request)), on_exception);
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
  if (stopped_) co_return;
  if (ec) {
    stop("WebSocket upgrade failed: " + ec.message());
    co_return;
  }
  open_ = true;
  to_logic([self] { self->inbox_ = self->gate_.open(self, self->address_); });
  write_next();
  co_await read_loop();
}

// --- reading --------------------------------------------------------------------

bool WebSession::reserve_read_space(std::size_t needed) {
  const std::size_t charged = needed > ReadBudget::kAllowance ? needed - ReadBudget::kAllowance : 0;
  if (charged <= reserved_) return true;
  if (!commons_.read_budget.reserve(charged - reserved_)) return false;
  reserved_ = charged;
  return true;
}

void WebSession::return_read_space() {
  const std::size_t held = buffer_.capacity();
  const std::size_t charged = held > ReadBudget::kAllowance ? held - ReadBudget::kAllowance : 0;
  if (charged >= reserved_) return;
  commons_.read_budget.release(reserved_ - charged);
  reserved_ = charged;
}

asio::awaitable<void> WebSession::read_loop() {
  asio::steady_timer budget_wait(executor_);
  bool paused = false;
  while (!stopped_) {
    if (!reserve_read_space(buffer_.size() + kReadChunk)) {
      // The budget is spent: leave the bytes in the kernel and ask again
      // shortly (TCP holds the browser back meanwhile).
      if (!paused && commons_.metrics) commons_.metrics->limit_hits.at("read_budget").add();
      paused = true;
      budget_wait.expires_after(kWebBudgetRetry);
      co_await budget_wait.async_wait(use_tuple);
      continue;
    }
    paused = false;
    auto [ec, n] = co_await ws_.async_read_some(buffer_, kReadChunk, use_tuple);
    if (stopped_) co_return;
    if (ec) {
      stop(expected_end(ec) ? std::string("closed by peer") : "read: " + ec.message());
      co_return;
    }
    const std::size_t limit =
        hello_ ? limits_.max_frame : std::min(limits_.max_hello_frame, limits_.max_frame);
    if (!closing_ && buffer_.size() > limit) {
      refused_frame("too_large");
      fail(wire::ERROR_CODE_FRAME_TOO_LARGE, "message of more than " + std::to_string(limit) +
                                                 " bytes (the limit" +
                                                 (hello_ ? "" : " before Hello") + ")");
    }
    if (closing_) {
      buffer_.consume(buffer_.size());  // drain the peer until it closes or the linger ends
    } else if (ws_.is_message_done()) {
      const auto now = steady_clock::now();
      last_received_ = now;
      const auto data = buffer_.data();
      const std::string_view body(static_cast<const char*>(data.data()), data.size());
      if (std::exchange(message_refused_, false)) {
        // Over the message rate: dropped, and the peer told (its request id
        // if it reads as a ClientMessage).
        wire::ClientMessage refused;
        warn_rate(wire::parse_body(body, refused) ? refused.request_id() : 0, now);
      } else if (!ws_.got_binary()) {
        refused_frame("unparseable");
        fail(wire::ERROR_CODE_BAD_FRAME,
             "a text message: the game's WebSocket carries binary protobuf (docs/web.md)");
      } else {
        handle_message(body, now);
      }
      buffer_.consume(buffer_.size());
    }
    if (buffer_.size() == 0 && buffer_.capacity() > ReadBudget::kAllowance) {
      buffer_.shrink_to_fit();
      return_read_space();
    }
  }
}

bool WebSession::handle_message(std::string_view body, steady_clock::time_point now) {
  wire::ClientMessage message;
  if (!wire::parse_body(body, message)) {
    refused_frame("unparseable");
    fail(wire::ERROR_CODE_BAD_FRAME, "a message that is not a ClientMessage");
    return false;
  }
  if (!hello_ && !message.has_hello()) {
    refused_frame("before_hello");
    fail(wire::ERROR_CODE_HELLO_REQUIRED, "the first message must be Hello");
    return false;
  }
  if (message.has_ping()) {
    wire::ServerMessage pong;
    pong.set_in_reply_to(message.request_id());
    pong.mutable_pong()->set_nonce(message.ping().nonce());
    send_now(pong);
    return true;
  }
  if (message.has_pong()) return true;
  if (message.has_hello() && !hello_) {
    hello_ = true;
    set_state(metrics::ConnectionState::kReady);
    watchdog_timer_.cancel();  // from the Hello deadline to the idle clock
  }
  if (message.has_make_move()) {
    move_request_ = message.request_id() != 0 ? message.request_id() : 1;
    move_game_ = message.make_move().game_id();
    move_read_at_ = now;
  }
  if (on_thread(logic_io_)) {
    to_logic([this, &message] {
      if (inbox_) inbox_->receive(message);
    });
  } else {
    to_logic([self = shared_from_this(), m = std::move(message)] {
      if (self->inbox_) self->inbox_->receive(m);
    });
  }
  return !closing_;
}

void WebSession::on_frame(int opcode) {
  if (closing_ || stopped_ || flooded_) return;
  const auto now = steady_clock::now();
  switch (rate_.take(now)) {
    case MessageRate::Verdict::kAllowed:
      return;
    case MessageRate::Verdict::kRefused:
      refused_frame("rate_limited");
      if (opcode < 8) {
        message_refused_ = true;  // a data frame: its message goes unheard
      } else {
        // A control frame: Beast answers a ping by itself; the peer is told.
        asio::post(executor_, [self = shared_from_this(), now] { self->warn_rate(0, now); });
      }
      return;
    case MessageRate::Verdict::kFlooding:
      // The frame's bytes are still on their way into Beast: the connection
      // is failed from the executor's queue, not from inside the read.
      refused_frame("flood");
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

void WebSession::warn_rate(std::uint32_t request_id, steady_clock::time_point now) {
  if (closing_ || !rate_warnings_.allow(now)) return;
  spdlog::debug("web connection {}: over the message rate limit", peer_);
  if (commons_.metrics) commons_.metrics->error_sent(wire::ERROR_CODE_RATE_LIMITED);
  enqueue(
      error_reply(wire::ERROR_CODE_RATE_LIMITED, "too many messages: slow down", request_id).frame);
}

// --- writing --------------------------------------------------------------------

void WebSession::deliver(const Outbound& message) {
  if (message.frame->size() > limits_.max_queued_bytes) {
    refuse_oversized(message);
    return;
  }
  if (on_thread(own_io_)) {
    if (message.message) note_sent(*message.message);
    enqueue(message.frame);
    return;
  }
  asio::dispatch(executor_, [self = shared_from_this(), message] {
    if (message.message) self->note_sent(*message.message);
    self->enqueue(message.frame);
  });
}

void WebSession::note_sent(const wire::ServerMessage& message) noexcept {
  auto* metrics = commons_.metrics;
  if (metrics == nullptr) return;
  if (message.has_error()) metrics->error_sent(message.error().code());
  if (move_request_ == 0) return;
  const bool answer =
      (message.has_state() && (move_game_ == 0 || message.state().game_id() == move_game_)) ||
      (message.has_error() && message.in_reply_to() == move_request_);
  if (!answer) return;
  metrics->move_reply_seconds.observe(steady_clock::now() - move_read_at_);
  move_request_ = 0;
}

void WebSession::refuse_oversized(const Outbound& message) {
  const std::string kind = message.message ? web_kind_of(*message.message) : "message";
  spdlog::error(
      "server error: a {} of {} bytes for {} is larger than a connection's whole send queue ({} "
      "bytes); not sent",
      kind, message.frame->size(), peer_, limits_.max_queued_bytes);
  const std::uint32_t request_id = message.message ? message.message->in_reply_to() : 0;
  auto reply = error_reply(wire::ERROR_CODE_INTERNAL,
                           "the server could not send its " + kind +
                               ": it was too large (the server's fault; the connection stays open)",
                           request_id);
  asio::dispatch(executor_,
                 [self = shared_from_this(), frame = reply.frame] { self->enqueue(frame); });
}

void WebSession::send_now(const wire::ServerMessage& message) {
  enqueue(std::make_shared<const std::string>(wire::encode_frame(message)));
}

void WebSession::enqueue(const std::shared_ptr<const std::string>& frame) {
  if (stopped_) return;
  if (queue_.size() >= limits_.max_queued_frames ||
      queued_bytes_ + frame->size() > limits_.max_queued_bytes) {
    if (!closing_) drop_slow_consumer();
    return;
  }
  queued_bytes_ += frame->size();
  queue_.push_back(frame);
  write_next();
}

void WebSession::drop_slow_consumer() {
  std::string reason = "stopped reading: write queue full (" + std::to_string(queue_.size()) +
                       " messages, " + std::to_string(queued_bytes_) + " bytes)";
  queue_.clear();
  queued_bytes_ = 0;
  fail(wire::ERROR_CODE_SLOW_CONSUMER, std::move(reason));
}

void WebSession::write_next() {
  if (writing_ || stopped_ || !open_) return;
  if (queue_.empty()) {
    if (closing_) {
      // Everything is sent: the closing handshake (the watchdog ends it if
      // the browser never answers).
      writing_ = true;
      ws_.async_close(websocket::close_code::normal,
                      [self = shared_from_this()](const boost::system::error_code&) {});
    }
    return;
  }
  writing_ = true;
  in_flight_ = std::move(queue_.front());
  queue_.pop_front();
  // The frame's 4-byte length is the TCP framing's: the WebSocket frames
  // the body itself.
  ws_.async_write(asio::buffer(*in_flight_) + wire::kFrameHeaderSize,
                  [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                    self->written(ec);
                  });
}

void WebSession::written(const boost::system::error_code& ec) {
  writing_ = false;
  queued_bytes_ -= std::min(in_flight_->size(), queued_bytes_);
  in_flight_.reset();
  if (ec) {
    stop(expected_end(ec) ? std::string("closed by peer") : "write: " + ec.message());
    return;
  }
  write_next();
}

// --- deadlines and closing ------------------------------------------------------

asio::awaitable<void> WebSession::watchdog() {
  auto self = shared_from_this();
  const auto hello_deadline = started_at_ + limits_.hello_timeout;
  while (!stopped_) {
    const auto now = steady_clock::now();
    auto next = steady_clock::time_point::max();
    if (closing_) {
      if (now >= close_deadline_) {
        stop(close_reason_);
        co_return;
      }
      next = close_deadline_;
    } else if (!hello_) {
      if (now >= hello_deadline) {
        fail(wire::ERROR_CODE_HELLO_TIMEOUT,
             "no Hello within " + std::to_string(limits_.hello_timeout.count()) + " ms");
        continue;
      }
      next = hello_deadline;
    } else {
      next = check_silence(now);
      if (stopped_ || closing_) continue;
    }
    watchdog_timer_.expires_at(next);
    co_await watchdog_timer_.async_wait(use_tuple);
  }
}

steady_clock::time_point WebSession::check_silence(steady_clock::time_point now) {
  const bool heartbeat =
      heartbeat_ && limits_.heartbeat_timeout.count() > 0 &&
      (limits_.idle_timeout.count() == 0 || limits_.heartbeat_timeout < limits_.idle_timeout);
  const auto timeout = heartbeat ? limits_.heartbeat_timeout : limits_.idle_timeout;
  if (timeout.count() <= 0) return steady_clock::time_point::max();
  const auto drop_at = last_received_ + timeout;
  if (now >= drop_at) {
    const std::string why = "silent for " + std::to_string(timeout.count()) + " ms";
    if (heartbeat) {
      stop("no heartbeat: " + why);
    } else {
      fail(wire::ERROR_CODE_IDLE_TIMEOUT, why);
    }
    return drop_at;
  }
  const auto interval = heartbeat ? timeout / 3 : timeout / 2;
  auto ping_at = std::max(last_received_, last_ping_) + interval;
  if (now >= ping_at) {
    last_ping_ = now;
    wire::ServerMessage ping;
    ping.mutable_ping()->set_nonce(static_cast<std::uint64_t>(now.time_since_epoch().count()));
    send_now(ping);
    ping_at = now + interval;
  }
  return std::min(drop_at, ping_at);
}

void WebSession::set_heartbeat(bool on) {
  asio::dispatch(executor_, [self = shared_from_this(), on] {
    if (self->heartbeat_ == on) return;
    self->heartbeat_ = on;
    self->watchdog_timer_.cancel();
  });
}

void WebSession::close() {
  asio::dispatch(executor_,
                 [self = shared_from_this()] { self->begin_close("closed by the server"); });
}

void WebSession::fail(wire::ErrorCode code, std::string text) {
  if (closing_) return;
  spdlog::debug("web connection {}: {}", peer_, text);
  if (commons_.metrics) commons_.metrics->error_sent(code);
  if (!open_) {
    stop(std::move(text));
    return;
  }
  enqueue(error_reply(code, text, 0, true).frame);
  begin_close(std::move(text));
}

void WebSession::begin_close(std::string reason) {
  if (closing_ || stopped_) return;
  closing_ = true;
  set_state(metrics::ConnectionState::kClosing);
  close_reason_ = std::move(reason);
  close_deadline_ = steady_clock::now() + limits_.close_linger;
  watchdog_timer_.cancel();
  write_next();
}

void WebSession::stop(std::string reason) {
  if (stopped_) return;
  stopped_ = true;
  closing_ = true;
  set_state(metrics::ConnectionState::kClosing);
  if (close_reason_.empty()) close_reason_ = std::move(reason);
  ws_.next_layer().close();
  watchdog_timer_.cancel();
  queue_.clear();
  queued_bytes_ = 0;
  const auto lifetime =
      std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - started_at_);
  if (const auto verdict = commons_.log.check(address_); verdict.log) {
    spdlog::info("web connection {} closed after {} ms: {}{}", peer_, lifetime.count(),
                 close_reason_, LogLimiter::suffix(address_, verdict.held_back));
  }
  asio::post(logic_, [self = shared_from_this()] {
    if (auto inbox = std::move(self->inbox_)) inbox->closed();
  });
}

void WebSession::set_state(metrics::ConnectionState to) noexcept {
  if (state_ == to) return;
  if (commons_.metrics) commons_.metrics->connection_state(state_, to);
  state_ = to;
}

void WebSession::refused_frame(const char* reason) noexcept {
  if (commons_.metrics) commons_.metrics->frames_refused.at(reason).add();
}

}  // namespace ttt::server
