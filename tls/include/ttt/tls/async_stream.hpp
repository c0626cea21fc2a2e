// AsyncStream: a Stream (plain TCP or TLS) as Asio's AsyncReadStream and
// AsyncWriteStream, for Boost.Beast's HTTP and WebSocket on the server's one
// port and in the load tool. Reads try the socket at once unless the last
// read drained it (then they wait until it is readable, as the sessions
// do); writes hand TLS its records and finish sending them before they
// complete. An operation that finishes without waiting completes through
// a post, never inside the call that started it.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/role.hpp>
#include <cstddef>
#include <span>
#include <utility>

#include "ttt/tls/stream.hpp"

namespace ttt::tls {

class AsyncStream {
 public:
  using executor_type = boost::asio::any_io_executor;

  explicit AsyncStream(Stream stream) : stream_(std::move(stream)) {}
  AsyncStream(AsyncStream&&) noexcept = default;
  AsyncStream& operator=(AsyncStream&&) noexcept = default;

  executor_type get_executor() noexcept { return stream_.socket().get_executor(); }
  Stream& stream() noexcept { return stream_; }
  boost::asio::ip::tcp::socket& socket() noexcept { return stream_.socket(); }

  // Ends both directions and closes the socket (pending operations fail).
  void close() noexcept {
    boost::system::error_code ignored;
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  template <typename MutableBuffers, typename Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        ReadOp{this, first_of<boost::asio::mutable_buffer>(buffers)}, token, stream_.socket());
  }

  template <typename ConstBuffers, typename Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    WriteOp op{this};
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers) && op.count < WriteOp::kMaxBuffers; ++it) {
      const boost::asio::const_buffer buffer(*it);
      if (buffer.size() > 0) op.buffers[op.count++] = buffer;
    }
    return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        std::move(op), token, stream_.socket());
  }

 private:
  template <typename Buffer, typename Buffers>
  static Buffer first_of(const Buffers& buffers) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      const Buffer buffer(*it);
      if (buffer.size() > 0) return buffer;
    }
    return Buffer();
  }

  static bool would_block(const boost::system::error_code& ec) noexcept {
    return ec == boost::asio::error::would_block || ec == boost::asio::error::try_again;
  }

  struct ReadOp {
    AsyncStream* owner;
    boost::asio::mutable_buffer buffer;
    enum class Step { kStart, kWaited, kPosted } step = Step::kStart;
    boost::system::error_code result_ec{};
    std::size_t result_n = 0;

    template <typename Self>
    void operator()(Self& self, boost::system::error_code ec = {}) {
      Stream& s = owner->stream_;
      if (step == Step::kPosted) {
        self.complete(result_ec, result_n);
        return;
      }
      if (ec) {
        self.complete(ec, 0);
        return;
      }
      if (step == Step::kStart && owner->drained_ && !s.holds_input() && buffer.size() > 0) {
        step = Step::kWaited;
        s.socket().async_wait(boost::asio::ip::tcp::socket::wait_read, std::move(self));
        return;
      }
      std::size_t n = 0;
      if (buffer.size() > 0) n = s.read_now(buffer, ec);
      if (would_block(ec)) {
        owner->drained_ = true;
        step = Step::kWaited;
        s.socket().async_wait(boost::asio::ip::tcp::socket::wait_read, std::move(self));
        return;
      }
      owner->drained_ = !ec && n < buffer.size() && !s.holds_input();
      if (step == Step::kWaited) {
        self.complete(ec, n);
        return;
      }
      // Finished without a wait: complete from the executor's queue.
      step = Step::kPosted;
      result_ec = ec;
      result_n = n;
      boost::asio::post(s.socket().get_executor(), std::move(self));
    }
  };

  struct WriteOp {
    static constexpr std::size_t kMaxBuffers = 8;
    AsyncStream* owner;
    boost::asio::const_buffer buffers[kMaxBuffers]{};
    std::size_t count = 0;
    std::size_t written = 0;  // plain TCP: bytes the socket took
    enum class Step { kStart, kWaited, kPosted } step = Step::kStart;
    boost::system::error_code result_ec{};

    template <typename Self>
    void operator()(Self& self, boost::system::error_code ec = {}) {
      Stream& s = owner->stream_;
      if (step == Step::kPosted) {
        self.complete(result_ec, result_ec ? 0 : total());
        return;
      }
      if (ec) {
        self.complete(ec, 0);
        return;
      }
      if (s.is_tls()) {
        // The first call makes every byte a record; then the records go out.
        if (step == Step::kStart && count > 0) s.encrypt({buffers, count}, ec);
        if (!ec) s.flush_now(ec);
      } else if (step != Step::kStart || count > 0) {
        // Plain TCP: one write of what the socket takes now (write_some's
        // contract: a part is fine).
        written = s.write_now({buffers, count}, ec);
        if (!ec && written == 0 && total() > 0) ec = boost::asio::error::would_block;
      }
      if (would_block(ec)) {
        step = Step::kWaited;
        s.socket().async_wait(boost::asio::ip::tcp::socket::wait_write, std::move(self));
        return;
      }
      const std::size_t n = ec ? 0 : (s.is_tls() ? total() : written);
      if (step == Step::kWaited) {
        self.complete(ec, n);
        return;
      }
      step = Step::kPosted;
      result_ec = ec;
      if (!s.is_tls()) {
        // What a plain write took: remembered through the post.
        count = 1;
        buffers[0] = boost::asio::const_buffer(nullptr, n);
      }
      boost::asio::post(s.socket().get_executor(), std::move(self));
    }

    std::size_t total() const noexcept {
      std::size_t bytes = 0;
      for (std::size_t i = 0; i < count; ++i) bytes += buffers[i].size();
      return bytes;
    }
  };

  Stream stream_;
  bool drained_ = false;  // the last read found the socket empty: wait first
};

// Beast's WebSocket closes its next layer through these (found by ADL).
inline void beast_close_socket(AsyncStream& stream) { stream.close(); }

inline void teardown(boost::beast::role_type, AsyncStream& stream, boost::system::error_code& ec) {
  ec = {};
  stream.close();
}

template <typename Handler>
void async_teardown(boost::beast::role_type, AsyncStream& stream, Handler&& handler) {
  stream.close();
  boost::asio::post(stream.get_executor(), [h = std::forward<Handler>(handler)]() mutable {
    h(boost::system::error_code{});
  });
}

}  // namespace ttt::tls
