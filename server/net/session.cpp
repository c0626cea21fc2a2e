#include "net/session.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <boost/asio/dispatch.hpp>

#include "net/peer_address.hpp"
#include "net/replies.hpp"
#include "net/use_tuple.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
using std::chrono::steady_clock;

// Frames gathered into one write.
constexpr std::size_t kMaxFramesPerWrite = 64;

std::string describe(const asio::ip::tcp::socket& socket) {
  boost::system::error_code ec;
  const auto endpoint = socket.remote_endpoint(ec);
  if (ec) return "unknown peer";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

std::string address_of(const asio::ip::tcp::socket& socket) {
  boost::system::error_code ec;
  const auto endpoint = socket.remote_endpoint(ec);
  return ec ? std::string("unknown") : address_key(endpoint.address());
}

}  // namespace

Session::Session(asio::ip::tcp::socket socket, Gate& gate, asio::any_io_executor logic,
                 const SessionLimits& limits, SessionCommons commons, std::shared_ptr<void> slot,
                 std::shared_ptr<asio::ssl::context> tls)
    : executor_(socket.get_executor()),
      stream_(std::move(socket)),
      tls_(std::move(tls)),
      linked_(tls_ == nullptr),
      gate_(gate),
      logic_(std::move(logic)),
      own_io_(executor_.target<asio::io_context::executor_type>()),
      logic_io_(logic_.target<asio::io_context::executor_type>()),
      limits_(limits),
      commons_(commons),
      reader_(std::min(limits.max_hello_frame, limits.max_frame)),
      writer_(limits.max_queued_bytes, limits.max_queued_frames),
      wake_writer_(executor_),
      watchdog_timer_(executor_),
      rate_(limits.messages_per_second, limits.message_burst),
      turn_(limits.read_turn),
      last_read_(steady_clock::now()),
      started_at_(steady_clock::now()),
      silence_(limits.idle_timeout, limits.heartbeat_timeout, started_at_),
      slot_(std::move(slot)),
      peer_(describe(stream_.socket())),
      address_(address_of(stream_.socket())),
      phase_(tls_ ? ConnectionPhase::kHandshake : ConnectionPhase::kHello),
      meter_(commons.metrics) {}

Session::~Session() {
  if (reserved_ + tls_charged_ > 0) commons_.read_budget.release(reserved_ + tls_charged_);
}

void Session::enter(ConnectionPhase phase) noexcept {
  phase_ = phase;
  meter_.enter(phase);
}

bool Session::on_thread(const asio::io_context::executor_type* io) noexcept {
  return io != nullptr && io->running_in_this_thread();
}

template <typename F>
void Session::to_logic(F&& f) {
  if (on_thread(logic_io_)) {  // where dispatch would run f at once: no need to wrap it
    guarded(f);
    return;
  }
  asio::dispatch(
      logic_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { self->guarded(f); });
}

template <typename F>
void Session::guarded(F& f) {
  try {
    f();
  } catch (const std::exception& e) {
    // The inbox catches what handling a message throws; this is the net
    // under it (e.g. opening the inbox failed).
    spdlog::error("connection {}: {}", peer_, e.what());
    close();
  }
}

void Session::start() {
  meter_.enter(phase_);
  boost::system::error_code ignored;
  socket().set_option(asio::ip::tcp::no_delay(true), ignored);
  // Reads and the first try of each write never block: see read_available
  // and enqueue.
  socket().non_blocking(true, ignored);
  if (limits_.socket_send_buffer > 0) {
    socket().set_option(asio::socket_base::send_buffer_size(limits_.socket_send_buffer), ignored);
  }
  // The inbox opens before the first message is handed over (the logic
  // executor runs what it is given in order).
  to_logic([self = shared_from_this()] { self->inbox_ = self->gate_.open(self, self->address_); });
  // A coroutine that fails ends the session: logged once, the socket closed,
  // the inbox told, as for any other end.
  auto on_exception = [self = shared_from_this()](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      spdlog::error("connection {} failed: {}", self->peer_, ex.what());
      self->stop(std::string("internal error: ") + ex.what());
    }
  };
  asio::co_spawn(executor_, read_loop(), on_exception);
  asio::co_spawn(executor_, write_loop(), on_exception);
  asio::co_spawn(executor_, watchdog(), on_exception);
}

