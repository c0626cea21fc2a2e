// The interactive client on a real terminal, driven through tmux: the board
// renders, the opponent's move appears while the player types nothing, and
// the game finishes; a replay steps with Enter and stops with q.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"
#include "client_support/tmux.hpp"

namespace ttt::testing {
namespace {

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

TEST(ClientTmux, InteractiveGameRendersUpdatesWithoutInputAndFinishes) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server;
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name tmux --play-bot random"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Your turn (X)"); }, 10s))
      << tmux.screen();
  const std::string start = tmux.screen();
  EXPECT_TRUE(has(start, "    a   b   c")) << start;
  EXPECT_TRUE(has(start, "1 |   |   |   |")) << start;
  EXPECT_TRUE(has(start, "your move (X)>")) << start;  // the prompt

  tmux.type("b2");
  // The bot's answer shows up with no further keys pressed.
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "[O]"); }, 10s))
      << tmux.screen();
  EXPECT_TRUE(has(tmux.screen(), "2 |   | X |") || has(tmux.screen(), "| X |")) << tmux.screen();

  for (const char* cell : {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}) tmux.type(cell);
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Game over:"); }, 15s))
      << tmux.screen();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << "the client did not quit:\n" << tmux.screen();
}

TEST(ClientTmux, ReplayStepsWithEnterAndStopsWithQ) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server;  // its database is in a directory of its own
  TempDir config;
  auto player = start_client(server.port(), config, {"--play-bot", "random"});
  player->write("a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n");
  player->close_stdin();
  ASSERT_EQ(player->wait_exit(20s), 0) << player->output();

  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name tester"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.screen();
  tmux.type("/replay 1");
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "replay: Enter for move 1 of "); }, 10s))
      << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "Move 1 of")) << "nothing shown before Enter:\n" << tmux.screen();
  tmux.type("");
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) {
        return has(s, "): tester (X) played a1.") && has(s, "1 |[X]|   |   |") &&
               has(s, "replay: Enter for move 2 of ");
      },
      10s))
      << tmux.screen();
  tmux.type("");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Move 2 of "); }, 10s))
      << tmux.screen();
  tmux.type("q");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Replay stopped."); }, 10s))
      << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "Move 3 of")) << tmux.screen();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << "the client did not quit:\n" << tmux.screen();
}

}  // namespace
}  // namespace ttt::testing
