#include "ttt/tls/stream.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>
#include "ttt/tls/tls_errors.hpp"

namespace ttt::tls {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A TLS record carries at most 16 KiB of data.
constexpr std::size_t kRecordBytes = 16 * 1024;
// The most one receive from the socket takes at a time: a whole record at
// most. OpenSSL is given more only when it asks for it, so the bytes a
// connection holds for it stay within about this (as Asio's 17 KiB buffer).
constexpr std::size_t kReceiveBytes = 16 * 1024 + 512;
// The most a connection keeps allocated for records on their way out once
// they are sent (a burst's larger buffer is given back).
constexpr std::size_t kKeepOutputBytes = 16 * 1024 + 512;
// The most a connection keeps allocated for received bytes OpenSSL left
// (they are rare: see Tls::keep_rest).
constexpr std::size_t kKeepHeldBytes = 1024;

// Clears the thread's OpenSSL error queue before a handshake step, whose
// failure we word from it (SSL_get_error looks at the queue): in the usual
// case, where it is empty already, only a look. A record read or written
// does without (the look costs about 200 instructions, a few per cent of a
// move): whether it stopped for want of input is read from the connection
// itself (Tls::wants_input), and a failure empties the queue after it.
void clear_errors() {
  if (ERR_peek_error() != 0) ERR_clear_error();
}

// Scratch space of the calling thread, made on first use: what a receive
// brings before OpenSSL takes it, and small writes gathered into a record.
// Nothing is kept in them between calls.
char* receive_space() {
  thread_local std::unique_ptr<char[]> space;
  if (!space) space = std::make_unique<char[]>(kReceiveBytes);
  return space.get();
}

std::string& gather_space() {
  thread_local std::string space;
  return space;
}

}  // namespace

void harden(asio::ssl::context& context) {
  context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                      asio::ssl::context::no_tlsv1_1 | asio::ssl::context::no_compression);
  SSL_CTX* native = context.native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  // A server picks by its own order (below), whatever a client prefers.
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  // TLS 1.3's suites, AES-128-GCM first: the one every TLS 1.3 peer has,
  // and the cheapest a record on a CPU with AES instructions
  // (docs/performance.md). The defaults, in another order, so never refused.
  SSL_CTX_set_ciphersuites(native,
                           "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
                           "TLS_CHACHA20_POLY1305_SHA256");
  // TLS 1.2: forward secrecy and AEAD only (no CBC, no SHA-1 MACs), as TLS
  // 1.3 has, in the same order.
  if (SSL_CTX_set_cipher_list(native,
                              "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                              "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                              "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305") != 1) {
    throw std::runtime_error("TLS: OpenSSL has none of the TLS 1.2 AEAD suites");
  }
}

// OpenSSL's connection over a BIO of ours (below): what came from the socket
// is read by OpenSSL straight from where the receive put it, and the records
// it makes are written straight to the end of `pending`. Memory BIOs did the
// same with two more copies and their bookkeeping around every record
// (about 1,500 instructions a move, docs/performance.md).
struct Stream::Tls {
  std::shared_ptr<asio::ssl::context> context;
  SSL* ssl = nullptr;
  std::string pending;        // records made, not yet taken by the socket
  std::size_t sent = 0;       // bytes of pending already sent
  std::size_t in_flight = 0;  // bytes a flush() is sending (moved out of pending)
  bool flushing = false;
  // Received bytes OpenSSL has not read yet: those of the last receive
  // (in the thread's scratch space) during one OpenSSL call, and what it
  // left of them, kept here until it asks again.
  std::string_view fresh;
  std::string held;
  std::size_t held_at = 0;
  // OpenSSL asked for more than it has and the socket had nothing: what it
  // holds (part of a record) is no input to read until more arrives. (It
  // counts such a part as pending: a reader that trusted SSL_has_pending
  // alone would read again and again without ever waiting.)
  bool starved = false;
  // The handshake is over; handshake messages the peer sent since, and
  // whether it sent too many (then OpenSSL is given nothing more).
  bool established = false;
  int post_handshake = 0;
  bool flooded = false;

  explicit Tls(std::shared_ptr<asio::ssl::context> c) : context(std::move(c)) {
    ssl = SSL_new(context->native_handle());
    BIO* bio = BIO_new(bio_method());
    if (ssl == nullptr || bio == nullptr) {
      BIO_free(bio);
      SSL_free(ssl);
      throw std::runtime_error("TLS: out of memory for a connection");
    }
    BIO_set_data(bio, this);
    BIO_set_init(bio, 1);
    SSL_set_bio(ssl, bio, bio);  // one BIO both ways: ssl owns its one reference
    SSL_set_msg_callback(ssl, on_message);
    SSL_set_msg_callback_arg(ssl, this);
    // OpenSSL takes what arrived in one read, not a record's header and
    // then its body.
    SSL_set_read_ahead(ssl, 1);
    // OpenSSL's record buffers stay with their connection (no
    // SSL_MODE_RELEASE_BUFFERS, which Asio's SSL stream set): giving them
    // back after every record cost a malloc and a free of 16 KiB each way
    // (docs/performance.md).
  }
  ~Tls() { SSL_free(ssl); }
  Tls(const Tls&) = delete;
  Tls& operator=(const Tls&) = delete;

