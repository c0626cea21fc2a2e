#include "net/websocket_frame_scanner.hpp"

#include <algorithm>

namespace ttt::server {

void WebSocketFrameScanner::scan(std::span<const std::uint8_t> bytes, const OnFrame& on_frame) {
  while (!bytes.empty()) {
    if (skip_ > 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, bytes.size()));
      skip_ -= n;
      bytes = bytes.subspan(n);
      continue;
    }
    header_[have_++] = bytes.front();
    bytes = bytes.subspan(1);
    if (have_ < header_size()) continue;
    ++frames_;
    skip_ = payload_size();
    have_ = 0;
    on_frame(header_[0] & 0x0F);
  }
}

std::size_t WebSocketFrameScanner::header_size() const noexcept {
  if (have_ < 2) return 2;
  const int length = header_[1] & 0x7F;
  const std::size_t extended = length == 126 ? 2 : length == 127 ? 8 : 0;
  const std::size_t mask = (header_[1] & 0x80) != 0 ? 4 : 0;
  return 2 + extended + mask;
}

std::uint64_t WebSocketFrameScanner::payload_size() const noexcept {
  const int length = header_[1] & 0x7F;
  if (length < 126) return static_cast<std::uint64_t>(length);
  const std::size_t bytes = length == 126 ? 2 : 8;
  std::uint64_t size = 0;
  for (std::size_t i = 0; i < bytes; ++i) size = (size << 8) | header_[2 + i];
  return size;
}

}  // namespace ttt::server
