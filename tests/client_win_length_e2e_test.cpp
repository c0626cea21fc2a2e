// k in a row end to end over loopback: ttt-client's /create 15 k 5, /list,
// /quick 15 k 5, the game won by a run, /history and /replay, the server's
// export; ttt-bot's --win with --create, --join and --quick-match; offline
// --win. Real ttt-server, ttt-client and ttt-bot processes, every wait
// bounded.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "client_support/client_programs.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

// Writes line to `who`, then waits for `expected` in what `reader` prints
// from then on.
::testing::AssertionResult step(ChildProcess& who, const std::string& line, ChildProcess& reader,
                                std::string_view expected) {
  const std::size_t from = reader.output().size();
  who.write(line + "\n");
  if (reader.wait_for_text(expected, 5s, from)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "after '" << line << "', no '" << expected << "' in:\n"
                                       << reader.output().substr(from);
}

// The `key value` lines of the first record of an --export-games file.
std::map<std::string, std::string> first_exported(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, std::string> fields;
  std::string line;
  bool in_record = false;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (in_record) break;
      continue;
    }
    if (line[0] == '#') continue;
    in_record = true;
    const auto space = line.find(' ');
    if (line.substr(0, space) != "move") fields[line.substr(0, space)] = line.substr(space + 1);
  }
  return fields;
}

TEST(WinLengthE2E, CreateListJoinPlayHistoryReplayAndExportCarryIt) {
  TempDir data;
  const std::string db = (fs::path(data.path()) / "ttt.db").string();
  auto server = std::make_unique<ServerProcess>(std::vector<std::string>{"--db", db});
  TempDir config;
  auto alice = start_client(server->port(), config, {"--name", "alice"});
  auto bob = start_client(server->port(), config, {"--name", "bob"});
  ASSERT_TRUE(step(*alice, "/create 15 k 5", *alice,
                   "Game 1, 15x15, 5 in a row, rated: alice (X, 1200) vs (free) (O)"));
  ASSERT_TRUE(
      step(*bob, "/list", *bob, "    1  15x15, 5 in a row  waiting      alice            -"));
  ASSERT_TRUE(step(*bob, "/join 1", *bob, "You play O in game 1."));
  // X: d8 to h8 (row 8) while O fills column a; typed ahead, played in turn.
  alice->write("d8\ne8\nf8\ng8\nh8\n");
  bob->write("a1\na2\na3\na4\n");
  for (auto* who : {alice.get(), bob.get()}) {
    EXPECT_TRUE(who->wait_for_text("Game over: X wins (row 8 from d8 to h8)\n", 10s))
        << who->output();
  }
  EXPECT_NE(alice->output().find("8 |   |   |   |*X*|*X*|*X*|*X*|*X*|   |"), std::string::npos)
      << alice->output();

  const std::size_t from = alice->output().size();
  alice->write("/history\n");
  const std::regex row(R"(\n +(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d  15x15, 5 in a row  alice +bob)");
  // The record id is copied out while the text it was found in still lives.
  std::string record;
  ASSERT_TRUE(alice->wait_for(
      [&](const std::string& out) {
        const std::string fresh = out.substr(from);
        std::smatch match;
        if (!std::regex_search(fresh, match, row)) return false;
        record = match[1].str();
        return true;
      },
      5s))
      << alice->output().substr(from);
  EXPECT_TRUE(
      step(*alice, "/replay " + record, *alice, "Replay of record " + record + " (game 1), "));
  EXPECT_TRUE(alice->wait_for_text(": 15x15, 5 in a row, rated.\n", 5s)) << alice->output();
  EXPECT_TRUE(alice->wait_for_text("Move 9 of 9", 5s)) << alice->output();
  alice->close_stdin();
  bob->close_stdin();
  EXPECT_EQ(alice->wait_exit(10s), 0) << alice->output();
  EXPECT_EQ(bob->wait_exit(10s), 0) << bob->output();

  server->process().kill(SIGTERM);
  server.reset();
  const std::string file = (fs::path(data.path()) / "games.txt").string();
  const auto exported =
      run_command({bin_dir() + "/ttt-server", "--db", db, "--export-games", file});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const auto fields = first_exported(file);
  EXPECT_EQ(fields.at("size"), "15");
  EXPECT_EQ(fields.at("win_length"), "5");
  EXPECT_EQ(fields.at("result"), "X");
  EXPECT_EQ(fields.at("reason"), "line");
}