  std::size_t unsent() const noexcept { return pending.size() - sent; }

  // What OpenSSL reads next: the rest of what it left before, else the
  // last receive's bytes.
  std::string_view unread() const noexcept {
    return held_at < held.size() ? std::string_view(held).substr(held_at) : fresh;
  }
  bool holds_input() const noexcept { return !unread().empty(); }

  // After an OpenSSL call: what it left of the last receive is kept (the
  // scratch space is the thread's, reused by the next receive anywhere).
  void keep_rest() {
    held.append(fresh);
    fresh = {};
  }

  // Everything held was read: a rest of a big receive (up to 16.5 KiB, when
  // OpenSSL's buffer was nearly full) is not kept allocated for nothing.
  void drop_held() {
    if (held.capacity() > kKeepHeldBytes) {
      std::string().swap(held);
    } else {
      held.clear();
    }
    held_at = 0;
  }

  // Whether the last call stopped only because OpenSSL wants more of what
  // the socket brings (what SSL_get_error says as SSL_ERROR_WANT_READ, read
  // without the error queue): it was reading, and our BIO said "nothing now".
  bool wants_input() const { return SSL_want_read(ssl) && BIO_should_read(SSL_get_rbio(ssl)); }

  // An OpenSSL call's failure as an error code, as Asio's SSL stream words
  // it (tls_errors.hpp reads these). The error is the newest in the thread's
  // queue (this call's: others' older ones may sit under it, as records are
  // read and written without emptying the queue first); the queue is then
  // emptied, and the kind of failure read without it, so that nothing left
  // there by other code turns a peer's close_notify into an error.
  error_code failure(int result) const {
    const unsigned long newest = ERR_peek_last_error();
    ERR_clear_error();
    const int kind = SSL_get_error(ssl, result);
    if (kind == SSL_ERROR_ZERO_RETURN) return asio::error::eof;
    if (newest != 0) return {static_cast<int>(newest), asio::error::get_ssl_category()};
    if (kind == SSL_ERROR_SYSCALL) return asio::ssl::error::unspecified_system_error;
    return {kind, asio::error::get_ssl_category()};
  }

  // The socket ended: a close, if TLS said so first; else a cut.
  error_code ended() const {
    return (SSL_get_shutdown(ssl) & SSL_RECEIVED_SHUTDOWN) != 0
               ? error_code(asio::error::eof)
               : error_code(asio::ssl::error::stream_truncated);
  }

  // Gives OpenSSL what the (non-blocking) socket has now, up to `most`
  // bytes, for its next call (keep_rest() after it); returns how many.
  std::size_t receive(tcp::socket& socket, std::size_t most, error_code& ec) {
    keep_rest();
    char* space = receive_space();
    const std::size_t n = socket.read_some(asio::buffer(space, std::min(kReceiveBytes, most)), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) starved = true;
    if (ec == asio::error::eof) ec = ended();
    if (ec) return 0;
    starved = false;
    fresh = std::string_view(space, n);
    return n;
  }

  // OpenSSL tells each protocol message it reads or writes: a peer's
  // handshake messages after the handshake are counted, and past the most
  // a connection takes, OpenSSL reads nothing more (bio_read says the
  // stream ended, read_now says why).
  static void on_message(int write_p, int, int content_type, const void*, std::size_t, SSL*,
                         void* arg) {
    auto& t = *static_cast<Tls*>(arg);
    if (write_p != 0 || content_type != SSL3_RT_HANDSHAKE || !t.established) return;
    if (++t.post_handshake > kMaxPostHandshakeMessages) t.flooded = true;
  }

  // --- The BIO: OpenSSL's reads and writes. ---

  static int bio_read(BIO* bio, char* data, std::size_t size, std::size_t* taken) {
    auto& t = *static_cast<Tls*>(BIO_get_data(bio));
    BIO_clear_retry_flags(bio);
    if (t.flooded) {
      *taken = 0;
      return 0;  // no retry: the stream ended here
    }
    const std::string_view from = t.unread();
    const std::size_t n = std::min(size, from.size());
    if (n == 0) {
      BIO_set_retry_read(bio);  // nothing now: OpenSSL says WANT_READ
      *taken = 0;
      return 0;
    }
    std::memcpy(data, from.data(), n);
    if (t.held_at < t.held.size()) {
      t.held_at += n;
      if (t.held_at == t.held.size()) t.drop_held();
    } else {
      t.fresh.remove_prefix(n);
    }
    *taken = n;
    return 1;
  }

