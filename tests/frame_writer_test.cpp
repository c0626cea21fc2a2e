// FrameWriter alone: its bounds, writes that take all or part of what
// waits, a write in flight, and what a slow consumer keeps.
#include "net/frame_writer.hpp"

#include <gtest/gtest.h>

#include <boost/asio/buffer.hpp>
#include <memory>
#include <string>

namespace ttt::server {
namespace {

FrameWriter::Frame frame(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

// The bytes a list of buffers holds, in order.
std::string joined(const std::vector<boost::asio::const_buffer>& buffers) {
  std::string out;
  for (const auto& b : buffers) out.append(static_cast<const char*>(b.data()), b.size());
  return out;
}

TEST(FrameWriter, RefusesAFrameBeyondItsBytesOrFrames) {
  FrameWriter writer(10, 2);
  EXPECT_TRUE(writer.fits(10));
  EXPECT_FALSE(writer.fits(11));
  writer.push(frame("abcd"));
  EXPECT_TRUE(writer.fits(6));
  EXPECT_FALSE(writer.fits(6, 1));  // bytes held elsewhere count too
  writer.push(frame("ef"));
  EXPECT_FALSE(writer.fits(1));  // two frames wait: the most it takes
  EXPECT_EQ(writer.frames(), 2u);
  EXPECT_EQ(writer.bytes(), 6u);
}

TEST(FrameWriter, KeepsWhatAWriteDidNotTakeAtTheFront) {
  FrameWriter writer(100, 10);
  writer.push(frame("hello"));
  writer.push(frame("world"));
  EXPECT_EQ(joined(writer.gather(10)), "helloworld");
  writer.consume(7);  // "hello" and "wo"
  EXPECT_EQ(writer.frames(), 1u);
  EXPECT_EQ(writer.bytes(), 3u);
  EXPECT_EQ(joined(writer.gather(10)), "rld");
  writer.consume(3);
  EXPECT_TRUE(writer.empty());
  EXPECT_EQ(writer.bytes(), 0u);
}

TEST(FrameWriter, GathersAtMostTheFramesAskedFor) {
  FrameWriter writer(100, 10);
  for (const char* text : {"a", "b", "c"}) writer.push(frame(text));
  EXPECT_EQ(joined(writer.gather(2)), "ab");
}

TEST(FrameWriter, QueuesTheRestOfAFrameWrittenInPart) {
  FrameWriter writer(100, 10);
  writer.push(frame("abcdef"), 4);
  EXPECT_EQ(writer.bytes(), 2u);
  EXPECT_EQ(joined(writer.gather(10)), "ef");
}

TEST(FrameWriter, CountsAWriteInFlightUntilItEnds) {
  FrameWriter writer(100, 10);
  writer.push(frame("abc"));
  writer.push(frame("de"));
  EXPECT_EQ(joined(writer.begin_write(10)), "abcde");
  EXPECT_TRUE(writer.empty());    // nothing waits...
  EXPECT_EQ(writer.bytes(), 5u);  // ...but the bytes are not out yet
  writer.push(frame("f"));
  writer.end_write();
  EXPECT_EQ(writer.bytes(), 1u);
  EXPECT_EQ(writer.frames(), 1u);
}

TEST(FrameWriter, SkipsTheHeadOfEveryFrameButCountsIt) {
  FrameWriter writer(100, 10, 2);
  writer.push(frame("..abc"));
  writer.push(frame("..de"));
  EXPECT_EQ(joined(writer.begin_write(1)), "abc");
  EXPECT_EQ(writer.bytes(), 9u);
  writer.end_write();
  EXPECT_EQ(writer.bytes(), 4u);
  EXPECT_EQ(joined(writer.begin_write(1)), "de");
  writer.end_write();
  EXPECT_EQ(writer.bytes(), 0u);
}

TEST(FrameWriter, ASlowConsumerKeepsOnlyAFrameBegun) {
  FrameWriter writer(100, 10);
  writer.push(frame("abcdef"), 2);
  writer.push(frame("gh"));
  writer.drop_waiting();
  EXPECT_EQ(writer.frames(), 1u);
  EXPECT_EQ(joined(writer.gather(10)), "cdef");
  EXPECT_EQ(writer.bytes(), 4u);

  FrameWriter untouched(100, 10);
  untouched.push(frame("abc"));
  untouched.drop_waiting();
  EXPECT_TRUE(untouched.empty());
  EXPECT_EQ(untouched.bytes(), 0u);
}

TEST(FrameWriter, DroppingWhileAWriteIsInFlightLeavesNothingCounted) {
  FrameWriter writer(100, 10);
  writer.push(frame("abc"));
  writer.begin_write(10);
  writer.push(frame("de"));
  writer.drop_waiting();
  writer.end_write();
  EXPECT_EQ(writer.bytes(), 0u);
}

TEST(FrameWriter, PopsTheFirstFrameBackOut) {
  FrameWriter writer(100, 10);
  writer.push(frame("abc"));
  auto first = writer.pop_front();
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, "abc");
  EXPECT_EQ(writer.bytes(), 0u);
  EXPECT_EQ(writer.pop_front(), nullptr);
}

}  // namespace
}  // namespace ttt::server