TEST(WinLengthE2E, QuickMatchPairsOnlyPlayersWhoWantTheSameRules) {
  ServerProcess server;
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  auto carol = start_client(server.port(), config, {"--name", "carol"});
  ASSERT_TRUE(step(*alice, "/quick 15 k 5", *alice,
                   "Waiting for another player who wants a 15x15 game with 5 in a row...\n"));
  ASSERT_TRUE(
      step(*carol, "/quick 15", *carol, "Waiting for another player who wants a 15x15 game...\n"));
  ASSERT_TRUE(step(*bob, "/quick 15 k 5", *bob, "You play O in game 1."));
  EXPECT_TRUE(alice->wait_for_text("Game 1, 15x15, 5 in a row, rated: alice (X, 1200) vs bob", 5s))
      << alice->output();
  EXPECT_EQ(carol->output().find("You play"), std::string::npos) << carol->output();
  for (auto* who : {alice.get(), bob.get(), carol.get()}) {
    who->write("/quit\n");
    EXPECT_EQ(who->wait_exit(10s), 0) << who->output();
  }
}

TEST(WinLengthE2E, PlayBotStartsTheGameWithTheSizeAndWinLengthAsked) {
  ServerProcess server;
  TempDir config;
  auto client =
      start_client(server.port(), config, {"--play-bot", "easy", "--size", "9", "--win", "4"});
  EXPECT_TRUE(client->wait_for_text(
      "Game 1, 9x9, 4 in a row, unrated: tester (X, 1200) vs bot (easy)", 10s))
      << client->output();
  client->write("/quit\n");
  EXPECT_EQ(client->wait_exit(10s), 0) << client->output();
}

TEST(WinLengthE2E, BotsCreateJoinAndQuickMatchGamesOfKInARow) {
  ServerProcess server;
  TempDir config;
  auto maker = start_bot(server.port(), config,
                         {"--name", "maker", "--create", "7", "--win", "4", "--budget", "5"});
  const auto game = created_game_id(*maker, 10s);
  ASSERT_TRUE(game) << maker->output();
  auto joiner =
      start_bot(server.port(), config, {"--name", "joiner", "--join", *game, "--budget", "5"});
  auto q1 = start_bot(server.port(), config,
                      {"--name", "q1", "--quick-match", "9", "--win", "5", "--budget", "5"});
  auto q2 = start_bot(server.port(), config,
                      {"--name", "q2", "--quick-match", "9", "--win", "5", "--budget", "5"});
  for (auto* bot : {maker.get(), joiner.get(), q1.get(), q2.get()}) {
    ASSERT_EQ(bot->wait_exit(20s), 0) << bot->output();
    const auto summary = last_line_summary(bot->output());
    ASSERT_TRUE(summary) << bot->output();
    EXPECT_EQ(summary->games, 1);
    EXPECT_EQ(summary->errors, 0);
  }
}

// A player who only ever plays the edge columns a and o, one cell in two, for
// twelve moves (a move on a cell the bot took meanwhile is refused and lost;
// then the game waits for more input and the test fails): a bot playing five
// in a row with the k < N engine makes five in a row well before that, in any
// of the four directions; the whole-line AI would still be building a line of
// 15.
const char* const kEdgeMoves = "a1\na3\na5\na7\na9\na11\na13\na15\no1\no3\no5\no7\n";
const std::regex kRunWin(R"(Game over: (X|O) wins \((row|column|diagonal|anti-diagonal)[^)]*)"
                         R"( from [a-o]\d+ to [a-o]\d+\))");

