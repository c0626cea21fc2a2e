// The scanner that finds each WebSocket frame a client sends, so that every
// frame counts against the message rate: frames of every size and kind,
// split anywhere across reads, and empty fragments.
#include "net/websocket_frame_scanner.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ttt::server {
namespace {

// A masked client frame (the mask's bytes need not be random here).
std::vector<std::uint8_t> frame(int opcode, std::size_t payload, bool fin = true) {
  std::vector<std::uint8_t> f{static_cast<std::uint8_t>((fin ? 0x80 : 0) | opcode)};
  if (payload < 126) {
    f.push_back(static_cast<std::uint8_t>(0x80 | payload));
  } else if (payload < 65536) {
    f.insert(f.end(), {0x80 | 126, static_cast<std::uint8_t>(payload >> 8),
                       static_cast<std::uint8_t>(payload)});
  } else {
    f.push_back(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) {
      f.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(payload) >> shift));
    }
  }
  f.insert(f.end(), {1, 2, 3, 4});
  f.insert(f.end(), payload, 0xAA);
  return f;
}

TEST(WebSocketFrameScanner, FindsEveryFrameHoweverTheBytesAreSplit) {
  std::vector<std::uint8_t> stream;
  std::vector<int> sent;
  auto add = [&](int opcode, std::size_t payload, bool fin) {
    const auto f = frame(opcode, payload, fin);
    stream.insert(stream.end(), f.begin(), f.end());
    sent.push_back(opcode);
  };
  add(2, 5, false);     // a message in fragments
  add(0, 0, false);     // an empty fragment
  add(0, 300, false);   // a 16-bit length
  add(9, 4, true);      // a ping between fragments
  add(0, 70000, true);  // a 64-bit length, the message's end
  add(10, 0, true);     // a pong
  add(8, 2, true);      // a close
  for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{7}, stream.size()}) {
    SCOPED_TRACE(chunk);
    WebSocketFrameScanner scanner;
    std::vector<int> seen;
    for (std::size_t at = 0; at < stream.size(); at += chunk) {
      const std::size_t n = std::min(chunk, stream.size() - at);
      scanner.scan({stream.data() + at, n}, [&](int opcode) { seen.push_back(opcode); });
    }
    EXPECT_EQ(seen, sent);
    EXPECT_EQ(scanner.frames(), sent.size());
  }
}

TEST(WebSocketFrameScanner, AFloodOfEmptyFragmentsIsAFloodOfFrames) {
  // Each is 6 bytes on the wire and adds nothing to the message: Beast reads
  // past them without a word, the scanner counts each.
  std::vector<std::uint8_t> stream = frame(2, 0, false);
  for (int i = 0; i < 999; ++i) {
    const auto f = frame(0, 0, false);
    stream.insert(stream.end(), f.begin(), f.end());
  }
  WebSocketFrameScanner scanner;
  int frames = 0;
  scanner.scan(stream, [&](int) { ++frames; });
  EXPECT_EQ(frames, 1000);
}

}  // namespace
}  // namespace ttt::server
