// RedisTlsRelay: TLS to Redis (rediss://) for hiredis 0.14, which speaks
// plain TCP only. The relay listens on a Unix socket in a folder of its own
// (mode 0700, so no other local user can use it), and carries each
// connection made there to Redis over TLS (tls::Stream): Redis's
// certificate checked against the CA file given (or the system's) and the
// host name of --redis, and a client certificate shown when one is given.
// RedisClient connects hiredis to path(). Runs on the executor given; the
// folder and socket go when the relay is closed.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <optional>
#include <string>

#include "redis/redis_client.hpp"

namespace ttt::server::redis {

class RedisTlsRelay : public std::enable_shared_from_this<RedisTlsRelay> {
 public:
  // How long connecting to Redis and the TLS handshake may take.
  static constexpr std::chrono::milliseconds kConnectTimeout{3'000};

  // The TLS context for the address (its CA file, client certificate and
  // key), or nullopt with `error` saying which file is wrong.
  static std::shared_ptr<boost::asio::ssl::context> context_for(const RedisAddress& address,
                                                                std::string& error);

  // Makes the folder and listens; throws std::runtime_error if it can't.
  RedisTlsRelay(boost::asio::any_io_executor executor, RedisAddress address);
  ~RedisTlsRelay();
  RedisTlsRelay(const RedisTlsRelay&) = delete;
  RedisTlsRelay& operator=(const RedisTlsRelay&) = delete;

  // Starts accepting (create with std::make_shared).
  void start();
  // Stops accepting; the relays under way end with their connections.
  void close();

  const std::string& path() const noexcept { return path_; }

 private:
  using Local = boost::asio::local::stream_protocol;
  boost::asio::awaitable<void> accept_loop();
  boost::asio::awaitable<void> relay(Local::socket client);

  boost::asio::any_io_executor executor_;
  RedisAddress address_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  std::string folder_;
  std::string path_;
  Local::acceptor acceptor_;
  std::string last_failure_;  // said once until it changes
};

}  // namespace ttt::server::redis
