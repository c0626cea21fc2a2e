// GameClocks: the clocks run on in the prompt between the states the server
// sends, and a low clock on our turn is said once a turn, with a bell.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/game_clocks.hpp"

namespace ttt::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::after_move;
using testing::game_in_progress;
using testing::has;
using testing::joined;
using testing::Screen;

class GameClocksTest : public ::testing::Test {
 protected:
  GameClocksTest() { game_.set_player(1); }  // alice, X

  void play_as_x(const wire::GameState& state) { game_.join(joined(state, wire::SIDE_X), t0_); }

  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  Screen screen_{true, {24, 200}};  // wide: no line is wrapped
  CurrentGame game_;
  GameClocks clocks_{screen_.terminal(), game_};
};

TEST_F(GameClocksTest, WithoutAClockNothingRuns) {
  EXPECT_EQ(clocks_.prompt(t0_), "") << "no game";
  play_as_x(game_in_progress());
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(5)), "");
  EXPECT_FALSE(clocks_.my_time_left(t0_).has_value());
}

TEST_F(GameClocksTest, TheMoversMoveLimitRunsOn) {
  wire::GameState state = game_in_progress();
  state.set_move_time_left_ms(60'000);
  play_as_x(state);
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(8)), "X 52 s | ");
  EXPECT_EQ(clocks_.my_time_left(t0_ + seconds(8)), milliseconds(52'000));
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(90)), "X 0 s | ") << "it stops at zero";
}

TEST_F(GameClocksTest, BothFischerClocksShowOnlyTheMoversRuns) {
  wire::GameState state = game_in_progress();
  state.mutable_clock()->set_initial_ms(180'000);
  state.mutable_clock()->set_increment_ms(2'000);
  state.set_x_clock_ms(180'000);
  state.set_o_clock_ms(175'000);
  play_as_x(state);
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(2)), "X 2:58 O 2:55 | ");
  EXPECT_EQ(clocks_.my_time_left(t0_ + seconds(2)), milliseconds(178'000));
}

TEST_F(GameClocksTest, AnAwaySeatCountsDownInThePrompt) {
  wire::GameState state = game_in_progress();
  state.mutable_o()->set_connected(false);
  state.mutable_o()->set_away_ms_left(30'000);
  play_as_x(state);
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(5)), "O away 25 s | ");
}

TEST_F(GameClocksTest, OurTimeLeftIsOnlyOnOurTurn) {
  wire::GameState state = after_move(game_in_progress(), 4);  // O to move
  state.set_move_time_left_ms(60'000);
  play_as_x(state);
  EXPECT_FALSE(clocks_.my_time_left(t0_).has_value());
  EXPECT_EQ(clocks_.prompt(t0_ + seconds(1)), "O 59 s | ");
}

TEST_F(GameClocksTest, ALowClockIsSaidOnceATurnWithABell) {
  wire::GameState state = game_in_progress();
  state.set_move_time_left_ms(15'000);
  play_as_x(state);
  clocks_.warn(t0_ + seconds(2));
  EXPECT_EQ(screen_.take(), "") << "13 s left: not low yet";
  clocks_.warn(t0_ + seconds(6));
  const std::string said = screen_.take();
  EXPECT_TRUE(has(said, "\a")) << "a bell";
  EXPECT_TRUE(has(said, "9 s left to move: the game is lost when it runs out.")) << said;
  clocks_.warn(t0_ + seconds(8));
  EXPECT_EQ(screen_.take(), "") << "once a turn";

  wire::GameState next_turn = after_move(after_move(game_in_progress(), 4), 0);
  next_turn.set_move_time_left_ms(5'000);
  game_.update(next_turn, t0_ + seconds(10));
  clocks_.warn(t0_ + seconds(10));
  EXPECT_TRUE(has(screen_.take(), "5 s left to move")) << "a new turn is warned again";
}

TEST_F(GameClocksTest, OnAFischerClockTheWarningSaysSo) {
  wire::GameState state = game_in_progress();
  state.mutable_clock()->set_initial_ms(60'000);
  state.set_x_clock_ms(8'000);
  state.set_o_clock_ms(60'000);
  play_as_x(state);
  clocks_.warn(t0_);
  EXPECT_TRUE(has(screen_.take(), "8 s left on your clock: the game is lost when it runs out."));
}

}  // namespace
}  // namespace ttt::client