  static int bio_write(BIO* bio, const char* data, std::size_t size, std::size_t* written) {
    auto& t = *static_cast<Tls*>(BIO_get_data(bio));
    BIO_clear_retry_flags(bio);
    if (t.sent == t.pending.size()) {
      t.pending.clear();
      t.sent = 0;
    }
    t.pending.append(data, size);
    *written = size;
    return 1;
  }

  // OpenSSL asks this about ten times a record (mostly whether the BIO
  // does kernel TLS): the answer comes without looking at the connection.
  static long bio_ctrl(BIO* bio, int command, long, void*) {
    switch (command) {
      case BIO_CTRL_FLUSH:
        return 1;  // records go out with the stream's flush
      case BIO_CTRL_PENDING: {
        const auto* t = static_cast<const Tls*>(BIO_get_data(bio));
        return t != nullptr && t->holds_input() ? 1 : 0;
      }
      default:
        return 0;  // not supported (kernel TLS and the like: asked, and told no)
    }
  }

  static BIO_METHOD* bio_method() {
    static BIO_METHOD* const method = [] {
      BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "ttt stream");
      if (m == nullptr || BIO_meth_set_read_ex(m, bio_read) != 1 ||
          BIO_meth_set_write_ex(m, bio_write) != 1 || BIO_meth_set_ctrl(m, bio_ctrl) != 1) {
        throw std::runtime_error("TLS: cannot make OpenSSL's BIO method");
      }
      return m;
    }();
    return method;
  }
};

Stream::Stream(tcp::socket socket) : socket_(std::move(socket)) {}
Stream::Stream(Stream&&) noexcept = default;
Stream& Stream::operator=(Stream&&) noexcept = default;
Stream::~Stream() = default;

void Stream::start_tls(std::shared_ptr<asio::ssl::context> context) {
  tls_ = std::make_unique<Tls>(std::move(context));
  error_code ignored;
  socket_.non_blocking(true, ignored);
}

SSL* Stream::native_handle() noexcept { return tls_ ? tls_->ssl : nullptr; }

asio::awaitable<error_code> Stream::handshake(asio::ssl::stream_base::handshake_type side) {
  Tls& t = *tls_;
  if (side == asio::ssl::stream_base::client) {
    SSL_set_connect_state(t.ssl);
  } else {
    SSL_set_accept_state(t.ssl);
  }
  for (;;) {
    clear_errors();
    const int result = SSL_do_handshake(t.ssl);
    const bool wants_input = result != 1 && t.wants_input();
    const error_code failed = result == 1 || wants_input ? error_code{} : t.failure(result);
    if (result == 1) clear_errors();  // what OpenSSL left on the way, kept from the records' reads
    t.keep_rest();
    // Our flight first (or the alert that says why we stop).
    const error_code sent = co_await flush();
    if (result == 1) {
      t.established = true;
      co_return sent;
    }
    if (!wants_input) co_return failed;
    if (sent) co_return sent;
    error_code ec;
    received_ += t.receive(socket_, kReceiveBytes, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      auto [wait_ec] = co_await socket_.async_wait(tcp::socket::wait_read, use_tuple);
      if (wait_ec) co_return wait_ec;
    } else if (ec) {
      co_return ec;
    }
  }
}

asio::awaitable<Stream::Result> Stream::read_some(asio::mutable_buffer buffer) {
  if (!tls_) co_return co_await socket_.async_read_some(buffer, use_tuple);
  for (;;) {
    error_code ec;
    const std::size_t n = read_now(buffer, ec);
    // What reading made (an alert, say) goes out now if the socket takes
    // it, else with the next write.
    if (tls_->unsent() > 0 && !tls_->flushing) {
      error_code ignored;
      flush_now(ignored);
    }
    if (ec != asio::error::would_block && ec != asio::error::try_again) co_return Result{ec, n};
    auto [wait_ec] = co_await socket_.async_wait(tcp::socket::wait_read, use_tuple);
    if (wait_ec) co_return Result{wait_ec, 0};
  }
}

asio::awaitable<Stream::Result> Stream::write(std::span<const asio::const_buffer> buffers) {
  if (!tls_) co_return co_await asio::async_write(socket_, buffers, use_tuple);
  error_code ec;
  encrypt(buffers, ec);
  if (!ec) ec = co_await flush();
  co_return Result{ec, ec ? 0 : asio::buffer_size(buffers)};
}

