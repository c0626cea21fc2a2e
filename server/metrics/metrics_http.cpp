#include "metrics/metrics_http.hpp"
#include "net/connection_slots.hpp"
#include "net/peer_address.hpp"
#include "net/use_tuple.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <charconv>
#include <stdexcept>

namespace ttt::server::metrics {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// A request is a line and a few headers; nothing here reads a body.
constexpr std::uint32_t kHeaderLimit = 8 * 1024;
constexpr auto kReadDeadline = std::chrono::seconds(10);

using Response = http::response<http::string_body>;

Response text(http::status status, std::string body, unsigned version, bool keep_alive,
              const char* type = "text/plain; charset=utf-8") {
  Response response(status, version);
  response.set(http::field::server, "ttt-server");
  response.set(http::field::content_type, type);
  response.set(http::field::cache_control, "no-store");
  response.keep_alive(keep_alive);
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

}  // namespace

struct MetricsHttp::State {
  MetricsPages pages;
  std::shared_ptr<ConnectionSlots> slots =
      std::make_shared<ConnectionSlots>(kMaxConnections, kMaxPerAddress);
};

MetricsHttp::MetricsHttp(asio::io_context& io, const std::string& address, std::uint16_t port,
                         MetricsPages pages)
    : acceptor_(asio::make_strand(io)), state_(std::make_shared<State>()) {
  state_->pages = std::move(pages);
  boost::system::error_code ec;
  const auto ip = asio::ip::make_address(address, ec);
  if (ec) throw std::runtime_error("--metrics: '" + address + "' is not an IP address");
  const tcp::endpoint endpoint(ip, port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("--metrics: cannot listen on " + address + " port " +
                             std::to_string(port) + ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
}

MetricsHttp::~MetricsHttp() = default;

void MetricsHttp::start() {
  asio::co_spawn(acceptor_.get_executor(), accept_loop(), [](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      spdlog::error("metrics: accept loop failed: {}", ex.what());
    }
  });
}

void MetricsHttp::close() {
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  });
}

asio::awaitable<void> MetricsHttp::accept_loop() {
  while (acceptor_.is_open()) {
    auto [ec, socket] =
        co_await acceptor_.async_accept(asio::make_strand(acceptor_.get_executor()), use_tuple);
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
    if (ec) continue;
    boost::system::error_code no_peer;
    const auto peer = socket.remote_endpoint(no_peer);
    ConnectionSlots::Refusal why{};
    auto slot = state_->slots->take(no_peer ? "unknown" : address_key(peer.address()), why);
    if (!slot) {
      boost::system::error_code ignored;
      socket.close(ignored);  // a scraper needs one; past the caps, nobody is owed one
      continue;
    }
    const auto executor = socket.get_executor();
    asio::co_spawn(executor, serve(state_, std::move(socket), std::move(slot)), asio::detached);
  }
}

asio::awaitable<void> MetricsHttp::serve(std::shared_ptr<State> state, tcp::socket socket,
                                         std::shared_ptr<void> slot) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer(kHeaderLimit);
  for (;;) {
    http::request_parser<http::empty_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(0);
    stream.expires_after(kReadDeadline);
    auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
    if (ec) break;  // closed, timed out, or not HTTP: nothing to answer
    const auto& request = parser.get();
    const unsigned version = request.version();
    const bool keep_alive = request.keep_alive();
    const std::string target(request.target());
    const std::string path = target.substr(0, target.find('?'));
    Response response;
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      response = text(http::status::method_not_allowed, "only GET\n", version, keep_alive);
      response.set(http::field::allow, "GET, HEAD");
    } else if (path == "/metrics") {
      response = text(http::status::ok, co_await state->pages.metrics(), version, keep_alive,
                      "text/plain; version=0.0.4; charset=utf-8");
    } else if (path == "/healthz") {
      response = text(http::status::ok, "ok\n", version, keep_alive);
    } else if (path == "/readyz") {
      const Readiness readiness = co_await state->pages.ready();
      response = readiness.ready
                     ? text(http::status::ok, "ready\n", version, keep_alive)
                     : text(http::status::service_unavailable,
                            "not ready: " + readiness.reason + "\n", version, keep_alive);
    } else {
      response = text(http::status::not_found, "not found: /metrics, /healthz, /readyz\n", version,
                      keep_alive);
    }
    if (request.method() == http::verb::head) {
      const auto length = response.body().size();
      response.body().clear();
      response.content_length(length);
    }
    stream.expires_after(kReadDeadline);
    auto [write_ec, written] = co_await http::async_write(stream, response, use_tuple);
    if (write_ec || !keep_alive) break;
  }
  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  slot.reset();  // its place, for the next
}

bool parse_listen_address(const std::string& text, std::string& address, std::uint16_t& port,
                          std::string& error) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    error = "'" + text + "' is not ADDR:PORT (e.g. 127.0.0.1:9100, [::1]:9100)";
    return false;
  }
  address = text.substr(0, colon);
  if (address.size() >= 2 && address.front() == '[' && address.back() == ']') {
    address = address.substr(1, address.size() - 2);
  }
  const std::string digits = text.substr(colon + 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size() || value > 65535) {
    error = "'" + text + "': the port is not a number from 0 to 65535";
    return false;
  }
  boost::system::error_code bad;
  asio::ip::make_address(address, bad);
  if (bad) {
    error = "'" + text + "': '" + address + "' is not an IP address";
    return false;
  }
  port = static_cast<std::uint16_t>(value);
  return true;
}

}  // namespace ttt::server::metrics
