// GameEntry: the request for a game in each of the bot's modes, and asking
// again while nodes refuse, for up to the retry period.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "bot/game_entry.hpp"

namespace ttt::client {
namespace {

TEST(GameEntry, EachModeAsksForItsGame) {
  boost::asio::io_context io;
  BotOptions options;
  options.size = 15;
  options.win_length = 5;
  options.rated = true;
  options.clock_initial_ms = 180'000;
  options.clock_increment_ms = 2'000;
  GameEntry entry(io.get_executor(), "bot", options);
  EXPECT_FALSE(entry.asked());

  options.mode = BotMode::QuickMatch;
  auto m = entry.request();
  ASSERT_TRUE(m && m->has_quick_match());
  EXPECT_TRUE(entry.asked());
  EXPECT_EQ(m->quick_match().size(), 15);
  EXPECT_EQ(m->quick_match().win_length(), 5);
  EXPECT_EQ(m->quick_match().rated(), wire::RATED_YES);
  EXPECT_EQ(m->quick_match().clock().initial_ms(), 180'000u);
  EXPECT_EQ(m->quick_match().clock().increment_ms(), 2'000u);

  options.mode = BotMode::Create;
  options.rated = false;
  m = entry.request();
  ASSERT_TRUE(m && m->has_create_game());
  EXPECT_EQ(m->create_game().size(), 15);
  EXPECT_EQ(m->create_game().rated(), wire::RATED_DEFAULT) << "a program's games: the default";

  options.mode = BotMode::Join;
  options.game_id = 42;
  options.invite_code = "k3y";
  m = entry.request();
  ASSERT_TRUE(m && m->has_join_game());
  EXPECT_EQ(m->join_game().game_id(), 42u);
  EXPECT_EQ(m->join_game().invite_code(), "k3y");

  options.mode = BotMode::Challenge;
  options.opponent = "alice";
  m = entry.request();
  ASSERT_TRUE(m && m->has_challenge());
  EXPECT_EQ(m->challenge().name(), "alice");
  EXPECT_EQ(m->challenge().clock().initial_ms(), 180'000u);

  options.mode = BotMode::AcceptChallenges;
  EXPECT_FALSE(entry.request().has_value()) << "the challenges come";
}

TEST(GameEntry, ARefusedEntryIsAskedForAgainAfterAPause) {
  boost::asio::io_context io;
  BotOptions options;
  options.connection.retry = std::chrono::hours(1);
  options.enter_retry = std::chrono::milliseconds(0);
  GameEntry entry(io.get_executor(), "bot", options);
  int asked = 0;
  EXPECT_TRUE(entry.ask_again_later([&] { ++asked; }));
  EXPECT_EQ(asked, 0) << "after the pause, not at once";
  io.run();
  EXPECT_EQ(asked, 1);
}

TEST(GameEntry, RefusalsLongerThanTheRetryPeriodAreTheBotsError) {
  boost::asio::io_context io;
  BotOptions options;
  options.connection.retry = std::chrono::milliseconds(0);
  GameEntry entry(io.get_executor(), "bot", options);
  int asked = 0;
  EXPECT_FALSE(entry.ask_again_later([&] { ++asked; }));
  io.run();
  EXPECT_EQ(asked, 0);
}

TEST(GameEntry, StoppedItAsksNoMore) {
  boost::asio::io_context io;
  BotOptions options;
  options.connection.retry = std::chrono::hours(1);
  options.enter_retry = std::chrono::hours(1);
  GameEntry entry(io.get_executor(), "bot", options);
  int asked = 0;
  EXPECT_TRUE(entry.ask_again_later([&] { ++asked; }));
  entry.stop();
  io.run();
  EXPECT_EQ(asked, 0);
}

}  // namespace
}  // namespace ttt::client
