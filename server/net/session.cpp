#include "net/session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "net/peer_address.hpp"
#include "net/transport.hpp"
#include "net/use_tuple.hpp"
#include "ttt/tls/alpn.hpp"
#include "ttt/tls/tls_errors.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
using std::chrono::steady_clock;

// Frames gathered into one write.
constexpr std::size_t kMaxFramesPerWrite = 64;

// How long a session whose read the budget can't cover waits before asking again.
constexpr auto kBudgetRetry = std::chrono::milliseconds(20);

// What a TLS connection's state costs beyond the frames it reads, counted in
// the read budget: a handshake under way (OpenSSL's buffers and handshake
// state, about 55 KB measured), and OpenSSL's record buffers of a connection
// in use (about 38 KB), which an idle connection gives back.
constexpr std::size_t kTlsHandshakeBytes = 56 * 1024;
constexpr std::size_t kTlsBuffersBytes = 36 * 1024;
constexpr auto kTlsIdle = std::chrono::seconds(1);

// What a closing connection reads of its peer, at most, before it ends.
constexpr std::size_t kMaxDrain = 64 * 1024;

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
    : NetworkParticipant(socket.get_executor(), gate, std::move(logic), limits, commons,
                         std::move(slot), "connection", describe(socket), address_of(socket),
                         tls ? ConnectionPhase::kHandshake : ConnectionPhase::kHello),
      stream_(std::move(socket)),
      tls_(std::move(tls)),
      framing_(tls_ == nullptr),
      read_share_(commons.read_budget),
      tls_share_(commons.read_budget),
      reader_(std::min(limits.max_hello_frame, limits.max_frame)),
      writer_(limits.max_queued_bytes, limits.max_queued_frames),
      wake_writer_(executor_),
      turn_(limits.read_turn),
      last_read_(steady_clock::now()) {}

void Session::start() {
  life_.enter(life_.phase());
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
  relay_.open(shared_from_this(), address_);
  spawn(read_loop());
  spawn(write_loop());
  spawn(watchdog());
}

// --- reading --------------------------------------------------------------------

asio::awaitable<void> Session::read_loop() {
  auto self = shared_from_this();
  if (tls_ && !co_await open_tls()) co_return;
  asio::steady_timer budget_wait(executor_);
  bool paused = false;
  bool yielded = false;
  while (!stopped()) {
    if (paused) {
      // The read budget is spent: leave the bytes in the kernel (the peer is
      // slowed down by TCP itself) and ask again shortly.
      budget_wait.expires_after(kBudgetRetry);
      co_await budget_wait.async_wait(use_tuple);
    } else if (yielded) {
      // The last turn was spent with input perhaps left: every other
      // connection ready now goes first, then this one reads on, without
      // waiting on the socket (what it holds already would not wake a wait).
      co_await asio::post(executor_, asio::use_awaitable);
      if (stopped()) co_return;
    } else if (!stream_.holds_input()) {
      // Wait for data first, then read what is there: no read that comes
      // back empty, and no buffer held while the peer is idle. (What TLS
      // received already would not wake a wait: it is read at once.)
      auto [wait_ec] = co_await socket().async_wait(asio::ip::tcp::socket::wait_read, use_tuple);
      if (wait_ec) {
        stop(wait_ec.message());
        co_return;
      }
    }
    turn_.begin();
    const ReadResult result = read_available();
    if (result == ReadResult::kStopped) co_return;
    send_stream_output();
    yielded = result == ReadResult::kYield;
    const bool now_paused = result == ReadResult::kPaused;
    if (now_paused && !paused) life_.meter().limit_hit("read_budget");
    paused = now_paused;
  }
}

bool Session::reserve_read_space() {
  // OpenSSL takes its buffers back for the read: their share first.
  if (stream_.is_tls() && framing_ && tls_share_.held() == 0) {
    if (!tls_share_.resize(kTlsBuffersBytes)) return false;
    watchdog_timer_.cancel();  // it gives them back again once the connection is idle
  }
  return read_share_.cover(reader_.capacity_needed());
}

void Session::return_read_space() { read_share_.fit(reader_.capacity()); }

