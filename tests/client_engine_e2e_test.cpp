// Engines in ttt's lobby, end to end: ttt-bot --engine runs ttt-engine (or
// the scripted fake engine) as its brain against a ttt-bot of ttt's own AI on
// a real ttt-server; an engine that crashes makes its bot resign and stop
// with a clear error; an engine that can't play the win length asked stops
// the bot before it connects.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"

namespace ttt::testing {
namespace {

TEST(EngineBotE2E, AnOutsideEnginePlaysInTheLobbyThroughTheBridge) {
  ServerProcess server;
  TempDir config;
  auto engine = start_bot(server.port(), config,
                          {"--name", "engine", "--engine", bin_dir() + "/ttt-engine --level easy",
                           "--quick-match", "9", "--win", "5", "--budget", "100", "--games", "2"});
  auto ai = start_bot(server.port(), config,
                      {"--name", "ai", "--level", "medium", "--quick-match", "9", "--win", "5",
                       "--budget", "10", "--games", "2"});
  ASSERT_EQ(engine->wait_exit(30s), 0) << engine->output();
  ASSERT_EQ(ai->wait_exit(30s), 0) << ai->output();
  const auto e = last_line_summary(engine->output());
  const auto a = last_line_summary(ai->output());
  ASSERT_TRUE(e && a) << engine->output() << ai->output();
  EXPECT_EQ(e->games, 2);
  EXPECT_EQ(e->errors, 0);
  EXPECT_EQ(e->wins, a->losses);
  EXPECT_EQ(e->draws, a->draws);
}

TEST(EngineBotE2E, ACrashingEngineResignsItsGameAndTheBotStops) {
  ServerProcess server;
  TempDir config;
  const std::string command = bin_dir() + "/fake-engine --misbehave crash --at 2";
  auto engine = start_bot(server.port(), config,
                          {"--name", "crasher", "--engine", command, "--quick-match", "9", "--win",
                           "5", "--budget", "100", "--games", "3"});
  auto ai = start_bot(server.port(), config,
                      {"--name", "ai", "--level", "easy", "--quick-match", "9", "--win", "5",
                       "--budget", "5", "--rematch-wait", "1"});
  EXPECT_EQ(engine->wait_exit(20s), 1) << engine->output();
  EXPECT_EQ(ai->wait_exit(20s), 0) << ai->output();
  const std::string& out = engine->output();
  EXPECT_NE(out.find("ttt-bot: crasher: engine '" + command +
                     "' (fake-engine 1.0) crashed before answering TURN "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("its stderr: fake-engine: crashing as asked"), std::string::npos) << out;
  EXPECT_NE(out.find("; resigning game 1\n"), std::string::npos) << out;
  const auto e = last_line_summary(out);
  ASSERT_TRUE(e) << out;
  EXPECT_EQ(e->games, 1);
  EXPECT_EQ(e->losses, 1);
  EXPECT_EQ(e->errors, 1);
  const auto a = last_line_summary(ai->output());
  ASSERT_TRUE(a) << ai->output();
  EXPECT_EQ(a->games, 1);
  EXPECT_EQ(a->wins, 1);
  EXPECT_EQ(a->errors, 0);
}

TEST(EngineBotE2E, AnEngineThatPlaysOnlyFiveInARowIsNotSentToAnotherGame) {
  ServerProcess server;
  TempDir config;
  auto bot =
      start_bot(server.port(), config,
                {"--engine", bin_dir() + "/fake-engine", "--quick-match", "7", "--win", "4"});
  EXPECT_EQ(bot->wait_exit(10s), 1) << bot->output();
  EXPECT_NE(bot->output().find("which plays five in a row only: it can't play 7x7 won by 4 in a "
                               "row"),
            std::string::npos)
      << bot->output();
  const auto summary = last_line_summary(bot->output());
  ASSERT_TRUE(summary) << bot->output();
  EXPECT_EQ(summary->games, 0);
  EXPECT_EQ(summary->errors, 1);
}

}  // namespace
}  // namespace ttt::testing