TEST(WinLengthE2E, TheServersBotPlaysFiveInARowWithTheKInARowEngine) {
  ServerProcess server({"--bot-budget", "100"});
  TempDir config;
  for (const char* level : {"hard", "perfect"}) {
    auto client =
        start_client(server.port(), config, {"--play-bot", level, "--size", "15", "--win", "5"});
    ASSERT_TRUE(client->wait_for_text("15x15, 5 in a row, unrated: tester (X, 1200) vs bot", 10s))
        << client->output();
    client->write(kEdgeMoves);
    std::smatch match;
    ASSERT_TRUE(client->wait_for(
        [&](const std::string& out) { return std::regex_search(out, match, kRunWin); }, 20s))
        << level << ":\n"
        << client->output();
    EXPECT_EQ(match[1], "O") << level;
    client->write("/quit\n");
    EXPECT_EQ(client->wait_exit(10s), 0) << client->output();
  }
}

TEST(WinLengthE2E, TttBotPlaysFiveInARowWithTheKInARowEngine) {
  ServerProcess server;
  TempDir config;
  auto bot = start_bot(
      server.port(), config,
      {"--name", "maker", "--create", "15", "--win", "5", "--level", "hard", "--budget", "100"});
  const auto game = created_game_id(*bot, 10s);
  ASSERT_TRUE(game) << bot->output();
  auto client = start_client(server.port(), config, {"--name", "edge"});
  client->write("/join " + *game + "\n");
  ASSERT_TRUE(client->wait_for_text("You play O in game " + *game, 10s)) << client->output();
  client->write(kEdgeMoves);
  std::smatch match;
  ASSERT_TRUE(client->wait_for(
      [&](const std::string& out) { return std::regex_search(out, match, kRunWin); }, 20s))
      << client->output();
  EXPECT_EQ(match[1], "X");
  ASSERT_EQ(bot->wait_exit(20s), 0) << bot->output();
  const auto summary = last_line_summary(bot->output());
  ASSERT_TRUE(summary) << bot->output();
  EXPECT_EQ(summary->wins, 1);
  client->write("/quit\n");
  EXPECT_EQ(client->wait_exit(10s), 0) << client->output();
}

TEST(WinLengthE2E, AWinLengthThatDoesNotFitIsABadCommandLine) {
  const auto client =
      run_command({bin_dir() + "/ttt-client", "--local", "--size", "7", "--win", "8"});
  EXPECT_EQ(client.exit_code, 2);
  EXPECT_NE(client.output.find("--win expects 3 to 7 on a 7x7 board (--size), got 8"),
            std::string::npos)
      << client.output;
  const auto bot = run_command({bin_dir() + "/ttt-bot", "--create", "9", "--win", "2"});
  EXPECT_EQ(bot.exit_code, 2);
  EXPECT_NE(bot.output.find("--win expects 3 to 9 on a 9x9 board, got 2"), std::string::npos)
      << bot.output;
  const auto joining = run_command({bin_dir() + "/ttt-bot", "--join", "3", "--win", "4"});
  EXPECT_EQ(joining.exit_code, 2);
  EXPECT_NE(joining.output.find("--win goes with --create, --quick-match or --challenge"),
            std::string::npos)
      << joining.output;
}

TEST(WinLengthE2E, OfflineHotSeatIsWonByARun) {
  ChildProcess client({bin_dir() + "/ttt-client", "--local", "--size", "7", "--win", "4"},
                      {"NO_COLOR=1"});
  client.write("a1\nb1\na2\nb2\na3\nb3\na4\n");
  client.close_stdin();
  ASSERT_EQ(client.wait_exit(10s), 0) << client.output();
  EXPECT_NE(client.output().find("4 in a row wins."), std::string::npos) << client.output();
  EXPECT_NE(client.output().find("Game over: X wins (column a from a1 to a4)"), std::string::npos)
      << client.output();
}

}  // namespace
}  // namespace ttt::testing
