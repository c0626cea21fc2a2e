// The framing codec: encoding, incremental decoding across arbitrary splits,
// and the length cap enforced before any allocation.
#include "ttt/wire/frame.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace ttt::wire {
namespace {

// Feeds bytes into a reader in one piece.
void feed(FrameReader& reader, std::string_view bytes) {
  while (!bytes.empty()) {
    auto space = reader.prepare();
    const std::size_t n = std::min(space.size(), bytes.size());
    std::memcpy(space.data(), bytes.data(), n);
    reader.commit(n);
    bytes.remove_prefix(n);
  }
}

ClientMessage move_message(int row, int col) {
  ClientMessage m;
  m.set_request_id(7);
  m.mutable_make_move()->set_row(row);
  m.mutable_make_move()->set_col(col);
  return m;
}

TEST(Frame, HeaderIsBigEndianBodyLength) {
  const std::string frame = encode_frame(move_message(1, 2));
  ASSERT_GE(frame.size(), kFrameHeaderSize);
  EXPECT_EQ(read_frame_length(frame.data()), frame.size() - kFrameHeaderSize);
  EXPECT_EQ(frame[0], 0);
  EXPECT_EQ(frame[1], 0);
  EXPECT_EQ(read_frame_length("\x01\x02\x03\x04"), 0x01020304u);
  EXPECT_EQ(read_frame_length("\xff\xff\xff\xff"), 0xffffffffu);
}

TEST(Frame, RoundTripsAMessage) {
  FrameReader reader;
  feed(reader, encode_frame(move_message(3, 4)));
  std::string_view body;
  ASSERT_EQ(reader.next(body), FrameReader::Status::kFrame);
  ClientMessage decoded;
  ASSERT_TRUE(parse_body(body, decoded));
  EXPECT_EQ(decoded.make_move().row(), 3);
  EXPECT_EQ(decoded.make_move().col(), 4);
  EXPECT_EQ(decoded.request_id(), 7u);
  EXPECT_EQ(reader.next(body), FrameReader::Status::kNeedMore);
}

TEST(Frame, EmptyMessageIsAZeroLengthFrame) {
  FrameReader reader;
  feed(reader, encode_frame(ClientMessage()));
  std::string_view body = "x";
  ASSERT_EQ(reader.next(body), FrameReader::Status::kFrame);
  EXPECT_TRUE(body.empty());
}

TEST(Frame, DecodesFramesSplitAtEveryPossibleByte) {
  std::string stream;
  for (int i = 0; i < 20; ++i) append_frame(move_message(i, i + 1), stream);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    FrameReader reader;
    int decoded = 0;
    std::size_t offset = 0;
    while (offset < stream.size()) {
      const std::size_t chunk = std::min<std::size_t>(1 + rng() % 17, stream.size() - offset);
      feed(reader, std::string_view(stream).substr(offset, chunk));
      offset += chunk;
      std::string_view body;
      while (reader.next(body) == FrameReader::Status::kFrame) {
        ClientMessage m;
        ASSERT_TRUE(parse_body(body, m));
        ASSERT_EQ(m.make_move().row(), decoded);
        ++decoded;
      }
    }
    EXPECT_EQ(decoded, 20);
    EXPECT_EQ(reader.buffered(), 0u);
  }
}

TEST(Frame, LengthOverTheCapIsRefusedWithoutAllocating) {
  FrameReader reader(1024);
  feed(reader, std::string("\xff\xff\xff\xff", 4));
  std::string_view body;
  EXPECT_EQ(reader.next(body), FrameReader::Status::kTooLarge);
  EXPECT_EQ(reader.declared_length(), 0xffffffffu);
  EXPECT_LT(reader.capacity(), 4096u);
  (void)reader.prepare();  // asking for space again must not grow towards 4 GiB
  EXPECT_LT(reader.capacity(), 4096u);
}

TEST(Frame, LengthExactlyAtTheCapIsAccepted) {
  FrameReader reader(1024);
  std::string frame = std::string("\x00\x00\x04\x00", 4) + std::string(1024, 'a');
  feed(reader, frame);
  std::string_view body;
  ASSERT_EQ(reader.next(body), FrameReader::Status::kFrame);
  EXPECT_EQ(body.size(), 1024u);
}

TEST(Frame, GarbageBodyDoesNotParse) {
  ClientMessage m;
  EXPECT_FALSE(parse_body(std::string_view("\xff\xff\xff\xff", 4), m));
}

TEST(Frame, MemoryShrinksBackAfterALargeFrame) {
  FrameReader reader(1 << 20);
  ServerMessage big;
  big.mutable_error()->set_text(std::string(500'000, 'x'));
  feed(reader, encode_frame(big));
  std::string_view body;
  ASSERT_EQ(reader.next(body), FrameReader::Status::kFrame);
  EXPECT_GE(reader.capacity(), 500'000u);
  (void)reader.prepare();
  EXPECT_LT(reader.capacity(), 4096u);
}

}  // namespace
}  // namespace ttt::wire
