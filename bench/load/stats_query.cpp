#include "load/stats_query.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include "ttt/wire/frame.hpp"

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

asio::awaitable<std::optional<wire::ServerStats>> ask(tcp::socket& socket,
                                                      const std::string& operator_token) {
  std::string out;
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  // A name of its own each time: a server remembers the names it has seen.
  static int queries = 0;
  hello.mutable_hello()->set_name("bench-stats-" + std::to_string(getpid()) + "-" +
                                  std::to_string(++queries));
  wire::append_frame(hello, out);
  wire::ClientMessage get;
  get.mutable_get_stats()->set_operator_token(operator_token);
  wire::append_frame(get, out);
  auto [wec, wn] = co_await asio::async_write(socket, asio::buffer(out), use_tuple);
  if (wec) co_return std::nullopt;
  wire::FrameReader reader;
  for (;;) {
    auto space = reader.prepare();
    auto [ec, n] =
        co_await socket.async_read_some(asio::buffer(space.data(), space.size()), use_tuple);
    if (ec) co_return std::nullopt;
    reader.commit(n);
    std::string_view body;
    while (reader.next(body) == wire::FrameReader::Status::kFrame) {
      wire::ServerMessage message;
      if (!wire::parse_body(body, message) || message.has_error()) co_return std::nullopt;
      if (message.has_stats()) co_return message.stats();
    }
  }
}

asio::awaitable<void> deadline(std::chrono::seconds after) {
  asio::steady_timer timer(co_await asio::this_coro::executor, after);
  co_await timer.async_wait(use_tuple);
}

}  // namespace

asio::awaitable<std::optional<wire::ServerStats>> query_stats(tcp::endpoint server,
                                                              std::string operator_token) {
  tcp::socket socket(co_await asio::this_coro::executor);
  auto [ec] = co_await socket.async_connect(server, use_tuple);
  if (ec) co_return std::nullopt;
  auto result = co_await (ask(socket, operator_token) || deadline(std::chrono::seconds(5)));
  if (result.index() == 0) co_return std::get<0>(result);
  co_return std::nullopt;
}

}  // namespace ttt::bench
