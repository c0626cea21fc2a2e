// Relay: the physical limit for the load tool's traffic. A minimal Asio
// server on the same framing that pairs connections in accept order and, for
// every frame it receives, sends one frame of the same size to both
// connections of the pair — no parsing, no validation, no game logic. When a
// pair is complete it sends both an empty frame to start them.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <memory>

namespace ttt::bench {

class Relay {
 public:
  // Listens on 127.0.0.1 and a free port.
  explicit Relay(boost::asio::io_context& io);
  std::uint16_t port() const noexcept { return port_; }
  void start();

 private:
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
};

}  // namespace ttt::bench
