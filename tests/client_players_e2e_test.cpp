// Playing a friend end to end: the real ttt-server, ttt-client
// and ttt-bot over loopback. /who, a challenge accepted into a game with a
// Fischer clock whose flag falls, a challenge declined, a block, and bots
// that challenge and accept. Every wait is bounded.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"

namespace ttt::testing {
namespace {

// Writes line to `who`, then waits for `expected` in what `reader` prints
// from then on.
::testing::AssertionResult step(ChildProcess& who, const std::string& line, ChildProcess& reader,
                                std::string_view expected) {
  const std::size_t from = reader.output().size();
  who.write(line + "\n");
  if (reader.wait_for_text(expected, 10s, from)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "after '" << line << "', no '" << expected << "' in:\n"
                                       << reader.output().substr(from);
}

TEST(PlayersE2E, WhoChallengeAcceptAndAClockThatRunsOut) {
  ServerProcess server;
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  ASSERT_TRUE(alice->wait_for_text("Connected to", 10s)) << alice->output();
  ASSERT_TRUE(bob->wait_for_text("Connected to", 10s)) << bob->output();
  ASSERT_TRUE(step(*bob, "/who", *bob, "alice                 1200  in the lobby"));
  EXPECT_NE(bob->output().find("bob                   1200  in the lobby"), std::string::npos)
      << bob->output();
  ASSERT_TRUE(step(*alice, "/challenge bob 3 clock 0.1+0", *bob,
                   "alice (1200) challenges you to a 3x3, clock 0.1+0 game: /accept or /decline "
                   "(challenge 1, for 60 s)."));
  EXPECT_TRUE(alice->wait_for_text(
      "You challenged bob to a 3x3, clock 0.1+0 game (challenge 1); it stands 60 s.", 5s))
      << alice->output();
  ASSERT_TRUE(step(*bob, "/accept", *bob, "You play O in game 1."));
  ASSERT_TRUE(alice->wait_for_text("You play X in game 1.", 5s)) << alice->output();
  EXPECT_TRUE(
      alice->wait_for_text("Game 1, 3x3, clock 0.1+0, rated: alice (X, 1200) vs bob (O, 1200)", 5s))
      << alice->output();
  EXPECT_TRUE(alice->wait_for_text("Your turn (X): type a cell like b2 (X 0:0", 5s))
      << alice->output();
  ASSERT_TRUE(step(*alice, "/who", *alice, "playing game 1 against bob (3x3, clock 0.1+0)"));
  // alice doesn't move: her 6 s run out, and O could still win: she loses.
  for (auto* who : {alice.get(), bob.get()}) {
    EXPECT_TRUE(who->wait_for_text("Game over: O wins (X ran out of time)", 12s)) << who->output();
  }
  for (auto* who : {alice.get(), bob.get()}) {
    who->write("/quit\n");
    EXPECT_EQ(who->wait_exit(10s), 0) << who->output();
  }
}

TEST(PlayersE2E, ADeclinedChallengeABlockAndClearAnswers) {
  ServerProcess server;
  TempDir config;
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  auto carol = start_client(server.port(), config, {"--name", "carol"});
  ASSERT_TRUE(bob->wait_for_text("Connected to", 10s)) << bob->output();
  ASSERT_TRUE(carol->wait_for_text("Connected to", 10s)) << carol->output();
  ASSERT_TRUE(step(*carol, "/challenge bob", *bob, "carol (1200) challenges you"));
  ASSERT_TRUE(step(*bob, "/decline", *carol, "bob declined your challenge."));
  EXPECT_TRUE(bob->wait_for_text("You declined carol's challenge.", 5s)) << bob->output();
  ASSERT_TRUE(step(*bob, "/block carol", *bob,
                   "carol is blocked: no challenges or chat from carol (blocked: carol)."));
  EXPECT_TRUE(step(*carol, "/challenge bob", *carol, "Refused: bob is not taking challenges"));
  EXPECT_TRUE(step(*carol, "/challenge nobody", *carol, "No player is called nobody"));
  EXPECT_TRUE(step(*carol, "/challenge carol", *carol, "You can't challenge yourself"));
  EXPECT_TRUE(step(*carol, "/accept", *carol, "No challenge to you stands"));
  EXPECT_TRUE(step(*carol, "/quick 3 clock 9x", *carol, "A clock is M+S"));
  ASSERT_TRUE(step(*bob, "/unblock carol", *bob, "carol is not blocked (nobody is)."));
  // Asked about someone who is not blocked, the answer still names them.
  ASSERT_TRUE(step(*bob, "/unblock carol", *bob, "carol is not blocked (nobody is)."));
  ASSERT_TRUE(step(*bob, "/block", *bob, "Nobody is blocked."));
  for (auto* who : {bob.get(), carol.get()}) {
    who->write("/quit\n");
    EXPECT_EQ(who->wait_exit(10s), 0) << who->output();
  }
}

TEST(PlayersE2E, BotsChallengeAndAcceptAndPlayTheirGames) {
  ServerProcess server;
  TempDir config;
  auto taker = start_bot(server.port(), config,
                         {"--name", "taker", "--accept-challenges", "--from", "maker,other",
                          "--games", "2", "--budget", "5", "--log-level", "info"});
  ASSERT_TRUE(taker->wait_for_text("taker: waiting for challenges", 10s)) << taker->output();
  auto maker = start_bot(server.port(), config,
                         {"--name", "maker", "--challenge", "taker", "--size", "4", "--clock",
                          "1+1", "--games", "2", "--budget", "5"});
  for (auto* bot : {maker.get(), taker.get()}) {
    ASSERT_EQ(bot->wait_exit(30s), 0) << bot->output();
    const auto summary = last_line_summary(bot->output());
    ASSERT_TRUE(summary) << bot->output();
    EXPECT_EQ(summary->games, 2) << bot->output();
    EXPECT_EQ(summary->errors, 0) << bot->output();
  }
}

TEST(PlayersE2E, ABotWhoseChallengeIsDeclinedSaysSo) {
  ServerProcess server;
  TempDir config;
  auto picky = start_bot(server.port(), config,
                         {"--name", "picky", "--accept-challenges", "--from", "friend", "--games",
                          "1", "--log-level", "info"});
  ASSERT_TRUE(picky->wait_for_text("picky: waiting for challenges", 10s)) << picky->output();
  auto stranger = start_bot(server.port(), config, {"--name", "stranger", "--challenge", "picky"});
  stranger->wait_exit(20s);
  EXPECT_NE(stranger->output().find("stranger: the challenge to picky declined"), std::string::npos)
      << stranger->output();
  const auto summary = last_line_summary(stranger->output());
  ASSERT_TRUE(summary) << stranger->output();
  EXPECT_EQ(summary->games, 0);
  EXPECT_EQ(summary->errors, 1);
  auto offline = start_bot(server.port(), config, {"--name", "lonely", "--challenge", "ghost"});
  offline->wait_exit(20s);
  EXPECT_NE(offline->output().find("no player is called ghost"), std::string::npos)
      << offline->output();
  picky->kill(SIGTERM);
}

}  // namespace
}  // namespace ttt::testing
