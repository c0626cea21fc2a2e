// Stream: one connection's bytes, plain TCP or TLS over it (Asio SSL on
// OpenSSL). The server's sessions, the clients' links and the load tool read
// and write through it, so that the same code speaks both.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <tuple>

namespace ttt::tls {

// The first byte of every TLS connection (a handshake record). A ttt frame
// never starts with it: its first byte is the top of a length of at most
// 16 MiB, so 0x00 or 0x01.
constexpr unsigned char kHandshakeRecord = 0x16;

// TLS 1.2 at least (1.3 when both sides have it), no compression, no
// renegotiation: the settings both sides share.
void harden(boost::asio::ssl::context& context);

class Stream {
 public:
  using tcp = boost::asio::ip::tcp;
  using Result = std::tuple<boost::system::error_code, std::size_t>;

  // Plain TCP until start_tls().
  explicit Stream(tcp::socket socket);

  // From now on TLS, with the context's settings (the stream keeps it
  // alive). Call before any byte is read or written; then handshake().
  void start_tls(std::shared_ptr<boost::asio::ssl::context> context);

  bool is_tls() const noexcept { return tls_ != nullptr; }

  // The TCP socket under it (for options, waits, shutdown and close).
  tcp::socket& socket() noexcept { return tls_ ? tls_->next_layer() : socket_; }

  // The TLS stream; only when is_tls().
  boost::asio::ssl::stream<tcp::socket>& tls() noexcept { return *tls_; }

  // The TLS handshake, as client or server.
  boost::asio::awaitable<boost::system::error_code> handshake(
      boost::asio::ssl::stream_base::handshake_type side);

  // One read of what has arrived (waits for something).
  boost::asio::awaitable<Result> read_some(boost::asio::mutable_buffer buffer);

  // Writes all of buffers. Over TLS they are gathered into records of up to
  // 16 KiB first, so that many small frames cost one record, not one each.
  boost::asio::awaitable<Result> write(std::span<const boost::asio::const_buffer> buffers);

 private:
  tcp::socket socket_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  std::unique_ptr<boost::asio::ssl::stream<tcp::socket>> tls_;
  std::string gathered_;  // TLS: the bytes of the record being written
};

}  // namespace ttt::tls
