#include "net/listener.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <stdexcept>

#include "net/peer_address.hpp"
#include "net/replies.hpp"
#include "tls/tls_identity.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// Refusals said at once over plain TCP, in all and per address; past them
// a refused connection is reset without a word.
constexpr std::size_t kMaxRefusalsSaid = 64;
constexpr std::size_t kMaxRefusalsSaidPerAddress = 8;

// Closes at once with a reset: nothing kept, no TIME_WAIT.
void reset(tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.set_option(asio::socket_base::linger(true, 0), ignored);
  socket.close(ignored);
}

tcp::endpoint endpoint_of(const std::string& address, std::uint16_t port) {
  boost::system::error_code ec;
  const auto ip = asio::ip::make_address(address, ec);
  if (ec) throw std::runtime_error("not an IP address: '" + address + "'");
  return {ip, port};
}

}  // namespace

Listener::Listener(asio::io_context& io, const std::string& address, std::uint16_t port, Gate& gate,
                   asio::any_io_executor logic, const SessionLimits& limits, SessionCommons commons,
                   std::shared_ptr<ConnectionSlots> slots, bool strand_per_connection,
                   const TlsIdentity* tls, ListenerLimits listener_limits)
    : io_(io),
      acceptor_(io),
      gate_(gate),
      logic_(std::move(logic)),
      limits_(limits),
      commons_(commons),
      slots_(std::move(slots)),
      strand_per_connection_(strand_per_connection),
      tls_(tls),
      connection_rate_(listener_limits.connections_per_second,
                       2 * listener_limits.connections_per_second),
      network_connection_rate_(kNetworkShare * listener_limits.connections_per_second,
                               2 * kNetworkShare * listener_limits.connections_per_second),
      refusals_(std::make_shared<ConnectionSlots>(kMaxRefusalsSaid, kMaxRefusalsSaidPerAddress)) {
  const tcp::endpoint endpoint = endpoint_of(address, port);
  boost::system::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + address + " port " + std::to_string(port) +
                             ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
}

void Listener::start() {
  asio::co_spawn(acceptor_.get_executor(), accept_loop(), [](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      spdlog::critical("accept loop failed: {}", ex.what());
    }
  });
}

void Listener::close() {
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  });
}

asio::awaitable<void> Listener::accept_loop() {
  asio::steady_timer backoff(acceptor_.get_executor());
  RateLimiter accept_warnings(1.0, 1.0);  // one a second
  while (acceptor_.is_open()) {
    const asio::any_io_executor executor = strand_per_connection_
                                               ? asio::any_io_executor(asio::make_strand(io_))
                                               : asio::any_io_executor(io_.get_executor());
    auto [ec, socket] =
        co_await acceptor_.async_accept(executor, asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) break;
    if (ec) {
      // Out of file descriptors (or a similar transient failure): back off.
      if (accept_warnings.allow()) {
        spdlog::warn("accept failed: {} ({} connections open)", ec.message(), connections());
      }
      backoff.expires_after(std::chrono::milliseconds(50));
      co_await backoff.async_wait(asio::as_tuple(asio::use_awaitable));
      continue;
    }
    boost::system::error_code no_peer;
    const auto peer = socket.remote_endpoint(no_peer);
    const std::string address = no_peer ? std::string("unknown") : address_key(peer.address());
    if (!within_rate(address)) {
      reset(socket);
      continue;
    }
    ConnectionSlots::Refusal why = ConnectionSlots::Refusal::kNone;
    auto slot = slots_->take(address, why);
    if (!slot) {
      refuse(std::move(socket), why, address);
      continue;
    }
    accepted_.fetch_add(1, std::memory_order_relaxed);
    if (commons_.metrics) commons_.metrics->connections_accepted.add();
    std::make_shared<Session>(std::move(socket), gate_, logic_, limits_, commons_, std::move(slot),
                              tls_ ? tls_->context() : nullptr)
        ->start();
  }
}

