#include "link/connection.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "trust/known_servers.hpp"
#include "trust/server_trust.hpp"
#include "trust/tls_client.hpp"
#include "ttt/tls/peer_name.hpp"
#include "ttt/tls/tls_errors.hpp"

#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;
using std::chrono::milliseconds;
using std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

constexpr milliseconds kFirstBackoff{200};
constexpr milliseconds kMaxBackoff{2'000};
constexpr milliseconds kCloseLinger{2'000};  // after our last write, time for the server's replies
constexpr std::size_t kMaxFramesPerWrite = 64;

std::string seconds_text(milliseconds ms) {
  return std::to_string((ms.count() + 999) / 1000) + " s";
}

// The lobby's nodes: the one the user names it by, then the others.
std::vector<ServerAddress> lobby_nodes(const ConnectionOptions& options) {
  std::vector<ServerAddress> nodes{{options.host, options.port}};
  nodes.insert(nodes.end(), options.other_nodes.begin(), options.other_nodes.end());
  return nodes;
}

}  // namespace

Connection::Connection(asio::any_io_executor executor, ConnectionOptions options,
                       ConnectionEvents& events)
    : executor_(std::move(executor)),
      options_(std::move(options)),
      events_(events),
      nodes_(lobby_nodes(options_), NodePins{options_.fingerprint, options_.known_servers},
             options_.max_redirects, options_.redirect_window),
      reader_(options_.max_frame),
      wake_writer_(executor_),
      watchdog_(executor_),
      connect_timer_(executor_),
      backoff_timer_(executor_),
      answer_timer_(executor_),
      token_(options_.resume_token),
      secret_(options_.secret),
      next_secret_(options_.next_secret) {
  if (options_.tls) tls_context_ = client_tls_context();
  attempt_.address = nodes_.first();
}

void Connection::start() { asio::co_spawn(executor_, run(), asio::detached); }

std::string Connection::where() const { return address_text(attempt_.address); }

// --- the connection's life --------------------------------------------------------

asio::awaitable<void> Connection::run() {
  auto self = shared_from_this();
  milliseconds backoff = kFirstBackoff;
  std::optional<steady_clock::time_point> deadline;  // of the current run of retries
  nodes_.start_round();
  for (;;) {
    std::string reason;
    give_up_ = false;
    retry_now_ = false;
    asked_ = false;
    attempt_ = nodes_.next();
    bool welcomed_here = false;
    if (auto stream = co_await open_link(reason)) {
      co_await serve(std::move(*stream));
      reason = reason_;
      // While someone decided whether to trust the server, it may have given
      // up waiting for our Hello: the next try goes straight through.
      if (asked_ && !welcomed_ && !give_up_ && !closing_) retry_now_ = true;
      welcomed_here = welcomed_;
      welcomed_ = false;
    } else {
      nodes_.unreachable(attempt_);
    }
    if (closing_) {
      finish("closed", false);
      co_return;
    }
    if (welcomed_here) {
      deadline.reset();  // a good link starts a fresh retry period after it
      backoff = kFirstBackoff;
      nodes_.start_round();
    }
    if (give_up_) {
      finish(ever_welcomed_ ? reason : "cannot connect to " + where() + ": " + reason, true);
      co_return;
    }
    if (nodes_.has_next()) continue;  // a Redirect: to the node it names, at once
    if (retry_now_) {
      nodes_.again(attempt_);  // the same node again, at once
      continue;
    }
    if (!ever_welcomed_) {
      nodes_.failed(where() + ": " + reason);
      if (!nodes_.round_over()) continue;  // the first connect tries each node once
      finish(nodes_.cannot_connect_text(), true);
      co_return;
    }
    const auto now = steady_clock::now();
    const milliseconds period = retry_period();
    if (!deadline) deadline = now + period;
    if (now >= *deadline) {
      const bool restart = in_game_ && period == options_.restart_wait && period > options_.retry;
      finish("lost the server at " + where() + " (" + reason + ") and could not reconnect within " +
                 seconds_text(period) +
                 (restart ? ", as long as a restarted server could still restore the game"
                  : seat_at_stake_ && period > options_.retry
                      ? ", as long as the server could still hold your seat"
                      : ""),
             true);
      co_return;
    }
    const auto left = std::chrono::duration_cast<milliseconds>(*deadline - now);
    events_.on_reconnecting(reason, left);
    // Within a round the next node is tried at once; a new round (and the
    // first try after a drop) waits its backoff.
    if (welcomed_here || nodes_.round_over()) {
      backoff_timer_.expires_after(std::min(backoff, left));
      co_await backoff_timer_.async_wait(use_tuple);
      backoff = std::min(backoff * 2, kMaxBackoff);
      if (nodes_.round_over()) nodes_.start_round();
    }
  }
}

asio::awaitable<std::optional<tls::Stream>> Connection::open_link(std::string& reason) {
  tcp::socket socket(executor_);
  connect_timer_.expires_after(options_.connect_timeout);
  auto result = co_await (resolve_and_connect(socket) || connect_timer_.async_wait(use_tuple));
  if (closing_) co_return std::nullopt;
  if (result.index() == 1) {
    reason = "no answer within " + seconds_text(options_.connect_timeout);
    co_return std::nullopt;
  }
  if (const auto ec = std::get<0>(result)) {
    reason = ec.message();
    co_return std::nullopt;
  }
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  tls::Stream stream(std::move(socket));
  if (tls_context_ && !co_await secure(stream, reason)) co_return std::nullopt;
  co_return std::optional<tls::Stream>(std::move(stream));
}

asio::awaitable<bool> Connection::secure(tls::Stream& stream, std::string& reason) {
  stream.start_tls(tls_context_);
  SSL* ssl = stream.native_handle();
  tls::expect_host(ssl, attempt_.address.host);
  connect_timer_.expires_after(options_.connect_timeout);
  auto result = co_await (stream.handshake(asio::ssl::stream_base::client) ||
                          connect_timer_.async_wait(use_tuple));
  if (closing_) co_return false;
  if (result.index() == 1) {
    reason = "no TLS handshake within " + seconds_text(options_.connect_timeout);
    co_return false;
  }
  if (const auto ec = std::get<0>(result)) {
    if (tls::peer_not_tls(ec)) {
      reason =
          "the server does not speak TLS (an older server, or one run with --no-tls): "
          "connect with --no-tls if you trust the network";
      give_up_ = true;
    } else if (ec == asio::error::connection_reset || tls::closed_without_notify(ec) ||
               ec == asio::error::eof) {
      // A server refuses a connection past its limits this way, before any
      // TLS (a handshake only to refuse would cost it too much).
      reason =
          "the server closed the connection before TLS began: it may be full, or your "
          "address may have too many connections open or open them too fast";
    } else {
      reason = "TLS handshake failed: " + tls::describe(ec);
    }
    co_return false;
  }
  const PresentedCertificate presented = presented_certificate(ssl);
  const ServerAddress& node = attempt_.address;
  const auto decision = attempt_.vouched.empty()
                            ? judge_server(node.host, node.port, presented,
                                           {options_.fingerprint, options_.known_servers})
                            : judge_vouched(node.host, node.port, presented, attempt_.vouched,
                                            attempt_.vouched_by, nodes_.pin_for(node));
  switch (decision.verdict) {
    case TrustDecision::Verdict::kTrusted:
      spdlog::debug("{}: certificate {} trusted ({})", where(), presented.fingerprint,
                    decision.why);
      co_return true;
    case TrustDecision::Verdict::kRefused:
      reason = decision.why;
      give_up_ = true;
      co_return false;
    case TrustDecision::Verdict::kUnknown:
      break;
  }
  if (!co_await ask_about(presented.fingerprint)) {
    reason = "the server's certificate " + presented.fingerprint + " was not trusted";
    give_up_ = true;
    co_return false;
  }
  if (!options_.known_servers.empty()) {
    std::string error;
    if (!KnownServers(options_.known_servers)
             .remember(node.host, node.port, presented.fingerprint, error)) {
      spdlog::warn("could not remember the server's certificate: {}", error);
    }
  }
  co_return true;
}

asio::awaitable<bool> Connection::ask_about(const std::string& fingerprint) {
  asked_ = true;
  auto answer = std::make_shared<std::optional<bool>>();
  answer_timer_.expires_at(steady_clock::time_point::max());
  events_.on_unknown_server(where(), fingerprint, [self = shared_from_this(), answer](bool yes) {
    if (*answer) return;
    *answer = yes;
    self->answer_timer_.cancel();
  });
  if (!*answer) co_await answer_timer_.async_wait(use_tuple);
  co_return answer->value_or(false) && !closing_;
}

asio::awaitable<boost::system::error_code> Connection::resolve_and_connect(tcp::socket& socket) {
  tcp::resolver resolver(executor_);
  auto [resolve_error, endpoints] = co_await resolver.async_resolve(
      attempt_.address.host, std::to_string(attempt_.address.port), use_tuple);
  if (resolve_error) co_return resolve_error;
  auto [connect_error, endpoint] = co_await asio::async_connect(socket, endpoints, use_tuple);
  co_return connect_error;
}

// One link, from Hello until it drops or is closed.
asio::awaitable<void> Connection::serve(tls::Stream stream) {
  stream_.emplace(std::move(stream));
  reader_ = wire::FrameReader(options_.max_frame);
  queue_.clear();
  reason_.clear();
  linked_at_ = last_received_ = last_ping_ = steady_clock::now();

  wire::ClientMessage hello;
  wire::Hello* h = hello.mutable_hello();
  h->set_protocol_version(wire::kProtocolVersion);
  h->set_name(options_.name);
  h->set_resume_token(token_);
  h->set_client(options_.client_version);
  h->set_secret(secret_);
  h->set_bot(options_.program);
  h->set_take_over(options_.take_over);
  h->set_reservation(attempt_.reservation);
  hello.set_request_id(next_request_id_++);
  enqueue(hello);
  try {
    co_await (read_loop() || write_loop() || keepalive());
  } catch (const std::exception& e) {
    spdlog::error("connection to {}: {}", where(), e.what());
    set_reason(e.what());
  }
  boost::system::error_code ignored;
  stream_->socket().close(ignored);
  stream_.reset();
  queue_.clear();
}

void Connection::close() {
  if (closing_) return;
  closing_ = true;
  wake_writer_.cancel();
  connect_timer_.cancel();
  backoff_timer_.cancel();
  answer_timer_.cancel();
}

void Connection::finish(const std::string& reason, bool failed) {
  if (finished_) return;
  finished_ = true;
  events_.on_closed(reason, failed);
}

void Connection::set_reason(std::string reason) {
  if (reason_.empty()) reason_ = std::move(reason);
}

// --- reading --------------------------------------------------------------------

asio::awaitable<void> Connection::read_loop() {
  for (;;) {
    const std::span<char> space = reader_.prepare();
    auto [ec, n] = co_await stream_->read_some(asio::buffer(space.data(), space.size()));
    if (ec) {
      set_reason(ec == asio::error::eof || tls::closed_without_notify(ec)
                     ? "the server closed the connection"
                     : tls::describe(ec));
      co_return;
    }
    reader_.commit(n);
    last_received_ = steady_clock::now();
    std::string_view body;
    for (;;) {
      const auto status = reader_.next(body);
      if (status == wire::FrameReader::Status::kNeedMore) break;
      if (status == wire::FrameReader::Status::kTooLarge) {
        set_reason("the server sent a frame of " + std::to_string(reader_.declared_length()) +
                   " bytes, over the limit");
        co_return;
      }
      if (!handle_frame(body)) co_return;
    }
  }
}

bool Connection::handle_frame(std::string_view body) {
  wire::ServerMessage message;
  if (!wire::parse_body(body, message)) {
    set_reason("the server sent a frame that is not a ServerMessage");
    return false;
  }
  switch (message.body_case()) {
    case wire::ServerMessage::kPing: {
      wire::ClientMessage pong;
      pong.mutable_pong()->set_nonce(message.ping().nonce());
      enqueue(pong);
      return true;
    }
    case wire::ServerMessage::kPong:
      return true;
    case wire::ServerMessage::kWelcome:
      spdlog::info("connected to {} (ttt-server {})", where(),
                   safe_text(message.welcome().server_version(), field_width::kShort));
      token_ = message.welcome().resume_token();
      grace_ = milliseconds(message.welcome().reconnect_grace_ms());
      heartbeat_ = milliseconds(message.welcome().heartbeat_ms());
      heartbeat_timeout_ = milliseconds(message.welcome().heartbeat_timeout_ms());
      if (heartbeat_.count() <= 0 || heartbeat_ >= heartbeat_timeout_) heartbeat_timeout_ = {};
      watchdog_.cancel();  // the deadlines may have changed
      if (!message.welcome().secret().empty()) secret_ = message.welcome().secret();
      welcomed_ = ever_welcomed_ = true;
      {
        // A Redirect with a reservation that led to a game: the seat kept
        // for this client (a quick match or a challenge paired at another node).
        const bool kept_seat = !attempt_.reservation.empty() && message.welcome().game_id() != 0;
        const bool same_node = nodes_.welcomed(attempt_, kept_seat);
        const std::string& instance = message.welcome().server_instance();
        server_restarted_ = same_node && !server_instance_.empty() && instance != server_instance_;
        server_instance_ = instance;
        redirected_ = attempt_.redirected;
      }
      events_.on_welcome(message.welcome());
      return true;
    case wire::ServerMessage::kSecretRotated:
      // Tokens issued before the new secret no longer work: this one does.
      if (!message.secret_rotated().resume_token().empty()) {
        token_ = message.secret_rotated().resume_token();
      }
      break;
    case wire::ServerMessage::kRedirect:
      if (!closing_) follow(message.redirect());
      return false;  // the node closes the link next
    case wire::ServerMessage::kGoodbye:
      set_reason("the server is going away: " +
                 safe_text(message.goodbye().reason(), field_width::kMessage));
      events_.on_message(message);
      return true;  // the server closes the link next
    case wire::ServerMessage::kError:
      if (message.error().fatal()) {
        if (on_fatal(message.error())) events_.on_message(message);
        return false;
      }
      break;
    default:
      break;
  }
  events_.on_message(message);
  return true;
}

// --- writing --------------------------------------------------------------------

std::uint32_t Connection::send(wire::ClientMessage message) {
  if (!connected()) return 0;
  if (next_request_id_ == 0) ++next_request_id_;
  const std::uint32_t id = next_request_id_++;
  message.set_request_id(id);
  enqueue(message);
  return id;
}

void Connection::enqueue(const wire::ClientMessage& message) {
  if (!stream_) return;
  if (queue_.size() >= options_.max_queued_frames) {
    set_reason("the server is not reading (" + std::to_string(queue_.size()) + " messages queued)");
    boost::system::error_code ignored;
    stream_->socket().close(ignored);
    return;
  }
  queue_.push_back(wire::encode_frame(message));
  wake_writer_.cancel_one();
}

asio::awaitable<void> Connection::write_loop() {
  std::vector<std::string> in_flight;
  std::vector<asio::const_buffer> buffers;
  for (;;) {
    if (queue_.empty()) {
      if (closing_) {
        // All sent: end our half and give the server a moment to answer.
        boost::system::error_code ignored;
        stream_->socket().shutdown(tcp::socket::shutdown_send, ignored);
        wake_writer_.expires_after(kCloseLinger);
        co_await wake_writer_.async_wait(use_tuple);
        set_reason("closed");
        co_return;
      }
      wake_writer_.expires_at(steady_clock::time_point::max());
      co_await wake_writer_.async_wait(use_tuple);
      continue;
    }
    in_flight.clear();
    buffers.clear();
    while (!queue_.empty() && in_flight.size() < kMaxFramesPerWrite) {
      in_flight.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    for (const std::string& frame : in_flight) buffers.push_back(asio::buffer(frame));
    auto [ec, n] = co_await stream_->write(buffers);
    if (ec) {
      set_reason(ec.message());
      co_return;
    }
  }
}

// --- deadlines --------------------------------------------------------------------

// Ends the link when the Welcome is late or the server stops answering; pings
// a silent server so that a dead link is noticed (within the server's
// heartbeat timeout once a Welcome gave one).
asio::awaitable<void> Connection::keepalive() {
  for (;;) {
    const auto now = steady_clock::now();
    steady_clock::time_point next;
    const bool heartbeat = heartbeat_timeout_.count() > 0;
    const milliseconds interval = heartbeat ? heartbeat_ : options_.keepalive;
    const milliseconds dead_after =
        heartbeat ? heartbeat_timeout_ : options_.keepalive + options_.answer_timeout;
    if (!welcomed_) {
      next = linked_at_ + options_.connect_timeout;
      if (now >= next) {
        set_reason("no answer to Hello within " + seconds_text(options_.connect_timeout));
        co_return;
      }
    } else {
      const auto dead_at = last_received_ + dead_after;
      if (now >= dead_at) {
        set_reason("nothing from the server for " + seconds_text(dead_after));
        co_return;
      }
      auto ping_at = std::max(last_received_, last_ping_) + interval;
      if (now >= ping_at) {
        wire::ClientMessage ping;
        ping.mutable_ping()->set_nonce(static_cast<std::uint64_t>(now.time_since_epoch().count()));
        enqueue(ping);
        last_ping_ = now;
        ping_at = now + interval;
      }
      next = std::min(dead_at, ping_at);
    }
    watchdog_.expires_at(next);
    co_await watchdog_.async_wait(use_tuple);
  }
}

milliseconds Connection::retry_period() const noexcept {
  if (options_.retry.count() == 0) return options_.retry;
  milliseconds period = options_.retry;
  if (in_game_) period = std::max(period, options_.restart_wait);
  if (!seat_at_stake_ || grace_.count() == 0) return period;
  const milliseconds notice = heartbeat_timeout_.count() > 0
                                  ? heartbeat_timeout_
                                  : options_.keepalive + options_.answer_timeout;
  return std::max(period, grace_ + notice + options_.seat_margin);
}

void Connection::follow(const wire::Redirect& redirect) {
  std::string why;
  const std::optional<std::string> to = nodes_.follow(redirect, where(), why);
  if (!to) {
    set_reason(why);
    give_up_ = true;
    return;
  }
  set_reason("sent on to " + *to);
  spdlog::debug("{} sends this client to {}", where(), *to);
  events_.on_redirected(*to, safe_text(redirect.reason(), field_width::kMessage));
}

bool Connection::on_fatal(const wire::Error& error) {
  set_reason("the server closed the connection: " + safe_text(error.text(), field_width::kMessage));
  switch (error.code()) {
    case wire::ERROR_CODE_BAD_RESUME_TOKEN:
      // The server no longer knows us (the game ended, or it restarted without
      // it): carry on as a new player, at once (a node that says so to a
      // Hello without a token waits like any other: no loop without a pause).
      retry_now_ = !token_.empty();
      token_.clear();
      break;
    case wire::ERROR_CODE_RESERVATION_GONE:
      // The seat a Redirect kept expired: the same node, at once, without it
      // (a node that says so without a reservation waits like any other).
      retry_now_ = !attempt_.reservation.empty();
      attempt_.reservation.clear();
      break;
    case wire::ERROR_CODE_SERVER_FULL:
    case wire::ERROR_CODE_TOO_MANY_CONNECTIONS:
    case wire::ERROR_CODE_DRAINING:
    case wire::ERROR_CODE_CLUSTER_UNAVAILABLE:
      // Full, drained or cut off from the lobby's shared state now: another
      // node of the lobby, or this one later; a first connect gives up once
      // every node has been tried.
      break;
    case wire::ERROR_CODE_NAME_TAKEN:
      if (!next_secret_.empty()) {
        // A rotation the server may have stored: try its new secret once.
        secret_ = std::exchange(next_secret_, "");
        retry_now_ = true;
        return false;  // nothing the owner needs to hear of
      }
      give_up_ = true;
      break;
    case wire::ERROR_CODE_HELLO_TIMEOUT:
    case wire::ERROR_CODE_IDLE_TIMEOUT:
    case wire::ERROR_CODE_SLOW_CONSUMER:
    case wire::ERROR_CODE_SHUTTING_DOWN:
      break;  // worth another try
    default:  // replaced, a wrong version or a bad name, our own bug
      give_up_ = true;
      break;
  }
  return true;
}

}  // namespace ttt::client
