// Stream: one connection's bytes, plain TCP or TLS over it (OpenSSL, its
// records made and read in memory). The server's sessions, the clients' links
// and the load tool read and write through it, so that the same code speaks
// both.
#pragma once

#include <openssl/ssl.h>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream_base.hpp>
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

// TLS 1.2 at least (1.3 when both sides have it, AES-128-GCM preferred;
// TLS 1.2 with ECDHE and AEAD suites only), no compression, no
// renegotiation: the settings both sides share.
void harden(boost::asio::ssl::context& context);

class Stream {
 public:
  using tcp = boost::asio::ip::tcp;
  using Result = std::tuple<boost::system::error_code, std::size_t>;

  // Plain TCP until start_tls().
  explicit Stream(tcp::socket socket);
  Stream(Stream&&) noexcept;
  Stream& operator=(Stream&&) noexcept;
  ~Stream();

  // From now on TLS, with the context's settings (the stream keeps it
  // alive). Call before any byte is read or written; then handshake(). The
  // socket becomes non-blocking (OpenSSL never waits on it).
  void start_tls(std::shared_ptr<boost::asio::ssl::context> context);

  bool is_tls() const noexcept { return tls_ != nullptr; }

  // The TCP socket under it (for options, waits, shutdown and close).
  tcp::socket& socket() noexcept { return socket_; }

  // OpenSSL's connection (e.g. for the host name to expect, or the
  // certificate shown); only when is_tls().
  SSL* native_handle() noexcept;

  // The TLS handshake, as client or server. Cancellable as any socket wait.
  boost::asio::awaitable<boost::system::error_code> handshake(
      boost::asio::ssl::stream_base::handshake_type side);

  // One read of what has arrived (waits for something).
  boost::asio::awaitable<Result> read_some(boost::asio::mutable_buffer buffer);

  // Writes all of buffers. Over TLS they are gathered into records of up to
  // 16 KiB first, so that many small frames cost one record, not one each.
  // At most one write() or flush() at a time.
  boost::asio::awaitable<Result> write(std::span<const boost::asio::const_buffer> buffers);

  // --- Without waiting: for a non-blocking socket (the server's sessions). ---

  // Reads what is there now: would_block when nothing is. Over TLS a read
  // may make records of its own to send (an alert): see pending_output().
  // It takes at most max_receive bytes from the socket (at least one
  // receive); past that it says would_block too, though the socket may hold
  // more: a caller that spent its turn (net's ReadTurn) reads on later
  // without waiting. Over TLS, a peer that sends more than a few
  // handshake messages after the handshake (key updates, renegotiation) is
  // refused: error::post_handshake_flood.
  std::size_t read_now(boost::asio::mutable_buffer buffer, boost::system::error_code& ec,
                       std::size_t max_receive = static_cast<std::size_t>(-1));

  // Bytes taken from the socket so far (raw: TLS records as received).
  std::size_t bytes_received() const noexcept { return received_; }

  // TLS: gives back the memory of an idle connection (OpenSSL's record
  // buffers, about 34 KiB, and what this stream keeps for records on their
  // way out); they come back with the next read or write. False, with
  // nothing given back, while records or received bytes are pending.
  bool release_buffers() noexcept;

  // TLS: bytes received from the socket that read_now() may give out (or
  // fail on) without more from the socket: a wait for the socket to be
  // readable would not see them. Part of a record is not such input: after
  // read_now() said would_block, a caller waits on the socket.
  bool holds_input() const noexcept;

  // Sends buffers as far as the socket takes them now; returns how many of
  // their bytes it took. Over TLS every byte is taken, made into records at
  // once; what the socket doesn't take of those stays pending_output().
  // Not while a write() or flush() is in flight.
  std::size_t write_now(std::span<const boost::asio::const_buffer> buffers,
                        boost::system::error_code& ec);

  // TLS: makes buffers into records (gathered into up to 16 KiB each) to be
  // sent by flush_now() or flush(). Plain TCP: nothing to do.
  void encrypt(std::span<const boost::asio::const_buffer> buffers, boost::system::error_code& ec);

  // TLS: bytes of records made but not yet taken by the socket, those of a
  // flush() in flight included.
  std::size_t pending_output() const noexcept;

  // Sends what the socket takes now of the pending records; true when none
  // is left. Not while a flush() is in flight.
  bool flush_now(boost::system::error_code& ec);

  // Sends every pending record, waiting as needed.
  boost::asio::awaitable<boost::system::error_code> flush();

 private:
  struct Tls;

  tcp::socket socket_;
  std::unique_ptr<Tls> tls_;
  std::size_t received_ = 0;
};

// A handshake message after the handshake is over costs the receiver a
// key derivation or more (a TLS 1.3 key update); past this many, the peer is
// flooding. (A client gets the server's session tickets so: 2 from ours.)
constexpr int kMaxPostHandshakeMessages = 8;

}  // namespace ttt::tls