std::size_t Stream::read_now(asio::mutable_buffer buffer, error_code& ec, std::size_t max_receive) {
  ec.clear();
  max_receive = std::max<std::size_t>(max_receive, 1);
  if (!tls_) {
    const std::size_t n =
        socket_.read_some(asio::buffer(buffer.data(), std::min(buffer.size(), max_receive)), ec);
    received_ += n;
    return n;
  }
  Tls& t = *tls_;
  std::size_t taken = 0;  // from the socket, in this call
  auto receive = [&] {
    const std::size_t n = t.receive(socket_, max_receive - taken, ec);
    taken += n;
    received_ += n;
  };
  // Nothing held: what the socket has comes first (a read of nothing would
  // only say so).
  if (!holds_input()) {
    receive();
    if (ec) return 0;
  }
  for (;;) {
    std::size_t n = 0;
    const int result = SSL_read_ex(t.ssl, buffer.data(), buffer.size(), &n);
    if (result == 1) {
      t.keep_rest();
      return n;
    }
    if (t.flooded) {
      ERR_clear_error();
      ec = error::post_handshake_flood;
    } else if (!t.wants_input()) {
      ec = t.failure(result);
    }
    t.keep_rest();
    if (ec) return 0;
    if (taken >= max_receive) {
      ec = asio::error::would_block;  // this call's share of the socket is spent
      return 0;
    }
    receive();
    if (ec) return 0;
  }
}

bool Stream::release_buffers() noexcept {
  if (!tls_) return true;
  Tls& t = *tls_;
  if (t.unsent() > 0 || t.in_flight > 0 || t.holds_input()) return false;
  if (SSL_free_buffers(t.ssl) != 1) return false;
  std::string().swap(t.pending);
  t.sent = 0;
  t.drop_held();
  std::string().swap(t.held);
  return true;
}

bool Stream::holds_input() const noexcept {
  return tls_ && (tls_->holds_input() || (!tls_->starved && SSL_has_pending(tls_->ssl) != 0));
}

std::size_t Stream::write_now(std::span<const asio::const_buffer> buffers, error_code& ec) {
  ec.clear();
  if (!tls_) return socket_.write_some(buffers, ec);
  encrypt(buffers, ec);
  if (ec) return 0;
  flush_now(ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) ec.clear();
  return ec ? 0 : asio::buffer_size(buffers);
}

void Stream::encrypt(std::span<const asio::const_buffer> buffers, error_code& ec) {
  ec.clear();
  if (!tls_) return;
  Tls& t = *tls_;
  auto write_record = [&](const void* data, std::size_t size) {
    if (size == 0) return true;
    std::size_t written = 0;
    const int result = SSL_write_ex(t.ssl, data, size, &written);
    if (result != 1) ec = t.failure(result);
    return !ec;
  };
  if (buffers.size() == 1) {
    write_record(buffers[0].data(), buffers[0].size());
    return;
  }
  std::string& gathered = gather_space();
  gathered.clear();
  for (const auto& buffer : buffers) {
    const auto* data = static_cast<const char*>(buffer.data());
    std::size_t size = buffer.size();
    while (size > 0) {
      const std::size_t take = std::min(size, kRecordBytes - gathered.size());
      gathered.append(data, take);
      data += take;
      size -= take;
      if (gathered.size() == kRecordBytes) {
        if (!write_record(gathered.data(), gathered.size())) return;
        gathered.clear();
      }
    }
  }
  write_record(gathered.data(), gathered.size());
}

std::size_t Stream::pending_output() const noexcept {
  return tls_ ? tls_->unsent() + tls_->in_flight : 0;
}

bool Stream::flush_now(error_code& ec) {
  ec.clear();
  if (!tls_) return true;
  Tls& t = *tls_;
  while (t.unsent() > 0) {
    const std::size_t n = socket_.write_some(asio::buffer(t.pending) + t.sent, ec);
    if (ec) return false;
    t.sent += n;
  }
  if (t.pending.capacity() > kKeepOutputBytes) {
    std::string().swap(t.pending);
  } else {
    t.pending.clear();
  }
  t.sent = 0;
  return true;
}

asio::awaitable<error_code> Stream::flush() {
  if (!tls_) co_return error_code{};
  Tls& t = *tls_;
  while (t.unsent() > 0) {
    // The bytes in flight leave pending, so that records made meanwhile (a
    // read's alert) are added behind them, never under the write.
    std::string sending = std::move(t.pending);
    const std::size_t from = std::exchange(t.sent, 0);
    t.pending.clear();
    t.in_flight = sending.size() - from;
    t.flushing = true;
    auto [ec, n] = co_await asio::async_write(socket_, asio::buffer(sending) + from, use_tuple);
    t.flushing = false;
    t.in_flight = 0;
    if (ec) co_return ec;
    if (t.pending.empty() && sending.capacity() <= kKeepOutputBytes) {
      sending.clear();
      t.pending.swap(sending);  // keeps the allocation
    }
  }
  co_return error_code{};
}

}  // namespace ttt::tls
