#include "net/http_connection.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "net/use_tuple.hpp"
#include "net/web_server.hpp"
#include "net/web_session.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using std::chrono::steady_clock;

using WebResponse = http::response<http::string_body>;

std::string remote_of(tls::Stream& stream) {
  boost::system::error_code ec;
  const auto endpoint = stream.socket().remote_endpoint(ec);
  if (ec) return "unknown peer";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

WebResponse plain_answer(http::status status, std::string text,
                         const http::request_header<>& request, bool keep_alive) {
  WebResponse response(status, request.version());
  response.set(http::field::server, "ttt-server");
  response.set(http::field::content_type, "text/plain; charset=utf-8");
  response.set(http::field::cache_control, "no-store");
  for (const auto& [name, value] : web::WebSite::security_headers()) response.set(name, value);
  response.keep_alive(keep_alive);
  response.body() = std::move(text);
  response.prepare_payload();
  return response;
}

}  // namespace

HttpConnection::HttpConnection(tls::Stream stream, std::string received, std::shared_ptr<void> slot,
                               WebServer& server)
    : stream_(std::move(stream)),
      buffer_(kHeaderLimit + 1024),
      slot_(std::move(slot)),
      server_(server),
      deadline_(stream_.get_executor()),
      peer_(remote_of(stream_.stream())) {
  // What the session read already is the start of the first request.
  const auto space = buffer_.prepare(received.size());
  asio::buffer_copy(space, asio::buffer(received));
  buffer_.commit(received.size());
  if (auto* metrics = server_.commons().metrics) metrics->web_connections.add(1);
}

HttpConnection::~HttpConnection() {
  if (auto* metrics = server_.commons().metrics) metrics->web_connections.add(-1);
}

void HttpConnection::start() {
  asio::co_spawn(stream_.get_executor(), serve(),
                 [self = shared_from_this()](std::exception_ptr e) {
                   if (!e) return;
                   try {
                     std::rethrow_exception(e);
                   } catch (const std::exception& ex) {
                     spdlog::error("web connection {} failed: {}", self->peer_, ex.what());
                     self->stream_.close();
                   }
                 });
}

void HttpConnection::arm(steady_clock::duration after) {
  deadline_.expires_after(after);
  deadline_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec && !self->upgraded_) self->stream_.close();
  });
}

void HttpConnection::disarm() { deadline_.cancel(); }

asio::awaitable<void> HttpConnection::serve() {
  const auto& limits = server_.limits();
  for (std::size_t served = 0; served < kMaxRequests; ++served) {
    http::request_parser<http::empty_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(0);
    // The first request has the Hello deadline (a connection that says
    // nothing is dropped as any other); later ones the keep-alive wait.
    const auto wait = served == 0 ? steady_clock::duration(limits.hello_timeout)
                                  : steady_clock::duration(kKeepAlive);
    arm(std::min(wait, steady_clock::duration(limits.hello_timeout)));
    auto [ec, n] = co_await http::async_read(stream_, buffer_, parser, use_tuple);
    disarm();
    if (ec) {
      // Closed, timed out, or not HTTP we take: a 400 to a bad request, then close.
      if (ec != http::error::end_of_stream && ec != asio::error::operation_aborted &&
          ec != asio::error::eof && ec != asio::error::bad_descriptor &&
          ec != asio::error::connection_reset) {
        if (auto* metrics = server_.commons().metrics)
          metrics->web_requests.at("bad_request").add();
        auto response =
            plain_answer(http::status::bad_request, "bad request: " + ec.message() + "\n",
                         http::request_header<>(), false);
        arm(std::chrono::seconds(2));
        co_await http::async_write(stream_, response, use_tuple);
        disarm();
      }
      break;
    }
    Request request = parser.release();
    if (beast::websocket::is_upgrade(request)) {
      co_await upgrade(std::move(request));
      co_return;
    }
    if (!co_await answer(request)) break;
  }
  boost::system::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

asio::awaitable<bool> HttpConnection::answer(const Request& request) {
  auto* metrics = server_.commons().metrics;
  const bool keep_alive = request.keep_alive() && steady_clock::now() - started_at_ < kMaxLifetime;
  const std::string_view target(request.target().data(), request.target().size());
  const std::string_view path = target.substr(0, target.find('?'));
  WebResponse response;
  const web::WebAsset* asset = nullptr;
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    if (metrics) metrics->web_requests.at("bad_request").add();
    response =
        plain_answer(http::status::method_not_allowed, "only GET and HEAD\n", request, keep_alive);
    response.set(http::field::allow, "GET, HEAD");
  } else if (path == "/ws") {
    if (metrics) metrics->web_requests.at("bad_request").add();
    response =
        plain_answer(http::status::upgrade_required, "/ws is a WebSocket\n", request, keep_alive);
  } else if ((asset = server_.site().find(path)) == nullptr) {
    if (metrics) metrics->web_requests.at("not_found").add();
    response = plain_answer(http::status::not_found, "not found\n", request, keep_alive);
  } else if (request[http::field::if_none_match] == asset->etag) {
    if (metrics) metrics->web_requests.at("not_modified").add();
    response = plain_answer(http::status::not_modified, "", request, keep_alive);
    response.body().clear();
    response.set(http::field::etag, asset->etag);
    response.content_length(boost::none);
  } else {
    if (metrics) metrics->web_requests.at("ok").add();
    response = plain_answer(http::status::ok, std::string(asset->body), request, keep_alive);
    response.set(http::field::content_type, asset->type);
    response.set(http::field::etag, asset->etag);
    // Checked every time (cheap: 304), so a new server is never served stale files.
    response.set(http::field::cache_control, "no-cache");
  }
  if (request.method() == http::verb::head) {
    const auto length = response.body().size();
    response.body().clear();
    response.content_length(length);
  }
  arm(server_.limits().hello_timeout);
  auto [ec, written] = co_await http::async_write(stream_, response, use_tuple);
  disarm();
  co_return !ec && keep_alive;
}

