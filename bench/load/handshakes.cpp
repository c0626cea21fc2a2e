#include "load/handshakes.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ttt/tls/stream.hpp"

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

asio::awaitable<void> handshake_loop(tcp::endpoint server, std::shared_ptr<asio::ssl::context> tls,
                                     std::chrono::steady_clock::time_point end,
                                     HandshakeCount& count) {
  auto executor = co_await asio::this_coro::executor;
  while (std::chrono::steady_clock::now() < end) {
    tls::Stream stream{tcp::socket(executor)};
    auto [ec] = co_await stream.socket().async_connect(server, asio::as_tuple(asio::use_awaitable));
    if (!ec) {
      stream.start_tls(tls);
      ec = co_await stream.handshake(asio::ssl::stream_base::client);
    }
    if (std::chrono::steady_clock::now() >= end) break;  // counted only within the time
    ++(ec ? count.errors : count.handshakes);
    boost::system::error_code ignored;
    stream.socket().close(ignored);
  }
}

}  // namespace

HandshakeCount measure_handshakes(const tcp::endpoint& server, int loops,
                                  std::chrono::seconds duration,
                                  std::shared_ptr<asio::ssl::context> tls) {
  asio::io_context io;
  HandshakeCount count;
  const auto end = std::chrono::steady_clock::now() + duration;
  for (int i = 0; i < loops; ++i) {
    asio::co_spawn(io, handshake_loop(server, tls, end, count), asio::detached);
  }
  io.run();
  return count;
}

}  // namespace ttt::bench
