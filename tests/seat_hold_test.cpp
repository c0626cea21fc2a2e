// SeatHold alone: a hold runs out once, a released one never, and a hold
// taken anew replaces the one before.
#include "game/seat_hold.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;

// Runs io until `expired` is set or the bound passes.
void run_until(boost::asio::io_context& io, const int& expired) {
  for (int i = 0; i < 100 && expired == 0; ++i) io.run_one_for(milliseconds(50));
}

TEST(SeatHold, RunsOutOnceItsGraceHasPassed) {
  boost::asio::io_context io;
  SeatHold hold(io.get_executor());
  EXPECT_FALSE(hold.held());
  EXPECT_EQ(hold.ms_left(), 0u);
  int expired = 0;
  hold.hold(milliseconds(1), [&] { ++expired; });
  EXPECT_TRUE(hold.held());
  run_until(io, expired);
  EXPECT_EQ(expired, 1);
  EXPECT_TRUE(hold.held()) << "the room decides what running out means";
}

TEST(SeatHold, SaysTheTimeLeft) {
  boost::asio::io_context io;
  SeatHold hold(io.get_executor());
  hold.hold(milliseconds(60'000), [] {});
  EXPECT_GT(hold.ms_left(), 0u);
  EXPECT_LE(hold.ms_left(), 60'000u);
}

TEST(SeatHold, AReleasedHoldNeverRunsOutEvenWhenItWasDue) {
  boost::asio::io_context io;
  SeatHold hold(io.get_executor());
  int expired = 0;
  hold.hold(milliseconds(0), [&] { ++expired; });
  hold.release();
  // Returns once no work is left (the cancelled timer's handler run): a hold
  // still due would have fired by then, however slow the machine.
  io.run_for(milliseconds(5'000));
  EXPECT_EQ(expired, 0);
  EXPECT_FALSE(hold.held());
}

TEST(SeatHold, AHoldTakenAnewReplacesTheOneBefore) {
  boost::asio::io_context io;
  SeatHold hold(io.get_executor());
  int first = 0;
  int second = 0;
  hold.hold(milliseconds(0), [&] { ++first; });
  hold.hold(milliseconds(1), [&] { ++second; });
  run_until(io, second);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(second, 1);
}

}  // namespace
}  // namespace ttt::server
