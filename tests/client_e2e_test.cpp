// ttt-client and ttt-bot end to end: the real programs against a real
// ttt-server on a loopback port, driven through their stdin and read back
// through their output.
#include <gtest/gtest.h>

#include <csignal>
#include <memory>
#include <regex>

#include "client_support/client_programs.hpp"
#include "client_support/two_players.hpp"

namespace ttt::testing {
namespace {

// Every cell of a 3×3 board: typed ahead, the taken ones are skipped with a
// reason, so this plays any game to its end.
constexpr const char* kEveryCell = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n";

TEST(BotE2E, TwoBotProcessesPlayTwentyGamesWithACorrectSummary) {
  ServerProcess server;
  TempDir config;
  auto perfect = start_bot(server.port(), config,
                           {"--name", "perfect", "--level", "perfect", "--quick-match", "3",
                            "--games", "20", "--budget", "20"});
  auto random = start_bot(server.port(), config,
                          {"--name", "random", "--level", "random", "--quick-match", "3", "--games",
                           "20", "--seed", "7"});
  ASSERT_EQ(perfect->wait_exit(30s), 0) << perfect->output();
  ASSERT_EQ(random->wait_exit(30s), 0) << random->output();
  const auto a = last_line_summary(perfect->output());
  const auto b = last_line_summary(random->output());
  ASSERT_TRUE(a) << perfect->output();
  ASSERT_TRUE(b) << random->output();
  for (const BotSummary& s : {*a, *b}) {
    EXPECT_EQ(s.games, 20);
    EXPECT_EQ(s.wins + s.losses + s.draws, 20);
    EXPECT_EQ(s.errors, 0);
  }
  EXPECT_EQ(a->wins, b->losses);
  EXPECT_EQ(a->losses, b->wins);
  EXPECT_EQ(a->draws, b->draws);
  EXPECT_EQ(a->losses, 0) << "the perfect bot never loses a 3x3 game";
}

TEST(BotE2E, CountRunsSeveralBotsInOneProcess) {
  ServerProcess server;
  TempDir config;
  auto bots = start_bot(server.port(), config,
                        {"--count", "4", "--quick-match", "3", "--games", "3", "--level", "medium",
                         "--budget", "10"});
  ASSERT_EQ(bots->wait_exit(30s), 0) << bots->output();
  const auto s = last_line_summary(bots->output());
  ASSERT_TRUE(s) << bots->output();
  EXPECT_EQ(s->games, 12);
  EXPECT_EQ(s->wins + s->losses + s->draws, 12);
  EXPECT_EQ(s->wins, s->losses) << "four bots playing each other";
  EXPECT_EQ(s->errors, 0);
}

TEST(BotE2E, UnreachableServerIsAnErrorWithNonZeroExit) {
  TempDir config;
  std::uint16_t dead_port = 0;
  {
    ServerProcess server;  // a port that was free a moment ago, now closed
    dead_port = server.port();
  }
  auto bot = start_bot(dead_port, config, {"--games", "1", "--connect-timeout", "2"});
  ASSERT_EQ(bot->wait_exit(10s), 1) << bot->output();
  EXPECT_NE(bot->output().find("cannot connect to 127.0.0.1:"), std::string::npos) << bot->output();
  const auto s = last_line_summary(bot->output());
  ASSERT_TRUE(s) << bot->output();
  EXPECT_EQ(s->games, 0);
  EXPECT_EQ(s->errors, 1);
}

TEST(BotE2E, ABotNameIsKeptWithItsSecretAcrossRuns) {
  ServerProcess server;
  TempDir config;
  for (int run = 0; run < 2; ++run) {
    auto first = start_bot(server.port(), config, {"--name", "keeper", "--quick-match", "3"});
    auto second = start_bot(server.port(), config, {"--name", "other", "--quick-match", "3"});
    ASSERT_EQ(first->wait_exit(20s), 0) << "run " << run << ":\n" << first->output();
    ASSERT_EQ(second->wait_exit(20s), 0) << "run " << run << ":\n" << second->output();
  }
}

TEST(ClientE2E, ASecondRunUsesTheNamesSavedSecret) {
  ServerProcess server;
  TempDir config;
  auto first = start_client(server.port(), config, {});
  first->write("/list\n");
  first->close_stdin();
  ASSERT_EQ(first->wait_exit(10s), 0) << first->output();
  EXPECT_NE(
      first->output().find("The name tester is now yours on this server; its secret is kept in " +
                           config.path() + "/ttt/secrets/127.0.0.1-"),
      std::string::npos)
      << first->output();
  auto second = start_client(server.port(), config, {});
  second->write("/list\n");
  second->close_stdin();
  ASSERT_EQ(second->wait_exit(10s), 0) << second->output();
  EXPECT_NE(second->output().find("Connected to 127.0.0.1:"), std::string::npos)
      << second->output();

  TempDir elsewhere;  // another account: no secret, so no name
  auto impostor = start_client(server.port(), elsewhere, {});
  impostor->close_stdin();
  ASSERT_EQ(impostor->wait_exit(10s), 3) << impostor->output();
  EXPECT_NE(impostor->output().find("the name 'tester' on 127.0.0.1:" +
                                    std::to_string(server.port()) + " belongs to someone else"),
            std::string::npos)
      << impostor->output();
}

TEST(ClientE2E, ScriptPlaysAWholeGameAgainstTheServersBot) {
  ServerProcess server;
  TempDir config;
  auto client = start_client(server.port(), config, {});
  client->write(std::string("/create 3 bot perfect\n") + kEveryCell);
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(20s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_NE(out.find("You play X in game 1."), std::string::npos) << out;
  EXPECT_NE(out.find("Game 1, 3x3, unrated: tester (X, 1200) vs bot (perfect) (O, 1200)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("    a   b   c\n  +---+---+---+\n1 |"), std::string::npos) << out;
  EXPECT_EQ(count_of(out, "Game over:"), 1u) << out;
  const bool bot_result = out.find("Game over: draw\n") != std::string::npos ||
                          out.find("Game over: O wins (") != std::string::npos;
  EXPECT_TRUE(bot_result) << "the perfect bot does not lose:\n" << out;
}

TEST(ClientE2E, TakenCellIsRefusedAndTheNextMoveIsAsked) {
  ServerProcess server;
  TempDir config;
  auto client = start_client(server.port(), config, {"--play-bot", "perfect"});
  client->write(std::string("b2\nb2\nzz\n") + kEveryCell);
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(20s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_NE(out.find("That cell is already taken (b2): choose another cell"), std::string::npos)
      << out;
  EXPECT_NE(out.find("Not a move: type a cell like b2"), std::string::npos) << out;
  EXPECT_NE(out.find("Game over:"), std::string::npos) << out;
}

TEST(ClientE2E, KilledClientResumesItsGameWithItsToken) {
  ServerProcess server;
  TempDir config;
  auto first = start_client(server.port(), config, {"--play-bot", "perfect"});
  first->write("b2\n");
  // Our move, then the bot's answer: our turn again.
  ASSERT_TRUE(first->wait_for(
      [](const std::string& out) { return count_of(out, "Your turn (X)") >= 2; }, 10s))
      << first->output();
  first->kill(SIGKILL);

  auto second = start_client(server.port(), config, {"--play-bot", "perfect"});
  second->write(kEveryCell);
  second->close_stdin();
  ASSERT_EQ(second->wait_exit(20s), 0) << second->output();
  const std::string& out = second->output();
  EXPECT_NE(out.find("Reconnected as tester: back in game 1."), std::string::npos) << out;
  EXPECT_NE(out.find("Back in game 1 as X."), std::string::npos) << out;
  EXPECT_EQ(out.find("game 2"), std::string::npos) << "no new game was started:\n" << out;
  EXPECT_NE(out.find("Game over:"), std::string::npos) << out;
}

TEST(ClientE2E, ReconnectsToAServerRestartedOnTheSamePort) {
  // The restarted server keeps its certificate, as a real one does.
  TempDir tls;
  auto server = std::make_unique<ServerProcess>(std::vector<std::string>{"--tls-dir", tls.path()});
  const std::uint16_t port = server->port();
  TempDir config;
  auto client = start_client(port, config, {"--retry", "20"});
  ASSERT_TRUE(client->wait_for_text("Connected to 127.0.0.1:", 10s)) << client->output();
  server->process().kill(SIGKILL);
  ASSERT_TRUE(client->wait_for_text("Connection lost", 10s)) << client->output();
  server = std::make_unique<ServerProcess>(std::vector<std::string>{"--tls-dir", tls.path()}, port);
  ASSERT_TRUE(client->wait_for_text("Reconnected to 127.0.0.1:", 15s)) << client->output();
  client->write("/list\n");
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(10s), 0) << client->output();
  EXPECT_NE(client->output().find("No games yet"), std::string::npos) << client->output();
}

TEST(ClientE2E, SaysSoAndExitsNonZeroWhenTheServerIsGone) {
  auto server = std::make_unique<ServerProcess>();
  const std::uint16_t port = server->port();
  TempDir config;
  auto client = start_client(port, config, {"--retry", "1"});
  ASSERT_TRUE(client->wait_for_text("Connected to 127.0.0.1:", 10s)) << client->output();
  server.reset();  // killed, and nothing comes back
  ASSERT_EQ(client->wait_exit(10s), 1) << client->output();
  EXPECT_NE(client->output().find("ttt-client: lost the server at 127.0.0.1:"), std::string::npos)
      << client->output();

  auto nowhere = start_client(port, config, {"--connect-timeout", "2"});
  ASSERT_EQ(nowhere->wait_exit(10s), 1) << nowhere->output();
  EXPECT_NE(nowhere->output().find("ttt-client: cannot connect to 127.0.0.1:"), std::string::npos)
      << nowhere->output();
}

// Two people on a server of their own, alice and bob, driven line by line:
// each step waits (bounded) for what it should print.
using TwoPlayersE2E = TwoPlayers;

TEST_F(TwoPlayersE2E, APrivateGameIsJoinedWithItsInviteCode) {
  ASSERT_TRUE(step(*alice_, "/create 3 private", *alice_, "You play X in game 1."));
  const std::regex invite(R"(Private game: others join with /join 1 (\S+)\n)");
  std::smatch match;
  ASSERT_TRUE(alice_->wait_for(
      [&](const std::string& out) { return std::regex_search(out, match, invite); }, 5s))
      << alice_->output();
  const std::string code = match[1];
  EXPECT_TRUE(step(*bob_, "/join 1", *bob_, "Game 1 is private")) << "no code, no seat";
  EXPECT_TRUE(step(*bob_, "/join 1 WRONG" + code, *bob_, "Game 1 is private"));
  ASSERT_TRUE(step(*bob_, "/join 1 " + code, *bob_, "You play O in game 1."));
  EXPECT_TRUE(
      alice_->wait_for_text("Game 1, 3x3, rated: alice (X, 1200) vs bob (O, 1200), private\n", 5s))
      << alice_->output();
  EXPECT_TRUE(step(*alice_, "/resign", *bob_, "You won."));
  finish();
}

TEST_F(TwoPlayersE2E, ChatReachesTheOpponent) {
  start_game();
  EXPECT_TRUE(step(*bob_, "/say good luck, alice", *alice_, "[bob (O)] good luck, alice\n"));
  EXPECT_TRUE(step(*alice_, "/say thanks", *bob_, "[alice (X)] thanks\n"));
  EXPECT_NE(bob_->output().find("[bob (O)] good luck, alice\n"), std::string::npos)
      << "the sender sees its line too:\n"
      << bob_->output();
  EXPECT_TRUE(step(*alice_, "/resign", *bob_, "You won."));
  finish();
}

TEST_F(TwoPlayersE2E, ResignationEndsTheGameForBoth) {
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "alice (X) played b2."));
  ASSERT_TRUE(step(*bob_, "/resign", *bob_, "Game over: X wins (O resigned)\nYou lost.\n"));
  EXPECT_TRUE(alice_->wait_for_text("Game over: X wins (O resigned)\nYou won.\n", 5s))
      << alice_->output();
  finish();
}

TEST_F(TwoPlayersE2E, ADrawOfferedAndAcceptedEndsInAnAgreedDraw) {
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));
  ASSERT_TRUE(step(*alice_, "/draw", *bob_,
                   "alice (X) offers a draw: /draw to accept, /decline to refuse.\n"));
  ASSERT_TRUE(alice_->wait_for_text("You offered a draw.\n", 5s)) << alice_->output();
  // The offer is said once, without the turn line again.
  EXPECT_EQ(count_of(alice_->output(), "Waiting for bob (O) to move"), 1u) << alice_->output();
  EXPECT_EQ(count_of(bob_->output(), "Your turn (O)"), 1u) << bob_->output();
  ASSERT_TRUE(step(*bob_, "/draw", *bob_, "Game over: draw (agreed)\nA draw.\n"));
  EXPECT_TRUE(alice_->wait_for_text("Game over: draw (agreed)\nA draw.\n", 5s)) << alice_->output();
  finish();
}

TEST_F(TwoPlayersE2E, ARematchAskedAndAcceptedSwapsTheSides) {
  start_game();
  // Two moves each: a game resigned before both moved twice changes no rating.
  ASSERT_TRUE(step(*alice_, "a1", *bob_, "alice (X) played a1."));
  ASSERT_TRUE(step(*bob_, "b2", *alice_, "bob (O) played b2."));
  ASSERT_TRUE(step(*alice_, "c3", *bob_, "alice (X) played c3."));
  ASSERT_TRUE(step(*bob_, "a3", *alice_, "bob (O) played a3."));
  ASSERT_TRUE(step(*alice_, "/resign", *bob_, "You won."));
  ASSERT_TRUE(step(*alice_, "/rematch", *bob_,
                   "alice (X) asks for a rematch: /rematch to accept, /decline to refuse.\n"));
  ASSERT_TRUE(alice_->wait_for_text("You asked for a rematch.\n", 5s)) << alice_->output();
  ASSERT_TRUE(step(*bob_, "/rematch", *bob_, "Rematch: round 2, you play X.\n"));
  EXPECT_TRUE(alice_->wait_for_text("Rematch: round 2, you play O.\n", 5s)) << alice_->output();
  EXPECT_TRUE(
      bob_->wait_for_text("Game 1, 3x3, round 2, rated: bob (X, 1216) vs alice (O, 1184)\n", 5s))
      << bob_->output();
  // bob moves first now, and the game goes on.
  EXPECT_TRUE(step(*bob_, "b2", *alice_, "bob (X) played b2."));
  EXPECT_TRUE(step(*alice_, "/resign", *bob_, "You won."));
  finish();
}

TEST_F(TwoPlayersE2E, LeavingMidGameResignsAndGoesBackToTheLobby) {
  start_game();
  ASSERT_TRUE(
      step(*alice_, "/leave", *alice_, "You are in the lobby: /list, /create, /quick or /join.\n"));
  EXPECT_TRUE(bob_->wait_for_text("Game over: O wins (X resigned)\nYou won.\n", 5s))
      << bob_->output();
  EXPECT_TRUE(bob_->wait_for_text("alice (X) left the game.\n", 5s)) << bob_->output();
  EXPECT_TRUE(step(*alice_, "/list", *alice_, "Join with /join ID")) << "alice is in the lobby";
  finish();
}

TEST_F(TwoPlayersE2E, QuickMatchPairsTwoPlayersWhoPlayAWholeGame) {
  ASSERT_TRUE(
      step(*alice_, "/quick 3", *alice_, "Waiting for another player who wants a 3x3 game...\n"));
  ASSERT_TRUE(step(*bob_, "/quick 3", *bob_, "You play O in game 1."));
  ASSERT_TRUE(alice_->wait_for_text("You play X in game 1.", 5s)) << alice_->output();
  // Both type every cell ahead: the taken ones are skipped, so the game ends.
  alice_->write(kEveryCell);
  bob_->write(kEveryCell);
  finish();
  EXPECT_EQ(count_of(alice_->output(), "Game over:"), 1u) << alice_->output();
  EXPECT_EQ(count_of(bob_->output(), "Game over:"), 1u) << bob_->output();
  // Whatever the order gave, the two agree on the result.
  const bool alice_won = alice_->output().find("You won.") != std::string::npos;
  const bool bob_won = bob_->output().find("You won.") != std::string::npos;
  const bool drawn = alice_->output().find("A draw.") != std::string::npos;
  EXPECT_EQ(alice_won + bob_won + drawn, 1) << alice_->output() << bob_->output();
  EXPECT_EQ(bob_->output().find("You lost.") != std::string::npos, alice_won);
}

TEST_F(TwoPlayersE2E, ASpectatorSeesTheMovesAndTheEnd) {
  start_game();
  auto carol = start_client(server_.port(), config_, {"--name", "carol"});
  ASSERT_TRUE(step(*carol, "/watch 1", *carol, "Watching game 1."));
  EXPECT_TRUE(alice_->wait_for_text("1 watching", 5s)) << alice_->output();
  EXPECT_TRUE(step(*alice_, "b2", *carol, "alice (X) played b2.\n"));
  EXPECT_TRUE(step(*bob_, "a1", *carol, "bob (O) played a1.\n"));
  EXPECT_TRUE(carol->wait_for_text("2 |   | X |   |", 5s)) << carol->output();
  EXPECT_TRUE(step(*bob_, "/say hi carol", *carol, "[bob (O)] hi carol\n"));
  EXPECT_TRUE(step(*bob_, "/resign", *carol, "Game over: X wins (O resigned)\n"));
  carol->close_stdin();  // the game is over: nothing more to watch
  EXPECT_EQ(carol->wait_exit(5s), 0) << carol->output();
  EXPECT_EQ(carol->output().find("You won."), std::string::npos) << carol->output();
  EXPECT_EQ(carol->output().find("You lost."), std::string::npos) << carol->output();
  finish();
}

TEST(BotE2E, ACreatingBotIsJoinedByItsIdAndTheyPlayRematches) {
  ServerProcess server;
  TempDir config;
  auto maker = start_bot(server.port(), config,
                         {"--name", "maker", "--create", "4", "--games", "2", "--budget", "5"});
  const std::regex line(R"(maker: waiting for an opponent in game (\d+)\n)");
  std::smatch match;
  ASSERT_TRUE(maker->wait_for(
      [&](const std::string& out) { return std::regex_search(out, match, line); }, 10s))
      << maker->output();
  const std::string id = match[1];
  auto joiner = start_bot(server.port(), config,
                          {"--name", "joiner", "--join", id, "--games", "2", "--budget", "5"});
  ASSERT_EQ(maker->wait_exit(20s), 0) << maker->output();
  ASSERT_EQ(joiner->wait_exit(20s), 0) << joiner->output();
  const auto a = last_line_summary(maker->output());
  const auto b = last_line_summary(joiner->output());
  ASSERT_TRUE(a) << maker->output();
  ASSERT_TRUE(b) << joiner->output();
  EXPECT_EQ(a->games, 2);
  EXPECT_EQ(b->games, 2);
  EXPECT_EQ(a->errors + b->errors, 0);
  EXPECT_EQ(a->wins, b->losses);
  EXPECT_EQ(a->draws, b->draws);
}

TEST(OfflineE2E, AiGameThroughStdinPrintsTheBoardListsAndTheResult) {
  ChildProcess client({bin_dir() + "/ttt-client", "-a", "-k", "3", "-v"}, {"NO_COLOR=1"});
  client.write(std::string("b2\nb2\n") + kEveryCell);
  client.close_stdin();
  ASSERT_EQ(client.wait_exit(20s), 0) << client.output();
  const std::string& out = client.output();
  EXPECT_NE(out.find("board: (E E E E X E E E E)"), std::string::npos) << out;
  EXPECT_NE(out.find("O plays "), std::string::npos) << out;
  EXPECT_NE(out.find("That cell is already taken"), std::string::npos) << out;
  EXPECT_NE(out.find("Game over:"), std::string::npos) << out;
  EXPECT_EQ(out.find("Game over: X wins"), std::string::npos) << "the perfect AI never loses";
}

TEST(OfflineE2E, HotSeatOnAFourByFourBoard) {
  ChildProcess client({bin_dir() + "/ttt-client", "--local", "-k", "4"}, {"NO_COLOR=1"});
  // X takes row 1 while O plays row 2.
  client.write("a1\na2\nb1\nb2\nc1\nc2\nd1\n");
  client.close_stdin();
  ASSERT_EQ(client.wait_exit(10s), 0) << client.output();
  EXPECT_NE(client.output().find("1 |*X*|*X*|*X*|*X*|"), std::string::npos) << client.output();
  EXPECT_NE(client.output().find("Game over: X wins (row 1)"), std::string::npos)
      << client.output();
}

TEST(OfflineE2E, NoColorWinsOverColorAlways) {
  // The AI's moves and the last-move brackets are drawn in colour when colour is on.
  ChildProcess coloured({bin_dir() + "/ttt-client", "-a", "--color", "always"}, {"NO_COLOR="});
  coloured.write(kEveryCell);
  coloured.close_stdin();
  ASSERT_EQ(coloured.wait_exit(10s), 0) << coloured.output();
  EXPECT_NE(coloured.output().find("\x1b["), std::string::npos) << "--color always, off a terminal";

  ChildProcess plain({bin_dir() + "/ttt-client", "-a", "--color", "always"}, {"NO_COLOR=1"});
  plain.write(kEveryCell);
  plain.close_stdin();
  ASSERT_EQ(plain.wait_exit(10s), 0) << plain.output();
  EXPECT_NE(plain.output().find("Game over:"), std::string::npos) << plain.output();
  EXPECT_EQ(plain.output().find('\x1b'), std::string::npos) << "NO_COLOR set: no escape at all";

  const auto help = run_command({bin_dir() + "/ttt-client", "--help"});
  EXPECT_NE(help.output.find("never while NO_COLOR is set"), std::string::npos) << help.output;
}

}  // namespace
}  // namespace ttt::testing