// --- frames (reading itself is in session_read.cpp) -----------------------------

bool Session::handle_frame(std::string_view body, steady_clock::time_point now) {
  // Every frame counts against the rate, whatever it is (pings and pongs
  // too), before it costs a parse.
  switch (rate_.take(now)) {
    case MessageRate::Verdict::kAllowed:
      break;
    case MessageRate::Verdict::kRefused:
      meter_.refused("rate_limited");
      if (rate_warnings_.allow(now)) {
        spdlog::debug("connection {}: over the message rate limit", peer_);
        wire::ClientMessage refused;
        const std::uint32_t request_id = wire::parse_body(body, refused) ? refused.request_id() : 0;
        meter_.error_sent(wire::ERROR_CODE_RATE_LIMITED);
        enqueue(
            error_reply(wire::ERROR_CODE_RATE_LIMITED, "too many messages: slow down", request_id)
                .frame);
      }
      return true;
    case MessageRate::Verdict::kFlooding:
      meter_.refused("flood");
      fail(wire::ERROR_CODE_RATE_LIMITED,
           "flooding: more than " +
               std::to_string(static_cast<long long>(limits_.messages_per_second)) +
               " messages a second, and on past the warning");
      return false;
  }
  wire::ClientMessage message;
  if (!wire::parse_body(body, message)) {
    meter_.refused("unparseable");
    fail(wire::ERROR_CODE_BAD_FRAME, "a frame that is not a ClientMessage");
    return false;
  }
  if (phase_ != ConnectionPhase::kReady && !message.has_hello()) {
    meter_.refused("before_hello");
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
  if (message.has_hello() && phase_ != ConnectionPhase::kReady) {
    enter(ConnectionPhase::kReady);
    reader_.set_max_frame(limits_.max_frame);  // past the small frame allowed before Hello
    watchdog_timer_.cancel();                  // from the Hello deadline to the idle clock
  }
  meter_.read(message, now);
  if (on_thread(logic_io_)) {
    // What answering it sends to a connection on this thread goes out in
    // one write, once it is handled.
    WriteCork cork;
    to_logic([this, &message] {
      if (inbox_) inbox_->receive(message);
    });
  } else {
    to_logic([self = shared_from_this(), m = std::move(message)] {
      if (self->inbox_) self->inbox_->receive(m);
    });
  }
  return !closing();  // a call made at once may have closed us
}

// --- writing --------------------------------------------------------------------

void Session::deliver(const Outbound& message) {
  if (message.frame->size() > limits_.max_queued_bytes) {
    refuse_oversized(message);
    return;
  }
  if (on_thread(own_io_)) {
    // Where dispatch would run it at once (one thread), without wrapping it.
    if (message.message) meter_.sent(*message.message);
    enqueue(message.frame);
    return;
  }
  asio::dispatch(executor_, [self = shared_from_this(), message] {
    if (message.message) self->meter_.sent(*message.message);
    self->enqueue(message.frame);
  });
}

void Session::refuse_oversized(const Outbound& message) {
  auto reply = oversized_refusal(message, peer_, limits_.max_queued_bytes);
  asio::dispatch(executor_,
                 [self = shared_from_this(), frame = reply.frame] { self->enqueue(frame); });
}

void Session::send_now(const wire::ServerMessage& message) {
  enqueue(std::make_shared<const std::string>(wire::encode_frame(message)));
}

void Session::enqueue(const std::shared_ptr<const std::string>& frame) {
  if (stopped()) return;
  if (!corked_ && writer_.empty() && !writing_ && linked_ && stream_.pending_output() == 0) {
    if (WriteCork::open() && on_thread(own_io_)) {
      // Kept until the cork closes (uncork), with whatever follows it.
      corked_ = true;
      writer_.push(frame);
      WriteCork::hold(shared_from_this());
      return;
    }
    write_at_once(frame);
    return;
  }
  // Records the stream holds count as queued: they are this peer's backlog
  // (until it is dropped as a slow consumer, when only the Error may follow).
  const std::size_t backlog = dropped_backlog_ ? 0 : stream_.pending_output();
  if (!writer_.fits(frame->size(), backlog)) {
    if (!closing()) drop_slow_consumer();
    return;
  }
  queue_push(frame, 0);
}

void Session::write_at_once(const std::shared_ptr<const std::string>& frame) {
  // Nothing waits and no write is in flight: the socket takes the frame at
  // once when it can, without waking the writer (the usual case for a peer
  // that keeps up). Over TLS the frame becomes a record at once and what
  // the socket doesn't take of it stays with the stream, for the writer to
  // finish (a record must not stop half way); over plain TCP what it
  // doesn't take goes to the writer's queue.
  boost::system::error_code ec;
  const asio::const_buffer buffer = asio::buffer(*frame);
  std::size_t sent = stream_.write_now({&buffer, 1}, ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    sent = 0;
  } else if (ec) {
    stop(ec.message());
    return;
  }
  if (sent < frame->size()) {
    queue_push(frame, sent);
  } else if (stream_.pending_output() > 0) {
    wake_writer_.cancel_one();
  }
}

void Session::queue_push(const std::shared_ptr<const std::string>& frame, std::size_t sent) {
  writer_.push(frame, sent);
  if (!corked_) wake_writer_.cancel_one();
}

void Session::uncork() noexcept {
  if (!std::exchange(corked_, false) || stopped()) return;
  if (writer_.frames() == 1) {
    write_at_once(writer_.pop_front());  // the one frame kept: as if sent at once
    return;
  }
  // Frames followed it: all of them go in one write (over TLS, records of
  // up to 16 KiB); what the socket doesn't take is the writer's.
  boost::system::error_code ec;
  std::size_t sent = stream_.write_now(writer_.gather(kMaxFramesPerWrite), ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    sent = 0;
  } else if (ec) {
    stop(ec.message());
    return;
  }
  writer_.consume(sent);
  if (!writer_.empty() || stream_.pending_output() > 0) wake_writer_.cancel_one();
}

void Session::drop_slow_consumer() {
  // What is queued will never be wanted: it makes way for one last Error,
  // which the peer gets if it reads again before the linger ends.
  std::string reason = "stopped reading: write queue full (" + std::to_string(writer_.frames()) +
                       " frames, " + std::to_string(writer_.bytes()) + " bytes)";
  corked_ = false;  // never begun: dropped with the rest
  // A frame the socket took in part is finished first, or the peer would
  // read the Error as the rest of it.
  writer_.drop_waiting();
  // TLS records already made go out first (whole frames, in order); they no
  // longer count against the queue, or the Error would find it full again.
  dropped_backlog_ = true;
  fail(wire::ERROR_CODE_SLOW_CONSUMER, std::move(reason));
}

asio::awaitable<void> Session::write_loop() {
  auto self = shared_from_this();
  while (!stopped()) {
    if (linked_ && stream_.pending_output() > 0) {
      // TLS records made already (by enqueue or a read) go first.
      writing_ = true;
      const auto ec = co_await stream_.flush();
      writing_ = false;
      if (ec) {
        stop(ec.message());
        co_return;
      }
      continue;
    }
    if (writer_.empty() || !linked_) {
      if (closing() && linked_) {
        // Everything is sent: end our half and let the watchdog or the peer
        // finish. (Over TLS too, without close_notify: frames say their own
        // length, so the peer sees a frame cut short anyway.)
        boost::system::error_code ignored;
        socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        co_return;
      }
      wake_writer_.expires_at(steady_clock::time_point::max());
      co_await wake_writer_.async_wait(use_tuple);
      continue;
    }
    // Frames kept for a cork (which closes before the writer can run on its
    // thread) go now, in order, with those behind them.
    corked_ = false;
    const auto& buffers = writer_.begin_write(kMaxFramesPerWrite);
    boost::system::error_code ec;
    if (stream_.is_tls()) {
      // The frames become records now; the stream counts them until sent.
      stream_.encrypt(buffers, ec);
      writer_.end_write();
      if (!ec) {
        writing_ = true;
        ec = co_await stream_.flush();
        writing_ = false;
      }
    } else {
      writing_ = true;
      std::tie(ec, std::ignore) = co_await stream_.write(buffers);
      writing_ = false;
      writer_.end_write();
    }
    if (ec) {
      stop(ec.message());
      co_return;
    }
  }
}

// --- deadlines and closing ------------------------------------------------------

asio::awaitable<void> Session::watchdog() {
  auto self = shared_from_this();
  const auto hello_deadline = started_at_ + limits_.hello_timeout;
  while (!stopped()) {
    const auto now = steady_clock::now();
    auto next = steady_clock::time_point::max();
    if (closing()) {
      if (now >= close_deadline_) {
        stop(close_reason_);
        co_return;
      }
      next = close_deadline_;
    } else if (phase_ != ConnectionPhase::kReady) {
      if (now >= hello_deadline) {
        fail(wire::ERROR_CODE_HELLO_TIMEOUT,
             "no Hello within " + std::to_string(limits_.hello_timeout.count()) + " ms");
        continue;
      }
      next = hello_deadline;
    } else {
      next = check_silence(now);
      if (closing()) continue;
    }
    next = std::min(next, release_idle_tls(now));
    watchdog_timer_.expires_at(next);
    co_await watchdog_timer_.async_wait(use_tuple);
  }
}

steady_clock::time_point Session::check_silence(steady_clock::time_point now) {
  const SilenceWatch::Verdict verdict = silence_.check(now);
  const std::string why = "silent for " + std::to_string(verdict.timeout.count()) + " ms";
  switch (verdict.action) {
    case SilenceWatch::Action::kWait:
      break;
    case SilenceWatch::Action::kPing: {
      wire::ServerMessage ping;
      ping.mutable_ping()->set_nonce(static_cast<std::uint64_t>(now.time_since_epoch().count()));
      send_now(ping);
      break;
    }
    case SilenceWatch::Action::kIdle:
      fail(wire::ERROR_CODE_IDLE_TIMEOUT, why);
      break;
    case SilenceWatch::Action::kNoHeartbeat:
      stop("no heartbeat: " + why);  // the link is dead: nobody would read an Error
      break;
  }
  return verdict.next;
}

void Session::set_heartbeat(bool on) {
  asio::dispatch(executor_, [self = shared_from_this(), on] {
    if (self->silence_.set_heartbeat(on)) self->watchdog_timer_.cancel();  // the deadlines changed
  });
}

void Session::close() {
  asio::dispatch(executor_,
                 [self = shared_from_this()] { self->begin_close("closed by the server"); });
}

void Session::fail(wire::ErrorCode code, std::string text) {
  if (closing()) return;
  spdlog::debug("connection {}: {}", peer_, text);
  meter_.error_sent(code);
  if (!linked_) {
    stop(std::move(text));  // before the TLS handshake nothing can be said
    return;
  }
  enqueue(error_reply(code, text, 0, true).frame);
  begin_close(std::move(text));
}

void Session::begin_close(std::string reason) {
  if (closing()) return;
  enter(ConnectionPhase::kClosing);
  close_reason_ = std::move(reason);
  close_deadline_ = steady_clock::now() + limits_.close_linger;
  wake_writer_.cancel();
  watchdog_timer_.cancel();
}

void Session::stop(std::string reason) {
  if (stopped()) return;
  enter(ConnectionPhase::kStopped);
  if (close_reason_.empty()) close_reason_ = std::move(reason);
  boost::system::error_code ignored;
  socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
  wake_writer_.cancel();
  watchdog_timer_.cancel();
  writer_.clear();
  corked_ = false;
  const auto lifetime =
      std::chrono::duration_cast<std::chrono::milliseconds>(steady_clock::now() - started_at_);
  // One line per connection, but not thousands a second from one address.
  if (const auto verdict = commons_.log.check(address_); verdict.log) {
    spdlog::info("connection {} closed after {} ms: {}{}", peer_, lifetime.count(), close_reason_,
                 LogLimiter::suffix(address_, verdict.held_back));
  }
  // Always queued, never at once: a session may stop inside a call the
  // logic executor is making, which must not see the connection vanish.
  asio::post(logic_, [self = shared_from_this()] {
    if (auto inbox = std::move(self->inbox_)) inbox->closed();
  });
}

}  // namespace ttt::server
