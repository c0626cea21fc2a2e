// Full TLS handshakes a second against a server (ttt-bench --tls
// --handshakes): `loops` connections at a time, each connecting, making a
// whole handshake (nothing resumed: the server hands out no session
// tickets), and closing, again and again for the measured time.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstdint>
#include <memory>

namespace ttt::bench {

struct HandshakeCount {
  std::uint64_t handshakes = 0;
  std::uint64_t errors = 0;
};

HandshakeCount measure_handshakes(const boost::asio::ip::tcp::endpoint& server, int loops,
                                  std::chrono::seconds duration,
                                  std::shared_ptr<boost::asio::ssl::context> tls);

}  // namespace ttt::bench
