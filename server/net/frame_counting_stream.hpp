// FrameCountingStream: the next layer of a WebSession's WebSocket: a
// tls::AsyncStream whose reads also go through a WebSocketFrameScanner, so
// the session hears of every frame the client sends as its bytes arrive,
// before Beast handles it (Beast itself tells of no data frame and skips
// empty fragments without a word). Writes, closing and teardown are the
// AsyncStream's.
#pragma once

#include <boost/asio/async_result.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/beast/core/role.hpp>
#include <cstdint>
#include <span>
#include <utility>

#include "net/websocket_frame_scanner.hpp"
#include "ttt/tls/async_stream.hpp"

namespace ttt::server {

class FrameCountingStream {
 public:
  using executor_type = tls::AsyncStream::executor_type;

  // on_frame is called on the stream's executor, inside a read's completion.
  FrameCountingStream(tls::AsyncStream stream, WebSocketFrameScanner::OnFrame on_frame)
      : next_(std::move(stream)), on_frame_(std::move(on_frame)) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  tls::AsyncStream& next_layer() noexcept { return next_; }
  void close() noexcept { next_.close(); }

  template <typename MutableBuffers, typename Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        ReadOp<MutableBuffers>{this, buffers}, token, next_.socket());
  }

  template <typename ConstBuffers, typename Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    return next_.async_write_some(buffers, std::forward<Token>(token));
  }

 private:
  template <typename MutableBuffers>
  struct ReadOp {
    FrameCountingStream* owner;
    MutableBuffers buffers;
    bool started = false;

    template <typename Self>
    void operator()(Self& self, boost::system::error_code ec = {}, std::size_t n = 0) {
      if (!started) {
        started = true;
        owner->next_.async_read_some(buffers, std::move(self));
        return;
      }
      owner->scan(buffers, n);
      self.complete(ec, n);
    }
  };

  // The first n bytes read into buffers, through the scanner.
  template <typename MutableBuffers>
  void scan(const MutableBuffers& buffers, std::size_t n) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         n > 0 && it != boost::asio::buffer_sequence_end(buffers); ++it) {
      const boost::asio::mutable_buffer buffer(*it);
      const std::size_t used = std::min(n, buffer.size());
      scanner_.scan({static_cast<const std::uint8_t*>(buffer.data()), used}, on_frame_);
      n -= used;
    }
  }

  tls::AsyncStream next_;
  WebSocketFrameScanner scanner_;
  WebSocketFrameScanner::OnFrame on_frame_;
};

// Beast's WebSocket closes its next layer through these (found by ADL).
inline void teardown(boost::beast::role_type role, FrameCountingStream& stream,
                     boost::system::error_code& ec) {
  teardown(role, stream.next_layer(), ec);
}

template <typename Handler>
void async_teardown(boost::beast::role_type role, FrameCountingStream& stream, Handler&& handler) {
  async_teardown(role, stream.next_layer(), std::forward<Handler>(handler));
}

}  // namespace ttt::server
