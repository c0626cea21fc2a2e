// Listener: accepts connections and hands each to a new Session, or refuses
// it past the connection limits: "server full", too many connections from
// its address (net/connection_slots.hpp), or new connections from its
// address (or its IPv6 /48) coming faster than it may open them. A refusal
// costs next to nothing: a TLS server resets the connection before any TLS
// (a handshake only to refuse would cost more than the connection itself);
// a plain server says why, a few refusals at a time per address, and resets
// the rest. With several threads each session gets a strand of its own; with
// one, every session runs on the one thread's executor (docs/architecture.md).
#pragma once

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <memory>
#include <string>

#include "limits/keyed_rate_limiter.hpp"
#include "limits/rate_limiter.hpp"
#include "net/connection_slots.hpp"
#include "net/session.hpp"

namespace ttt::server {

class TlsIdentity;

struct ListenerLimits {
  // New connections one address may open a second, bursts of twice that (an
  // IPv6 /48 kNetworkShare times that); past it they are reset at once.
  // On a TLS server this is the handshakes an address may cost. 0 = no limit.
  double connections_per_second = 20;
};

class Listener {
 public:
  // Binds and listens; throws std::runtime_error naming the address on
  // failure. With tls, every connection must speak TLS, each with the
  // identity's context of the moment it was accepted.
  // A connection takes a slot of `slots` (refused past its limits, in all
  // or per address).
  Listener(boost::asio::io_context& io, const std::string& address, std::uint16_t port, Gate& gate,
           boost::asio::any_io_executor logic, const SessionLimits& limits, SessionCommons commons,
           std::shared_ptr<ConnectionSlots> slots, bool strand_per_connection,
           const TlsIdentity* tls = nullptr, ListenerLimits listener_limits = {});

  // Starts accepting on the io_context.
  void start();
  // Stops accepting; open connections are unaffected. Thread-safe.
  void close();

  std::uint16_t port() const noexcept { return port_; }
  // Open sessions (thread-safe).
  std::size_t connections() const { return slots_->open(); }
  // Sessions ever started (thread-safe): with connections(), how many closed.
  std::size_t accepted() const noexcept { return accepted_.load(std::memory_order_relaxed); }
  // Connections refused (thread-safe).
  std::size_t refused() const noexcept { return refused_.load(std::memory_order_relaxed); }

 private:
  boost::asio::awaitable<void> accept_loop();
  // Whether the address (and its network) may open one more connection now.
  bool within_rate(const std::string& address);
  // Says why (server full, or the address has its share) where that is
  // cheap, and closes.
  void refuse(boost::asio::ip::tcp::socket socket, ConnectionSlots::Refusal why,
              const std::string& address);
  static boost::asio::awaitable<void> send_refusal(boost::asio::ip::tcp::socket socket,
                                                   std::shared_ptr<const std::string> frame,
                                                   std::shared_ptr<void> refusal_slot);

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  Gate& gate_;
  boost::asio::any_io_executor logic_;
  const SessionLimits& limits_;
  SessionCommons commons_;
  std::shared_ptr<ConnectionSlots> slots_;
  bool strand_per_connection_;
  const TlsIdentity* tls_;
  // The accept loop's own (one coroutine: never two at once).
  KeyedRateLimiter connection_rate_;          // per address
  KeyedRateLimiter network_connection_rate_;  // per IPv6 /48
  // Refusals being said at once (plain TCP): a few per address.
  std::shared_ptr<ConnectionSlots> refusals_;
  RateLimiter rate_warnings_{1.0, 1.0};  // "too fast" once a second at most
  std::size_t rate_unreported_ = 0;
  RateLimiter full_warnings_{1.0, 1.0};     // "server full" once a second at most
  std::size_t refused_unreported_ = 0;      // refused since the last warning
  RateLimiter address_warnings_{1.0, 1.0};  // "too many from one address", likewise
  std::size_t address_unreported_ = 0;
  std::uint16_t port_ = 0;
  std::atomic<std::size_t> accepted_{0};
  std::atomic<std::size_t> refused_{0};
};

}  // namespace ttt::server