Session::ReadResult Session::read_available() {
  // Whole frames a spent turn left in the buffer go first.
  if (reader_.buffered() > 0 && !closing()) {
    take_frames(steady_clock::now());
    if (stopped()) return ReadResult::kStopped;
    if (turn_.over()) return ReadResult::kYield;
  }
  for (;;) {
    if (turn_.over()) return ReadResult::kYield;
    if (!reserve_read_space()) {
      spdlog::debug("connection {}: read budget spent, not reading for now", peer_);
      return ReadResult::kPaused;
    }
    const std::span<char> space = reader_.prepare();
    boost::system::error_code ec;
    const std::size_t received = stream_.bytes_received();
    const std::size_t n =
        stream_.read_now(asio::buffer(space.data(), space.size()), ec, turn_.bytes_left());
    turn_.read(stream_.bytes_received() - received);
    if (stream_.bytes_received() != received) last_read_ = steady_clock::now();
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      // This turn's share of the socket is spent: read on at the next.
      if (turn_.over()) return ReadResult::kYield;
      // Drained: an idle connection keeps no read buffer.
      reader_.shrink();
      return_read_space();
      return ReadResult::kDrained;
    }
    if (ec) {
      if (!writing_) {
        boost::system::error_code ignored;
        stream_.flush_now(ignored);  // TLS: the alert that says why, if the socket takes it
      }
      stop(ec == asio::error::eof || tls::closed_without_notify(ec) ? "closed by peer"
                                                                    : tls::describe(ec));
      return ReadResult::kStopped;
    }
    if (closing()) {
      // Drain the peer until it closes or the linger ends, so that closing
      // doesn't reset the connection under the Error it is reading; a peer
      // that streams on past a little was never going to read it.
      drained_ += n;
      if (drained_ > kMaxDrain) {
        stop("still sending after being told to stop");  // unless it closed for a reason
        return ReadResult::kStopped;
      }
      continue;
    }
    if (first_read_ && tls_ == nullptr && opens_tls_handshake({space.data(), n})) {
      first_read_ = false;
      life_.meter().refused("tls_at_plain");
      fail(wire::ERROR_CODE_TLS_UNAVAILABLE,
           "this server does not speak TLS (it runs with --no-tls): connect with --no-tls");
      continue;
    }
    if (first_read_ && commons_.web != nullptr && looks_like_http({space.data(), n}) &&
        tls::agreed_protocol(stream_) != tls::kTttProtocol) {
      hand_to_web(std::string(space.data(), n));
      return ReadResult::kStopped;
    }
    first_read_ = false;
    reader_.commit(n);
    take_frames(steady_clock::now());
    return_read_space();
    if (stopped()) return ReadResult::kStopped;
    if (turn_.over()) return ReadResult::kYield;
    if (n < space.size() && !stream_.holds_input()) {
      reader_.shrink();
      return_read_space();
      return ReadResult::kDrained;  // drained: wait for more
    }
  }
}

void Session::take_frames(steady_clock::time_point now) {
  std::string_view body;
  while (turn_.frames() < turn_.limits().frames) {
    const auto status = reader_.next(body);
    if (status == wire::FrameReader::Status::kNeedMore) break;
    // Only whole frames count as life: a peer trickling bytes of a frame it
    // never finishes is still dropped when the idle timeout runs out.
    life_.heard(now);
    if (status == wire::FrameReader::Status::kTooLarge) {
      life_.meter().refused("too_large");
      fail(wire::ERROR_CODE_FRAME_TOO_LARGE,
           "frame of " + std::to_string(reader_.declared_length()) + " bytes is over the " +
               std::to_string(reader_.max_frame()) + "-byte limit" +
               (life_.ready() ? "" : " before Hello"));
      break;
    }
    turn_.frame();
    if (!handle_frame(body, now)) break;
  }
}

// --- frames --------------------------------------------------------------------

bool Session::handle_frame(std::string_view body, steady_clock::time_point now) {
  // Every frame counts against the rate, whatever it is (pings and pongs
  // too), before it costs a parse.
  switch (rate_.take(now)) {
    case MessageRate::Verdict::kAllowed:
      break;
    case MessageRate::Verdict::kRefused:
      life_.meter().refused("rate_limited");
      warn_rate(body, now);
      return true;
    case MessageRate::Verdict::kFlooding:
      life_.meter().refused("flood");
      fail(wire::ERROR_CODE_RATE_LIMITED,
           "flooding: more than " +
               std::to_string(static_cast<long long>(limits_.messages_per_second)) +
               " messages a second, and on past the warning");
      return false;
  }
  wire::ClientMessage message;
  if (!wire::parse_body(body, message)) {
    life_.meter().refused("unparseable");
    fail(wire::ERROR_CODE_BAD_FRAME, "a frame that is not a ClientMessage");
    return false;
  }
  return take(message, now);
}

