// Session, continued: its reader. TLS makes the handshake on the server's
// one port; then plain TCP and TLS alike wait for data and read what is
// there (TLS through tls::Stream's records). Both draw on the shared read
// budget and cut frames the same way (session.cpp holds the writer).
#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "net/session.hpp"
#include "net/transport.hpp"
#include "net/use_tuple.hpp"
#include "ttt/tls/alpn.hpp"
#include "ttt/tls/tls_errors.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
using std::chrono::steady_clock;

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

}  // namespace

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
    if (now_paused && !paused) meter_.limit_hit("read_budget");
    paused = now_paused;
  }
}

void Session::send_stream_output() {
  // Records a TLS read made (an alert, an answer to a key update) go out
  // behind whatever is already on its way.
  if (stream_.pending_output() == 0 || !linked_) return;
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

bool Session::charge_tls(std::size_t bytes) {
  if (bytes > tls_charged_ && !commons_.read_budget.reserve(bytes - tls_charged_)) return false;
  if (bytes < tls_charged_) commons_.read_budget.release(tls_charged_ - bytes);
  tls_charged_ = bytes;
  return true;
}

steady_clock::time_point Session::release_idle_tls(steady_clock::time_point now) {
  if (tls_charged_ == 0 || !linked_ || !stream_.is_tls()) return steady_clock::time_point::max();
  const auto due = last_read_ + kTlsIdle;
  if (now < due) return due;
  if (writing_ || !writer_.empty() || reader_.buffered() > 0 || !stream_.release_buffers()) {
    return now + kTlsIdle;  // busy after all: look again later
  }
  charge_tls(0);
  return steady_clock::time_point::max();
}

bool Session::reserve_read_space() {
  // OpenSSL takes its buffers back for the read: their share first.
  if (stream_.is_tls() && linked_ && tls_charged_ == 0) {
    if (!charge_tls(kTlsBuffersBytes)) return false;
    watchdog_timer_.cancel();  // it gives them back again once the connection is idle
  }
  const std::size_t needed = reader_.capacity_needed();
  const std::size_t charged = needed > ReadBudget::kAllowance ? needed - ReadBudget::kAllowance : 0;
  if (charged <= reserved_) return true;
  if (!commons_.read_budget.reserve(charged - reserved_)) return false;
  reserved_ = charged;
  return true;
}

void Session::return_read_space() {
  const std::size_t held = reader_.capacity();
  const std::size_t charged = held > ReadBudget::kAllowance ? held - ReadBudget::kAllowance : 0;
  if (charged >= reserved_) return;
  commons_.read_budget.release(reserved_ - charged);
  reserved_ = charged;
}

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
        stop(close_reason_.empty() ? "still sending after being told to stop" : close_reason_);
        return ReadResult::kStopped;
      }
      continue;
    }
    if (first_read_ && tls_ == nullptr && opens_tls_handshake({space.data(), n})) {
      first_read_ = false;
      meter_.refused("tls_at_plain");
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
    silence_.heard(now);
    if (status == wire::FrameReader::Status::kTooLarge) {
      meter_.refused("too_large");
      fail(wire::ERROR_CODE_FRAME_TOO_LARGE,
           "frame of " + std::to_string(reader_.declared_length()) + " bytes is over the " +
               std::to_string(reader_.max_frame()) + "-byte limit" +
               (phase_ == ConnectionPhase::kReady ? "" : " before Hello"));
      break;
    }
    turn_.frame();
    if (!handle_frame(body, now)) break;
  }
}

asio::awaitable<bool> Session::open_tls() {
  // A handshake's state counts in the read budget: none is started when it
  // is spent.
  bool no_budget = false;
  const TransportOpening opening = co_await open_tls_server_side(stream_, tls_, [this, &no_budget] {
    no_budget = !charge_tls(kTlsHandshakeBytes);
    return !no_budget;
  });
  if (stopped()) co_return false;
  if (no_budget) {
    if (commons_.metrics) commons_.metrics->tls_handshakes.at("no_budget").add();
    meter_.limit_hit("read_budget");
    stop("read budget spent: no room for a TLS handshake now");
    co_return false;
  }
  switch (opening.kind) {
    case TransportOpening::Kind::kTls:
      // From the handshake's state to a connection's buffers.
      charge_tls(kTlsBuffersBytes);
      last_read_ = steady_clock::now();
      if (commons_.metrics) commons_.metrics->tls_handshakes.at("ok").add();
      if (commons_.web != nullptr && tls::agreed_protocol(stream_) == tls::kHttpProtocol) {
        hand_to_web({});
        co_return false;
      }
      enter(ConnectionPhase::kHello);
      linked_ = true;
      wake_writer_.cancel_one();
      co_return true;
    case TransportOpening::Kind::kPlain:
      // A plain ttt client (or something else): told in its own framing,
      // then drained as any failed connection.
      if (commons_.metrics) commons_.metrics->tls_handshakes.at("plain_client").add();
      meter_.refused("plain_at_tls");
      linked_ = true;
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

void Session::hand_to_web(std::string received) {
  phase_ = ConnectionPhase::kStopped;
  meter_.leave();  // the web entrance counts it from now on
  wake_writer_.cancel();
  watchdog_timer_.cancel();
  commons_.web->enter(std::move(stream_), std::move(received), std::move(slot_));
  // The lobby forgets the connection it opened (it never said Hello).
  asio::post(logic_, [self = shared_from_this()] {
    if (auto inbox = std::move(self->inbox_)) inbox->closed();
  });
}

}  // namespace ttt::server
