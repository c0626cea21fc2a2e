// HttpConnection: a browser's connection on the game port, before (or
// instead of) a WebSocket. It answers GET and HEAD of the web client's
// files (net/web_server.hpp's site) with keep-alive, each request within a
// deadline and a small header limit, at most kMaxRequests per connection
// and for at most kMaxLifetime;
// a WebSocket upgrade of /ws from an allowed Origin becomes a WebSession
// on the same connection and slot. Anything else gets 4xx and, where the
// request can't be trusted, the connection closes.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "ttt/tls/async_stream.hpp"

namespace ttt::server {

class WebServer;

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  static constexpr std::size_t kMaxRequests = 200;
  static constexpr std::uint32_t kHeaderLimit = 8 * 1024;
  // How long a kept-alive connection may wait for its next request.
  static constexpr std::chrono::seconds kKeepAlive{15};
  // How long a connection may stay HTTP (a browser loads the page in
  // seconds; the WebSocket is a connection of its own): the slot it holds
  // comes back within this, whatever the peer sends.
  static constexpr std::chrono::seconds kMaxLifetime{120};

  HttpConnection(tls::Stream stream, std::string received, std::shared_ptr<void> slot,
                 WebServer& server);
  ~HttpConnection();

  void start();

 private:
  using Request = boost::beast::http::request<boost::beast::http::empty_body>;

  boost::asio::awaitable<void> serve();
  // Answers one request; false when the connection must close.
  boost::asio::awaitable<bool> answer(const Request& request);
  // Takes the upgrade: the Origin checked, the 101 sent, a WebSession started.
  boost::asio::awaitable<void> upgrade(Request request);
  // Closes the socket at `deadline` unless disarmed first.
  void arm(std::chrono::steady_clock::duration after);
  void disarm();

  tls::AsyncStream stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<void> slot_;
  WebServer& server_;
  boost::asio::steady_timer deadline_;
  std::string peer_;
  std::chrono::steady_clock::time_point started_at_ = std::chrono::steady_clock::now();
  bool upgraded_ = false;
};

}  // namespace ttt::server