asio::awaitable<void> HttpConnection::upgrade(Request request) {
  auto* metrics = server_.commons().metrics;
  const std::string_view target(request.target().data(), request.target().size());
  const std::string_view path = target.substr(0, target.find('?'));
  const std::string_view origin(request[http::field::origin].data(),
                                request[http::field::origin].size());
  const std::string_view host(request[http::field::host].data(), request[http::field::host].size());
  if (buffer_.size() > 0) {
    // Bytes sent before the 101 (a browser waits for it): not a WebSocket client.
    if (metrics) metrics->web_requests.at("bad_request").add();
    co_return;
  }
  if (path != "/ws" || !server_.origin_allowed(origin, host, stream_.stream().is_tls())) {
    const bool foreign = path == "/ws";
    if (metrics) metrics->web_upgrades.at(foreign ? "foreign_origin" : "not_found").add();
    if (foreign) {
      spdlog::info("web connection {}: WebSocket refused: Origin '{}' is not this server's", peer_,
                   std::string(origin.substr(0, 200)));
    }
    auto response = plain_answer(
        foreign ? http::status::forbidden : http::status::not_found,
        foreign ? "this page's Origin may not open the game's WebSocket\n" : "not found\n", request,
        false);
    arm(std::chrono::seconds(2));
    co_await http::async_write(stream_, response, use_tuple);
    disarm();
    boost::system::error_code ignored;
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    co_return;
  }
  boost::system::error_code no_peer;
  const auto peer = stream_.socket().remote_endpoint(no_peer);
  const auto forwarded = request["X-Forwarded-For"];
  const std::optional<std::string> address =
      no_peer ? std::optional<std::string>("unknown")
              : server_.client_address(peer.address(),
                                       std::string_view(forwarded.data(), forwarded.size()));
  if (!address) {
    if (metrics) metrics->web_requests.at("bad_request").add();
    auto response = plain_answer(http::status::bad_request, "X-Forwarded-For names no address\n",
                                 request, false);
    arm(std::chrono::seconds(2));
    co_await http::async_write(stream_, response, use_tuple);
    disarm();
    co_return;
  }
  upgraded_ = true;
  disarm();
  if (metrics) metrics->web_upgrades.at("ok").add();
  auto session =
      std::make_shared<WebSession>(std::move(stream_), std::move(slot_), server_, peer_, *address);
  session->start(std::move(request));
}

}  // namespace ttt::server
