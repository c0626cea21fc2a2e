// GameSeries: each round's result is counted once, an aborted game is an
// error, and after each game comes the end, a new opponent or a rematch
// waited for.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "bot/game_series.hpp"
#include "client_support/game_states.hpp"

namespace ttt::client {
namespace {

using ttt::testing::game_in_progress;

wire::GameState finished(wire::GameStatus status, std::uint32_t round = 1) {
  wire::GameState state = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  state.set_status(status);
  state.set_end_reason(wire::END_REASON_LINE);
  state.set_round(round);
  return state;
}

TEST(GameSeries, EachRoundIsCountedOnce) {
  boost::asio::io_context io;
  GameSeries series(io.get_executor(), "bot", 0, BotMode::Create);
  EXPECT_FALSE(series.round_over(game_in_progress(), wire::SIDE_X)) << "not over";
  EXPECT_TRUE(series.round_over(finished(wire::GAME_STATUS_X_WON), wire::SIDE_X));
  EXPECT_FALSE(series.round_over(finished(wire::GAME_STATUS_X_WON), wire::SIDE_X)) << "again";
  EXPECT_TRUE(series.round_over(finished(wire::GAME_STATUS_X_WON, 2), wire::SIDE_O));
  EXPECT_TRUE(series.round_over(finished(wire::GAME_STATUS_DRAW, 3), wire::SIDE_O));
  const BotTally& tally = series.tally();
  EXPECT_EQ(tally.games, 3);
  EXPECT_EQ(tally.wins, 1);
  EXPECT_EQ(tally.losses, 1);
  EXPECT_EQ(tally.draws, 1);
  EXPECT_EQ(tally.errors, 0);
}

TEST(GameSeries, ARoundLearntAfterwardsIsCountedOnceLikeOneSeen) {
  boost::asio::io_context io;
  GameSeries series(io.get_executor(), "bot", 0, BotMode::Create);
  const RoundKey round{7, 2};
  EXPECT_TRUE(
      series.round_over(round, wire::GAME_STATUS_O_WON, wire::END_REASON_DISCONNECT, wire::SIDE_O));
  EXPECT_FALSE(
      series.round_over(round, wire::GAME_STATUS_O_WON, wire::END_REASON_DISCONNECT, wire::SIDE_O))
      << "again";
  wire::GameState seen = finished(wire::GAME_STATUS_O_WON, 2);
  seen.set_game_id(7);
  EXPECT_FALSE(series.round_over(seen, wire::SIDE_O)) << "the same round, seen after all";
  EXPECT_EQ(series.tally().games, 1);
  EXPECT_EQ(series.tally().wins, 1);
  EXPECT_EQ(series.tally().errors, 0);
}

TEST(GameSeries, AnAbortedGameIsAnErrorNotAGame) {
  boost::asio::io_context io;
  GameSeries series(io.get_executor(), "bot", 0, BotMode::Create);
  wire::GameState aborted = finished(wire::GAME_STATUS_DRAW);
  aborted.set_end_reason(wire::END_REASON_ABORTED);
  EXPECT_TRUE(series.round_over(aborted, wire::SIDE_X));
  EXPECT_EQ(series.tally().games, 0);
  EXPECT_EQ(series.tally().errors, 1);
}

TEST(GameSeries, AfterAGameComesTheEndANewOpponentOrARematch) {
  boost::asio::io_context io;
  GameSeries two(io.get_executor(), "bot", 2, BotMode::Create);
  two.round_over(finished(wire::GAME_STATUS_X_WON), wire::SIDE_X);
  EXPECT_EQ(two.next(false), GameSeries::Next::Rematch);
  EXPECT_EQ(two.next(true), GameSeries::Next::Finish) << "stopping";
  two.round_over(finished(wire::GAME_STATUS_X_WON, 2), wire::SIDE_X);
  EXPECT_EQ(two.next(false), GameSeries::Next::Finish) << "two of two";

  GameSeries queue(io.get_executor(), "bot", 0, BotMode::QuickMatch);
  queue.round_over(finished(wire::GAME_STATUS_X_WON), wire::SIDE_X);
  EXPECT_EQ(queue.next(false), GameSeries::Next::NewOpponent) << "back to the queue";
  GameSeries challenged(io.get_executor(), "bot", 0, BotMode::AcceptChallenges);
  EXPECT_EQ(challenged.next(false), GameSeries::Next::NewOpponent) << "free for the next";
  GameSeries challenging(io.get_executor(), "bot", 0, BotMode::Challenge);
  EXPECT_EQ(challenging.next(false), GameSeries::Next::Rematch);
}

TEST(GameSeries, ARematchNotStartedInTimeMovesOn) {
  boost::asio::io_context io;
  GameSeries series(io.get_executor(), "bot", 0, BotMode::Create);
  int moved_on = 0;
  series.wait_for_rematch(std::chrono::milliseconds(0), [&] { ++moved_on; });
  io.run();
  EXPECT_EQ(moved_on, 1);

  io.restart();
  series.wait_for_rematch(std::chrono::milliseconds(0), [&] { ++moved_on; });
  series.rematch_settled();  // the rematch started
  io.run();
  EXPECT_EQ(moved_on, 1);
}

TEST(GameSeries, AResignedRoundIsALossCountedOnce) {
  boost::asio::io_context io;
  GameSeries series(io.get_executor(), "bot", 0, BotMode::Create);
  const wire::GameState playing = game_in_progress();
  series.count_resigned(round_key(playing));
  wire::GameState result = finished(wire::GAME_STATUS_O_WON);
  EXPECT_FALSE(series.round_over(result, wire::SIDE_X)) << "the result that follows is not news";
  EXPECT_EQ(series.tally().games, 1);
  EXPECT_EQ(series.tally().losses, 1);
}

TEST(BotTally, TalliesAddUp) {
  BotTally a{1, 1, 0, 0, 2, false};
  const BotTally b{3, 0, 2, 1, 0, true};
  a += b;
  EXPECT_EQ(a.games, 4);
  EXPECT_EQ(a.wins, 1);
  EXPECT_EQ(a.losses, 2);
  EXPECT_EQ(a.draws, 1);
  EXPECT_EQ(a.errors, 2);
  EXPECT_TRUE(a.connect_failed);
}

}  // namespace
}  // namespace ttt::client
