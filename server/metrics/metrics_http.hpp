// MetricsHttp: the operator's HTTP port (--metrics ADDR:PORT), served with
// Boost.Beast beside the game port: GET /metrics (Prometheus text), /healthz
// (the process answers) and /readyz (taking games and the store writable;
// 503 with the reason otherwise). Plain HTTP: bind it to loopback or a
// private network (docs/hosting.md). Each connection reads one small request
// at a time within a deadline; at most kMaxConnections at once, and
// kMaxPerAddress from one address (so that a few idle half-requests from one
// peer never lock the scraper out); anything else gets 404 or 405.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ttt::server::metrics {

// What /readyz says.
struct Readiness {
  bool ready = false;
  std::string reason;  // why not, in words
};

struct MetricsPages {
  // The /metrics page (gathered wherever it must be).
  std::function<boost::asio::awaitable<std::string>()> metrics;
  std::function<boost::asio::awaitable<Readiness>()> ready;
};

class MetricsHttp {
 public:
  static constexpr std::size_t kMaxConnections = 64;
  static constexpr std::size_t kMaxPerAddress = 4;

  // Binds ADDR:PORT (an IP address; port 0 picks one); throws
  // std::runtime_error naming the address if it can't.
  MetricsHttp(boost::asio::io_context& io, const std::string& address, std::uint16_t port,
              MetricsPages pages);
  ~MetricsHttp();

  void start();
  // Stops accepting; requests being answered finish. Thread-safe.
  void close();
  std::uint16_t port() const noexcept { return port_; }

 private:
  struct State;
  boost::asio::awaitable<void> accept_loop();
  static boost::asio::awaitable<void> serve(std::shared_ptr<State> state,
                                            boost::asio::ip::tcp::socket socket,
                                            std::shared_ptr<void> slot);

  boost::asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<State> state_;
  std::uint16_t port_ = 0;
};

// "ADDR:PORT" ("127.0.0.1:9100", "[::1]:9100") into its parts; false with
// the reason in error for anything else.
bool parse_listen_address(const std::string& text, std::string& address, std::uint16_t& port,
                          std::string& error);

}  // namespace ttt::server::metrics
