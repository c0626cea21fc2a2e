#include "redis/redis_tls_relay.hpp"

#include <openssl/ssl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "ttt/tls/peer_name.hpp"
#include "ttt/tls/stream.hpp"
#include "ttt/tls/tls_errors.hpp"

namespace ttt::server::redis {
namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

constexpr auto kUse = asio::as_tuple(asio::use_awaitable);

}  // namespace

std::shared_ptr<asio::ssl::context> RedisTlsRelay::context_for(const RedisAddress& address,
                                                               std::string& error) {
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  tls::harden(*context);
  boost::system::error_code ec;
  if (address.ca_file.empty()) {
    context->set_default_verify_paths(ec);
  } else {
    context->load_verify_file(address.ca_file, ec);
    if (ec) {
      error = "--redis-ca " + address.ca_file + ": " + ec.message();
      return nullptr;
    }
  }
  context->set_verify_mode(asio::ssl::verify_peer);
  if (!address.cert_file.empty()) {
    context->use_certificate_chain_file(address.cert_file, ec);
    if (ec) {
      error = "--redis-cert " + address.cert_file + ": " + ec.message();
      return nullptr;
    }
    context->use_private_key_file(address.key_file, asio::ssl::context::pem, ec);
    if (ec) {
      error = "--redis-key " + address.key_file + ": " + ec.message();
      return nullptr;
    }
  }
  return context;
}

RedisTlsRelay::RedisTlsRelay(asio::any_io_executor executor, RedisAddress address)
    : executor_(executor), address_(std::move(address)), acceptor_(executor) {
  std::string error;
  context_ = context_for(address_, error);
  if (!context_) throw std::runtime_error(error);
  const char* tmp = std::getenv("TMPDIR");
  std::string folder =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/ttt-redis-tls.XXXXXX";
  if (::mkdtemp(folder.data()) == nullptr) {
    throw std::runtime_error("can't make a folder for the Redis TLS relay in " + folder);
  }
  folder_ = folder;  // mkdtemp makes it 0700
  path_ = folder_ + "/redis.sock";
  acceptor_.open(Local());
  acceptor_.bind(Local::endpoint(path_));
  acceptor_.listen();
}

RedisTlsRelay::~RedisTlsRelay() { close(); }

void RedisTlsRelay::start() {
  asio::co_spawn(
      executor_, [self = shared_from_this()] { return self->accept_loop(); }, asio::detached);
}

void RedisTlsRelay::close() {
  if (folder_.empty()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  ::unlink(path_.c_str());
  ::rmdir(folder_.c_str());
  folder_.clear();
}

asio::awaitable<void> RedisTlsRelay::accept_loop() {
  auto self = shared_from_this();
  for (;;) {
    auto [ec, client] = co_await acceptor_.async_accept(kUse);
    if (ec) co_return;  // closed
    asio::co_spawn(executor_, relay(std::move(client)), asio::detached);
  }
}

asio::awaitable<void> RedisTlsRelay::relay(Local::socket client) {
  auto self = shared_from_this();
  asio::ip::tcp::resolver resolver(executor_);
  asio::steady_timer deadline(executor_, kConnectTimeout);
  // Connecting and the handshake, within the deadline.
  auto connect = [&]() -> asio::awaitable<std::optional<tls::Stream>> {
    auto [resolved, endpoints] =
        co_await resolver.async_resolve(address_.host, std::to_string(address_.port), kUse);
    if (resolved) {
      last_failure_ = "can't resolve " + address_.host + ": " + resolved.message();
      co_return std::nullopt;
    }
    asio::ip::tcp::socket socket(executor_);
    auto [connected, endpoint] = co_await asio::async_connect(socket, endpoints, kUse);
    if (connected) {
      last_failure_ = "can't connect: " + connected.message();
      co_return std::nullopt;
    }
    tls::Stream stream(std::move(socket));
    stream.start_tls(context_);
    // Redis's certificate must name the host --redis names.
    tls::expect_host(stream.native_handle(), address_.host);
    if (auto failed = co_await stream.handshake(asio::ssl::stream_base::client)) {
      const long verdict = SSL_get_verify_result(stream.native_handle());
      last_failure_ = "the TLS handshake failed: " +
                      (verdict != X509_V_OK ? std::string(X509_verify_cert_error_string(verdict))
                                            : tls::describe(failed));
      co_return std::nullopt;
    }
    co_return std::optional<tls::Stream>(std::move(stream));
  };
  auto timeout = [&]() -> asio::awaitable<void> { co_await deadline.async_wait(kUse); };
  auto outcome = co_await (connect() || timeout());
  if (outcome.index() == 1 || !std::get<0>(outcome)) {
    const std::string why =
        outcome.index() == 1
            ? "no TLS connection within " + std::to_string(kConnectTimeout.count()) + " ms"
            : last_failure_;
    spdlog::warn("redis {}: {}", address_.text(), why);
    co_return;  // hiredis sees its connection end, and tries again
  }
  tls::Stream stream = std::move(*std::get<0>(outcome));
  // Both ways until either side ends.
  auto upstream = [&]() -> asio::awaitable<void> {
    std::array<char, 16384> buffer;
    for (;;) {
      auto [ec, n] = co_await client.async_read_some(asio::buffer(buffer), kUse);
      if (ec) co_return;
      const asio::const_buffer out(buffer.data(), n);
      auto [wrote, written] = co_await stream.write(std::span<const asio::const_buffer>(&out, 1));
      if (wrote) co_return;
    }
  };
  auto downstream = [&]() -> asio::awaitable<void> {
    std::array<char, 16384> buffer;
    for (;;) {
      auto [ec, n] = co_await stream.read_some(asio::buffer(buffer));
      if (ec) co_return;
      auto [wrote, written] =
          co_await asio::async_write(client, asio::buffer(buffer.data(), n), kUse);
      if (wrote) co_return;
    }
  };
  co_await (upstream() || downstream());
  boost::system::error_code ignored;
  stream.socket().close(ignored);
  client.close(ignored);
}

}  // namespace ttt::server::redis