bool Listener::within_rate(const std::string& address) {
  const std::string network = network_key(address);
  if (connection_rate_.allow(address) &&
      (network == address || network_connection_rate_.allow(network))) {
    return true;
  }
  refused_.fetch_add(1, std::memory_order_relaxed);
  if (commons_.metrics) commons_.metrics->limit_hits.at("connection_rate_per_address").add();
  ++rate_unreported_;
  if (rate_warnings_.allow()) {
    spdlog::warn(
        "{} opens connections faster than --max-connection-rate-per-ip allows: reset {} "
        "connection{}",
        address, rate_unreported_, rate_unreported_ == 1 ? "" : "s");
    rate_unreported_ = 0;
  }
  return false;
}

void Listener::refuse(tcp::socket socket, ConnectionSlots::Refusal why,
                      const std::string& address) {
  refused_.fetch_add(1, std::memory_order_relaxed);
  // One warning a second at most, however many are refused.
  const bool full = why == ConnectionSlots::Refusal::kServerFull;
  if (full) {
    ++refused_unreported_;
    if (full_warnings_.allow()) {
      spdlog::warn("server full ({} connections): refused {} connection{}", slots_->max_total(),
                   refused_unreported_, refused_unreported_ == 1 ? "" : "s");
      refused_unreported_ = 0;
    }
  } else {
    ++address_unreported_;
    if (address_warnings_.allow()) {
      spdlog::warn(
          "{} reached --max-connections-per-ip ({}): refused {} connection{} from "
          "addresses at their limit",
          address, slots_->max_per_address(), address_unreported_,
          address_unreported_ == 1 ? "" : "s");
      address_unreported_ = 0;
    }
  }
  const auto code = full ? wire::ERROR_CODE_SERVER_FULL : wire::ERROR_CODE_TOO_MANY_CONNECTIONS;
  // Over TLS saying why would take a whole handshake; past a few refusals
  // said at once, saying it would hold memory and descriptors for each.
  ConnectionSlots::Refusal busy = ConnectionSlots::Refusal::kNone;
  auto refusal_slot = tls_ ? nullptr : refusals_->take(address, busy);
  if (!refusal_slot) {
    if (commons_.metrics) {
      commons_.metrics->limit_hits.at(full ? "connections" : "connections_per_address").add();
    }
    reset(socket);
    return;
  }
  if (commons_.metrics) commons_.metrics->error_sent(code);
  auto frame = error_reply(code,
                           full ? "server full: " + std::to_string(slots_->max_total()) +
                                      " connections; try again later"
                                : "too many connections from your address (" +
                                      std::to_string(slots_->max_per_address()) +
                                      " at most): close one first",
                           0, true)
                   .frame;
  // A strand: the deadline's close and the coroutine never run at once.
  auto strand = asio::make_strand(socket.get_executor());
  asio::co_spawn(strand, send_refusal(std::move(socket), std::move(frame), std::move(refusal_slot)),
                 asio::detached);
}

asio::awaitable<void> Listener::send_refusal(tcp::socket socket,
                                             std::shared_ptr<const std::string> frame,
                                             std::shared_ptr<void> refusal_slot) {
  // Send the error, end our half, and drain the peer briefly so that closing
  // doesn't reset the connection before the error is read. All within a
  // second, holding one of the few refusals said at once.
  asio::steady_timer deadline(co_await asio::this_coro::executor, std::chrono::seconds(1));
  deadline.async_wait([&socket](const boost::system::error_code& ec) {
    boost::system::error_code ignored;
    if (!ec) socket.close(ignored);
  });
  co_await asio::async_write(socket, asio::buffer(*frame), asio::as_tuple(asio::use_awaitable));
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_send, ignored);
  char sink[256];
  for (;;) {
    auto [ec, n] =
        co_await socket.async_read_some(asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
    if (ec) break;
  }
  deadline.cancel();
  socket.close(ignored);
  refusal_slot.reset();
}

}  // namespace ttt::server
