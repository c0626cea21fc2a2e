// CurrentGame: the game the console client sits in or watches, and the
// player's place in it.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/current_game.hpp"

namespace ttt::client {
namespace {

using testing::game_in_progress;
using testing::joined;

const auto kNow = std::chrono::steady_clock::now();

TEST(CurrentGame, ASeatedPlayerKnowsItsSideAndTurn) {
  CurrentGame game;
  game.set_player(1);
  game.join(joined(game_in_progress(), wire::SIDE_X), kNow);
  EXPECT_EQ(game.side(), wire::SIDE_X);
  EXPECT_EQ(game.viewpoint(), wire::SIDE_X);
  EXPECT_TRUE(game.seated());
  EXPECT_TRUE(game.my_turn());
  EXPECT_TRUE(game.holds_seat());
  EXPECT_TRUE(game.in_progress());
  EXPECT_EQ(game.received_at(), kNow);

  game.set_player(2);  // the other seat: not its turn
  EXPECT_EQ(game.side(), wire::SIDE_O);
  EXPECT_FALSE(game.my_turn());
  EXPECT_TRUE(game.holds_seat());
}

TEST(CurrentGame, AWatcherHoldsNoSeat) {
  CurrentGame game;
  game.set_player(9);
  game.join(joined(game_in_progress(), wire::SIDE_SPECTATOR), kNow);
  EXPECT_TRUE(game.watching());
  EXPECT_EQ(game.viewpoint(), wire::SIDE_SPECTATOR);
  EXPECT_FALSE(game.seated());
  EXPECT_FALSE(game.my_turn());
  EXPECT_FALSE(game.holds_seat());
  EXPECT_TRUE(game.in_progress());
}

TEST(CurrentGame, AFinishedGameHoldsNoSeat) {
  CurrentGame game;
  game.set_player(1);
  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  game.join(joined(over, wire::SIDE_X), kNow);
  EXPECT_TRUE(game.seated());
  EXPECT_FALSE(game.in_progress());
  EXPECT_FALSE(game.holds_seat());
  EXPECT_FALSE(game.my_turn());
}

TEST(CurrentGame, AnUpdateReturnsTheStateItReplaces) {
  CurrentGame game;
  game.set_player(1);
  game.join(joined(game_in_progress(), wire::SIDE_X), kNow);
  const auto later = kNow + std::chrono::seconds(1);
  const auto before = game.update(testing::after_move(game_in_progress(), 4), later);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->move_count(), 0u);
  EXPECT_EQ(game.state()->move_count(), 1u);
  EXPECT_EQ(game.received_at(), later);
  EXPECT_FALSE(game.my_turn());
}

TEST(CurrentGame, AStateOfAnotherGameIsNotKept) {
  CurrentGame game;
  game.set_player(1);
  EXPECT_FALSE(game.update(game_in_progress(), kNow).has_value()) << "no game yet";
  game.join(joined(game_in_progress(), wire::SIDE_X), kNow);
  wire::GameState other = testing::after_move(game_in_progress(), 0);
  other.set_game_id(5);
  EXPECT_FALSE(game.update(other, kNow).has_value());
  EXPECT_EQ(game.state()->game_id(), 4u);
  EXPECT_EQ(game.state()->move_count(), 0u);
}

TEST(CurrentGame, TheSpectatorCountIsKeptWhenItChangesThisGame) {
  CurrentGame game;
  wire::SpectatorCount count;
  count.set_game_id(4);
  count.set_spectators(2);
  EXPECT_FALSE(game.set_spectators(count)) << "no game";
  game.join(joined(game_in_progress(), wire::SIDE_X), kNow);
  EXPECT_TRUE(game.set_spectators(count));
  EXPECT_EQ(game.state()->spectators(), 2u);
  EXPECT_FALSE(game.set_spectators(count)) << "unchanged";
  count.set_game_id(5);
  count.set_spectators(7);
  EXPECT_FALSE(game.set_spectators(count)) << "another game's";
  EXPECT_EQ(game.state()->spectators(), 2u);
}

TEST(CurrentGame, ClearedThereIsNoGame) {
  CurrentGame game;
  game.set_player(1);
  game.join(joined(game_in_progress(), wire::SIDE_SPECTATOR), kNow);
  game.clear();
  EXPECT_EQ(game.state(), nullptr);
  EXPECT_FALSE(game.watching());
  EXPECT_EQ(game.side(), wire::SIDE_NONE);
  EXPECT_FALSE(game.in_progress());
}

}  // namespace
}  // namespace ttt::client
