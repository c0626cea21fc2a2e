// GameClocks alone: the move timeout or a Fischer clock, a move's charge
// and increment, a refused move taken back, a restored game's times, and
// the side to move running out.
#include "game/game_clocks.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;

wire::ClockSettings fischer(std::uint32_t initial_ms, std::uint32_t increment_ms) {
  wire::ClockSettings clock;
  clock.set_initial_ms(initial_ms);
  clock.set_increment_ms(increment_ms);
  return clock;
}

TEST(GameClocks, WithoutAFischerClockTheMoveTimeoutRuns) {
  boost::asio::io_context io;
  GameClocks clocks(io.get_executor(), {}, milliseconds(60'000), [] {});
  EXPECT_FALSE(clocks.fischer());
  EXPECT_FALSE(clocks.move_time_left());
  clocks.start_turn(Player::X);
  const auto left = clocks.move_time_left();
  ASSERT_TRUE(left);
  EXPECT_LE(*left, milliseconds(60'000));
  EXPECT_GT(*left, milliseconds(0));
  EXPECT_EQ(clocks.press(), milliseconds(0)) << "no time is kept per side";
  clocks.stop();
  EXPECT_FALSE(clocks.move_time_left());
}

TEST(GameClocks, AFischerMoveEarnsTheIncrementAndHasNoMoveTimeout) {
  boost::asio::io_context io;
  GameClocks clocks(io.get_executor(), fischer(60'000, 2'000), milliseconds(5'000), [] {});
  ASSERT_TRUE(clocks.fischer());
  EXPECT_EQ(clocks.initial(), milliseconds(60'000));
  EXPECT_EQ(clocks.increment(), milliseconds(2'000));
  clocks.start_turn(Player::X);
  EXPECT_FALSE(clocks.move_time_left());
  const auto left = clocks.press();
  EXPECT_GT(left, milliseconds(60'000)) << "charged far less than the 2 s it earned";
  EXPECT_LE(left, milliseconds(62'000));
  EXPECT_EQ(clocks.left(Player::X), left) << "stands while O's turn has not begun";
  EXPECT_EQ(clocks.left(Player::O), milliseconds(60'000));
}

TEST(GameClocks, ARefusedMoveIsTakenBackWithItsIncrement) {
  boost::asio::io_context io;
  GameClocks clocks(io.get_executor(), fischer(60'000, 2'000), milliseconds(0), [] {});
  clocks.start_turn(Player::X);
  clocks.press();
  clocks.take_back(Player::X);
  EXPECT_LE(clocks.left(Player::X), milliseconds(60'000)) << "the increment is gone again";
}

TEST(GameClocks, ARestoredGameKeepsItsTimesAndANewRoundStartsAfresh) {
  boost::asio::io_context io;
  GameClocks clocks(io.get_executor(), fischer(60'000, 0), milliseconds(0), [] {});
  clocks.restore({milliseconds(12'000), milliseconds(34'000)});
  EXPECT_EQ(clocks.left(Player::X), milliseconds(12'000));
  EXPECT_EQ(clocks.left(Player::O), milliseconds(34'000));
  clocks.reset();
  EXPECT_EQ(clocks.left(Player::X), milliseconds(60'000));

  GameClocks plain(io.get_executor(), {}, milliseconds(1'000), [] {});
  plain.restore({milliseconds(12'000), milliseconds(34'000)});  // nothing to restore
  EXPECT_EQ(plain.left(Player::X), milliseconds(0));
}

TEST(GameClocks, TellsWhenTheSideToMoveRunsOut) {
  boost::asio::io_context io;
  int expired = 0;
  GameClocks clocks(io.get_executor(), fischer(1, 0), milliseconds(0), [&] { ++expired; });
  clocks.start_turn(Player::O);
  for (int i = 0; i < 100 && expired == 0; ++i) io.run_one_for(std::chrono::milliseconds(50));
  EXPECT_EQ(expired, 1);
}

TEST(GameClocks, AStoppedClockNeverFires) {
  boost::asio::io_context io;
  int expired = 0;
  GameClocks clocks(io.get_executor(), {}, milliseconds(1), [&] { ++expired; });
  clocks.start_turn(Player::X);
  clocks.stop();
  // Returns once no work is left: a clock still running would have run out
  // (1 ms) by then, however slow the machine.
  io.run_for(std::chrono::milliseconds(5'000));
  EXPECT_EQ(expired, 0);
}

}  // namespace
}  // namespace ttt::server