// --- writing --------------------------------------------------------------------

void Session::enqueue(const std::shared_ptr<const std::string>& frame) {
  if (stopped()) return;
  if (!corked_ && writer_.empty() && !writing_ && framing_ && stream_.pending_output() == 0) {
    if (WriteCork::open() && on_own_thread()) {
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
    if (framing_ && stream_.pending_output() > 0) {
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
    if (writer_.empty() || !framing_) {
      if (closing() && framing_) {
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

void Session::send_stream_output() {
  // Records a TLS read made (an alert, an answer to a key update) go out
  // behind whatever is already on its way.
  if (stream_.pending_output() == 0 || !framing_) return;
  if (!writing_ && writer_.empty()) {
    boost::system::error_code ec;
    if (stream_.flush_now(ec)) return;
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
      stop(ec.message());
      return;
    }
  }
  wake_writer_.cancel_one();
}

// --- TLS -----------------------------------------------------------------------

asio::awaitable<bool> Session::open_tls() {
  // A handshake's state counts in the read budget: none is started when it
  // is spent.
  bool no_budget = false;
  const TransportOpening opening = co_await open_tls_server_side(stream_, tls_, [this, &no_budget] {
    no_budget = !tls_share_.resize(kTlsHandshakeBytes);
    return !no_budget;
  });
  if (stopped()) co_return false;
  if (no_budget) {
    if (commons_.metrics) commons_.metrics->tls_handshakes.at("no_budget").add();
    life_.meter().limit_hit("read_budget");
    stop("read budget spent: no room for a TLS handshake now");
    co_return false;
  }
  switch (opening.kind) {
    case TransportOpening::Kind::kTls:
      // From the handshake's state to a connection's buffers.
      tls_share_.resize(kTlsBuffersBytes);
      last_read_ = steady_clock::now();
      if (commons_.metrics) commons_.metrics->tls_handshakes.at("ok").add();
      if (commons_.web != nullptr && tls::agreed_protocol(stream_) == tls::kHttpProtocol) {
        hand_to_web({});
        co_return false;
      }
      life_.enter(ConnectionPhase::kHello);
      framing_ = true;
      wake_writer_.cancel_one();
      co_return true;
    case TransportOpening::Kind::kPlain:
      // A plain ttt client (or something else): told in its own framing,
      // then drained as any failed connection.
      if (commons_.metrics) commons_.metrics->tls_handshakes.at("plain_client").add();
      life_.meter().refused("plain_at_tls");
      framing_ = true;
      fail(wire::ERROR_CODE_TLS_REQUIRED,
           "this server only speaks TLS: connect without --no-tls (a plain connection would "
           "send your name and secret unencrypted)");
      co_return true;
    case TransportOpening::Kind::kFailed:
      break;
  }
  if (commons_.metrics) commons_.metrics->tls_handshakes.at("failed").add();
  const auto& ec = opening.error;
  stop(ec == asio::error::eof ? "closed by peer" : "TLS handshake failed: " + tls::describe(ec));
  co_return false;
}

steady_clock::time_point Session::release_idle_tls(steady_clock::time_point now) {
  if (tls_share_.held() == 0 || !framing_ || !stream_.is_tls())
    return steady_clock::time_point::max();
  const auto due = last_read_ + kTlsIdle;
  if (now < due) return due;
  if (writing_ || !writer_.empty() || reader_.buffered() > 0 || !stream_.release_buffers()) {
    return now + kTlsIdle;  // busy after all: look again later
  }
  tls_share_.resize(0);
  return steady_clock::time_point::max();
}

void Session::hand_to_web(std::string received) {
  life_.hand_over();  // the web entrance counts it from now on
  wake_writer_.cancel();
  watchdog_timer_.cancel();
  commons_.web->enter(std::move(stream_), std::move(received), std::move(slot_));
  relay_.closed();  // the lobby forgets the connection it opened (it never said Hello)
}

// --- what NetworkParticipant asks of the transport ------------------------------

void Session::became_ready() {
  reader_.set_max_frame(limits_.max_frame);  // past the small frame allowed before Hello
}

steady_clock::time_point Session::wake_at(steady_clock::time_point now,
                                          steady_clock::time_point next) {
  return std::min(next, release_idle_tls(now));
}

void Session::closing_begun() { wake_writer_.cancel(); }

void Session::close_transport() {
  boost::system::error_code ignored;
  socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
  wake_writer_.cancel();
  writer_.clear();
  corked_ = false;
}

}  // namespace ttt::server
