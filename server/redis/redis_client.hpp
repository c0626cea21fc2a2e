// RedisClient: one connection to Redis, hiredis's asynchronous context driven
// by Asio (hiredis 0.14 has no Asio adapter: its five event hooks, addRead,
// delRead, addWrite, delWrite and cleanup, are wired here to waits on the
// connection's descriptor). Commands are sent as argument vectors (binary
// safe) and answered on the client's executor, in order. A lost connection
// is taken up again on its own, backing off; commands asked for while it is
// down fail at once with a clear error, and so do commands Redis leaves
// unanswered too long (a stopped server is noticed within the command
// timeout). A client can instead subscribe to channels: each message is
// handed to the subscriber, and every new connection subscribes again.
//
// Everything runs on the executor given (the logic executor, a strand with
// several threads); create it with std::make_shared and start() it.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redis/redis_value.hpp"

struct redisAsyncContext;  // hiredis's, included by the .cpp only

namespace ttt::server::redis {

// Where Redis listens: "HOST:PORT" (a name or an IP literal; [::1]:6379 for
// IPv6), and how to log in and reach it: an ACL user and its password (or
// the password alone, for requirepass) and TLS.
struct RedisAddress {
  std::string host;
  std::uint16_t port = 6379;
  std::string user;      // empty: the default user
  std::string password;  // empty: no AUTH
  bool tls = false;      // rediss://
  // The TLS client's settings (rediss only): the CA file to check Redis's
  // certificate against (empty: the system's), and a client certificate
  // and key for Redis's tls-auth-clients (empty: none).
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
  // "host:port", or "rediss://user@host:port": never the password.
  std::string text() const;
};

// Parses "HOST:PORT" (or "HOST": default_port); nullopt with error set if bad.
std::optional<RedisAddress> parse_host_port(const std::string& text, std::uint16_t default_port,
                                            std::string& error);
// --redis: "HOST:PORT", or a URL "redis://[USER[:PASSWORD]@]HOST[:PORT]" (rediss:// for TLS;
// USER and PASSWORD percent-encoded as in any URL). Without a password in the URL the
// environment's TTT_REDIS_PASSWORD is the password, if set.
std::optional<RedisAddress> parse_redis_address(const std::string& text, std::string& error);

// Connects once, with a deadline, logs in (AUTH) when a password is given
// and asks PING: nullopt if Redis answers, else why not (for a clear error
// at start). rediss:// goes through a RedisTlsRelay of its own.
std::optional<std::string> check_redis(const RedisAddress& address,
                                       std::chrono::milliseconds timeout);

class RedisClient : public std::enable_shared_from_this<RedisClient> {
 public:
  // A command's answer: the reply, or the error (Redis's own error replies
  // are replies of type kError, not failures).
  using Done = std::function<void(const RedisResult& result)>;
  // A message on a subscribed channel.
  using OnMessage = std::function<void(const std::string& channel, const std::string& payload)>;
  // The connection came up (true: subscriptions, if any, are in place) or
  // went down (false).
  using OnState = std::function<void(bool up)>;

  struct Options {
    std::chrono::milliseconds connect_timeout{2'000};
    std::chrono::milliseconds command_timeout{3'000};
    std::chrono::milliseconds retry_min{100};    // backoff after a loss, doubling...
    std::chrono::milliseconds retry_max{2'000};  // ...up to this
    std::string name;  // CLIENT SETNAME, for Redis's CLIENT LIST; empty: none
    // rediss://: the Unix socket of the TLS relay that carries the
    // connection to Redis (RedisTlsRelay); empty: TCP to the address.
    std::string unix_path;
  };

  RedisClient(boost::asio::any_io_executor executor, RedisAddress address, Options options);
  ~RedisClient();

  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Subscriber mode: before start(), the channels to subscribe to on every
  // connection and what gets their messages. Such a client sends no
  // commands.
  void subscribe(std::vector<std::string> channels, OnMessage on_message);
  void on_state(OnState on_state) { on_state_ = std::move(on_state); }

  // Connects (and keeps reconnecting until close()).
  void start();
  // Ends the connection; pending commands fail. Safe to call more than once.
  void close();

  // Sends a command; done is always called exactly once, on the executor
  // (never from inside this call).
  void command(std::vector<std::string> args, Done done);

  // Whether the connection is up (and, for a subscriber, subscribed).
  bool up() const noexcept { return up_.load(std::memory_order_relaxed); }
  const RedisAddress& address() const noexcept { return address_; }

 private:
  struct Link;
  struct Pending;

  void connect();
  void linked(const std::shared_ptr<Link>& link, bool ok, const std::string& error);
  void lost(const std::shared_ptr<Link>& link, const std::string& why);
  void schedule_retry();
  void arm_watchdog();
  void fail_later(Done done, std::string error);
  static void on_reply(::redisAsyncContext* context, void* reply, void* privdata);
  static void on_subscribed_message(::redisAsyncContext* context, void* reply, void* privdata);

  boost::asio::any_io_executor executor_;
  RedisAddress address_;
  Options options_;
  std::vector<std::string> channels_;
  OnMessage on_message_;
  OnState on_state_;
  std::shared_ptr<Link> link_;
  boost::asio::steady_timer retry_timer_;
  boost::asio::steady_timer watchdog_;
  std::chrono::milliseconds backoff_;
  std::atomic<bool> up_{false};  // read by /readyz from another thread
  bool closed_ = false;
  std::uint64_t answered_ = 0;  // replies so far (the watchdog sees progress)
  std::string last_error_;
};

}  // namespace ttt::server::redis
