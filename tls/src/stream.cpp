#include "ttt/tls/stream.hpp"

#include <openssl/ssl.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace ttt::tls {
namespace {

namespace asio = boost::asio;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A TLS record carries at most 16 KiB of data.
constexpr std::size_t kRecordBytes = 16 * 1024;

}  // namespace

void harden(asio::ssl::context& context) {
  context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                      asio::ssl::context::no_tlsv1_1 | asio::ssl::context::no_compression);
  SSL_CTX* native = context.native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
  // OpenSSL's record buffers stay with their connection (no
  // SSL_MODE_RELEASE_BUFFERS): giving them back after every record cost the
  // server about a fifth of its time per move (docs/performance.md).
}

Stream::Stream(tcp::socket socket) : socket_(std::move(socket)) {}

void Stream::start_tls(std::shared_ptr<asio::ssl::context> context) {
  context_ = std::move(context);
  tls_ = std::make_unique<asio::ssl::stream<tcp::socket>>(std::move(socket_), *context_);
}

asio::awaitable<boost::system::error_code> Stream::handshake(
    asio::ssl::stream_base::handshake_type side) {
  auto [ec] = co_await tls_->async_handshake(side, use_tuple);
  co_return ec;
}

asio::awaitable<Stream::Result> Stream::read_some(asio::mutable_buffer buffer) {
  if (tls_) co_return co_await tls_->async_read_some(buffer, use_tuple);
  co_return co_await socket_.async_read_some(buffer, use_tuple);
}

asio::awaitable<Stream::Result> Stream::write(std::span<const asio::const_buffer> buffers) {
  if (!tls_) co_return co_await asio::async_write(socket_, buffers, use_tuple);
  std::size_t total = 0;
  std::size_t next = 0;    // the first buffer not yet gathered
  std::size_t offset = 0;  // bytes of it already gathered
  while (next < buffers.size()) {
    gathered_.clear();
    while (next < buffers.size() && gathered_.size() < kRecordBytes) {
      const auto* data = static_cast<const char*>(buffers[next].data()) + offset;
      const std::size_t size = buffers[next].size() - offset;
      const std::size_t take = std::min(size, kRecordBytes - gathered_.size());
      gathered_.append(data, take);
      offset += take;
      if (offset == buffers[next].size()) {
        ++next;
        offset = 0;
      }
    }
    auto [ec, n] = co_await asio::async_write(*tls_, asio::buffer(gathered_), use_tuple);
    total += n;
    if (ec) co_return Result{ec, total};
  }
  co_return Result{boost::system::error_code{}, total};
}

}  // namespace ttt::tls
