// WebSocketFrameScanner: where each frame a WebSocket client sends begins,
// found in the bytes as they arrive (RFC 6455, section 5.2), so that every
// frame counts against a connection's message rate: each fragment of a
// message, empty ones too, and pings, pongs and closes. It holds no payload
// and checks nothing: Beast reads the same bytes and refuses what is wrong.
// One connection's reader only: not thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace ttt::server {

class WebSocketFrameScanner {
 public:
  // A frame's opcode (0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong).
  using OnFrame = std::function<void(int opcode)>;

  // Follows the stream through `bytes` (the next ones the client sent),
  // calling on_frame once for each frame whose header they complete.
  void scan(std::span<const std::uint8_t> bytes, const OnFrame& on_frame);

  // Frames whose header was seen, since the start.
  std::uint64_t frames() const noexcept { return frames_; }

 private:
  // The header's whole size, as far as its first two bytes tell.
  std::size_t header_size() const noexcept;
  std::uint64_t payload_size() const noexcept;

  std::array<std::uint8_t, 14> header_{};  // 2 + up to 8 bytes of length + 4 of mask
  std::size_t have_ = 0;                   // header bytes seen of the frame that begins
  std::uint64_t skip_ = 0;                 // payload bytes of the current frame still to come
  std::uint64_t frames_ = 0;
};

}  // namespace ttt::server
