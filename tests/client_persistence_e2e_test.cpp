// ttt-client and ttt-bot against a ttt-server that keeps a database: bots
// that come back by themselves after a kill -9 of the server and finish their
// game on record; /top, /history and /replay; ratings where players see
// them; a name that belongs to someone else; rated bot games (--rated); and,
// against a scripted stand-in server, a move the database could not save.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "client_support/client_programs.hpp"
#include "client_support/fake_server.hpp"
#include "client_support/scripted_games.hpp"
#include "support/eventually.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

// Every cell of a 3×3 board: typed ahead, the taken ones are skipped with a
// reason, so this plays any game to its end.
constexpr const char* kEveryCell = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n";

class ClientPersistenceTest : public ::testing::Test {
 protected:
  std::string db() const { return (fs::path(data_.path()) / "ttt.db").string(); }
  std::vector<std::string> server_args() const { return {"--db", db(), "--reconnect-grace", "20"}; }

  TempDir data_;    // the database, which outlives each server process
  TempDir config_;  // the clients' config dir: their names' secrets
};

// The id of a game in progress on the server, asked every 50 ms.
std::optional<std::uint64_t> game_in_progress(TestClient& client,
                                              std::chrono::milliseconds timeout) {
  std::optional<std::uint64_t> found;
  eventually(
      [&] {
        wire::ClientMessage list;
        list.mutable_list_games();
        client.send(list);
        const auto reply = client.expect(
            [](const wire::ServerMessage& m) { return m.has_game_list(); }, "GameList");
        for (const wire::GameSummary& g : reply.game_list().games()) {
          if (g.status() != wire::GAME_STATUS_IN_PROGRESS) continue;
          found = g.game_id();
          return true;
        }
        return false;
      },
      timeout, 50ms);
  return found;
}

wire::GameState watch(TestClient& watcher, std::uint64_t game_id) {
  watcher.spectate(game_id);
  return watcher.expect_joined().state();
}

// The records of an --export-games file: each a map of its `key value` lines
// (the last of each key) and its `move` lines.
struct ExportedGame {
  std::map<std::string, std::string> fields;
  std::vector<std::string> moves;  // "PLY PLAYER ROW COL MS"
};

std::vector<ExportedGame> read_export(const std::string& path) {
  std::ifstream in(path);
  std::vector<ExportedGame> games;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "game") games.emplace_back();
    if (games.empty()) continue;
    if (key == "move") {
      games.back().moves.push_back(value);
    } else {
      games.back().fields[key] = value;
    }
  }
  return games;
}

// The cells the exported moves make, row-major X/O/E.
std::string cells_of(const ExportedGame& game, int size) {
  std::string cells(static_cast<std::size_t>(size * size), 'E');
  for (const std::string& move : game.moves) {
    std::istringstream words(move);
    int ply = 0, row = 0, col = 0;
    std::string player;
    words >> ply >> player >> row >> col;
    cells[static_cast<std::size_t>(row * size + col)] = player[0];
  }
  return cells;
}

// What the real server says when the database refused a move.
void refuse_to_store(FakeServer& server, const wire::ClientMessage& move,
                     const wire::GameState& unchanged) {
  wire::ServerMessage m;
  m.set_in_reply_to(move.request_id());
  m.mutable_error()->set_code(wire::ERROR_CODE_STORAGE);
  m.mutable_error()->set_text("the server could not save that move; nothing changed, try again");
  server.send(m);
  server.state(unchanged);
}

bool is_hello(const wire::ClientMessage& m) { return m.has_hello(); }
bool is_move(const wire::ClientMessage& m) { return m.has_make_move(); }

TEST(BotStorage, ABotMovesAgainAfterAPauseWhenTheServerCouldNotSaveItsMove) {
  FakeServer server;
  TempDir config;
  auto bot = start_bot(server.port(), config,
                       {"--name", "patient", "--rated", "--budget", "5", "--log-level", "info"});
  const auto hello = server.expect(is_hello);
  ASSERT_TRUE(hello) << bot->output();
  EXPECT_TRUE(hello->hello().bot()) << "ttt-bot says it is a program";
  server.welcome(*hello);
  const auto quick = server.expect([](const auto& m) { return m.has_quick_match(); });
  ASSERT_TRUE(quick) << bot->output();
  EXPECT_EQ(quick->quick_match().rated(), wire::RATED_YES) << "--rated asks for a rated game";
  const wire::GameState game = fresh_game("patient");
  wire::ServerMessage joined;
  joined.set_in_reply_to(quick->request_id());
  joined.mutable_joined()->set_side(wire::SIDE_X);
  *joined.mutable_joined()->mutable_state() = game;
  server.send(joined);

  const auto first = server.expect(is_move);
  ASSERT_TRUE(first) << bot->output();
  const auto refused_at = std::chrono::steady_clock::now();
  refuse_to_store(server, *first, game);
  const auto second = server.expect(is_move, 3s);
  ASSERT_TRUE(second) << "the bot did not move again:\n" << bot->output();
  EXPECT_GE(std::chrono::steady_clock::now() - refused_at, 450ms) << "it pauses first";
  server.state(won_by_resignation(game, second->make_move()));
  EXPECT_TRUE(server.hang_up_after_the_client()) << bot->output();

  ASSERT_EQ(bot->wait_exit(5s), 0) << bot->output();
  EXPECT_NE(bot->output().find("could not save its move; moving again in 500 ms"),
            std::string::npos)
      << bot->output();
  const auto s = last_line_summary(bot->output());
  ASSERT_TRUE(s) << bot->output();
  EXPECT_EQ(s->games, 1);
  EXPECT_EQ(s->wins, 1);
  EXPECT_EQ(s->errors, 0) << "a move the server could not save is no error";
}

TEST(ClientStorage, AMoveTheServerCouldNotSaveIsOneLineAndCanBeTypedAgain) {
  FakeServer server;
  TempDir config;
  auto client = start_client(server.port(), config, {});
  client->write("/create 3\nb2\n");
  const auto hello = server.expect(is_hello);
  ASSERT_TRUE(hello) << client->output();
  EXPECT_FALSE(hello->hello().bot()) << "ttt-client is a person";
  server.welcome(*hello);
  const auto create = server.expect([](const auto& m) { return m.has_create_game(); });
  ASSERT_TRUE(create) << client->output();
  const wire::GameState game = fresh_game("tester");
  wire::ServerMessage joined;
  joined.set_in_reply_to(create->request_id());
  joined.mutable_joined()->set_side(wire::SIDE_X);
  *joined.mutable_joined()->mutable_state() = game;
  server.send(joined);

  const auto first = server.expect(is_move);
  ASSERT_TRUE(first) << client->output();
  refuse_to_store(server, *first, game);
  const std::string reason =
      "\nThe server could not store that (its database refused); nothing changed: try again\n";
  ASSERT_TRUE(client->wait_for_text(reason, 5s)) << client->output();
  client->write("b2\n");  // the player types the move again
  const auto second = server.expect(is_move);
  ASSERT_TRUE(second) << client->output();
  EXPECT_EQ(second->make_move().row(), 1);
  EXPECT_EQ(second->make_move().col(), 1);
  server.state(won_by_resignation(game, second->make_move()));
  client->close_stdin();
  EXPECT_TRUE(server.hang_up_after_the_client()) << client->output();

  ASSERT_EQ(client->wait_exit(5s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_EQ(count_of(out, "could not store"), 1u) << out;
  EXPECT_EQ(count_of(out, "    a   b   c\n"), 2u) << "the unchanged state is not drawn again:\n"
                                                  << out;
  EXPECT_NE(out.find("Game over: X wins (O resigned)\nYou won."), std::string::npos) << out;
}

TEST_F(ClientPersistenceTest, BotsFinishTheirGameAfterTheServerIsKilledMidGame) {
  auto server = std::make_unique<ServerProcess>(server_args());
  const std::uint16_t port = server->port();
  // A 7x7 game needs at least 13 moves; two careful players fill most of the
  // board (perfect play at this budget takes twice as long a move as hard
  // play at 40 ms, which left less room before the thirteenth).
  auto ann = start_bot(port, config_,
                       {"--name", "ann", "--level", "perfect", "--quick-match", "7", "--budget",
                        "150", "--seed", "1", "--log-level", "info"});
  auto ben = start_bot(port, config_,
                       {"--name", "ben", "--level", "perfect", "--quick-match", "7", "--budget",
                        "150", "--seed", "2", "--log-level", "info"});

  std::uint64_t game_id = 0;
  std::uint32_t moves_before_kill = 0;
  {
    TestClient watcher(port, Transport::kTls);
    watcher.hello("watcher");
    const auto id = game_in_progress(watcher, 10s);
    ASSERT_TRUE(id) << ann->output() << ben->output();
    game_id = *id;
    watch(watcher, game_id);
    moves_before_kill =
        watcher
            .expect_state([](const wire::GameState& s) { return s.move_count() >= 4; },
                          "four moves", 10s)
            .move_count();
    server->process().kill(SIGKILL);  // mid-game: no goodbye, nothing more saved
  }
  ASSERT_GE(moves_before_kill, 4u);
  ASSERT_LT(moves_before_kill, 13u) << "the game can't have ended yet";

  server = std::make_unique<ServerProcess>(server_args(), port);
  TestClient watcher(port, Transport::kTls);
  watcher.hello("watcher-2");
  const wire::GameState restored = watch(watcher, game_id);
  EXPECT_GE(restored.move_count(), moves_before_kill);
  const wire::GameState final_state = watcher.expect_state(is_over, "the end of the game", 20s);

  ASSERT_EQ(ann->wait_exit(20s), 0) << ann->output();
  ASSERT_EQ(ben->wait_exit(20s), 0) << ben->output();
  for (const auto* bot : {ann.get(), ben.get()}) {
    EXPECT_NE(bot->output().find("back in game"), std::string::npos) << bot->output();
  }
  const auto a = last_line_summary(ann->output());
  const auto b = last_line_summary(ben->output());
  ASSERT_TRUE(a) << ann->output();
  ASSERT_TRUE(b) << ben->output();
  for (const BotSummary& s : {*a, *b}) {
    EXPECT_EQ(s.games, 1);
    EXPECT_EQ(s.wins + s.losses + s.draws, 1);
    EXPECT_EQ(s.errors, 0);
  }
  EXPECT_EQ(a->wins, b->losses);
  EXPECT_EQ(a->draws, b->draws);

  server->process().kill(SIGTERM);
  const std::string file = (fs::path(data_.path()) / "games.txt").string();
  const auto exported =
      run_command({bin_dir() + "/ttt-server", "--db", db(), "--export-games", file});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const auto games = read_export(file);
  ASSERT_EQ(games.size(), 1u) << "one game, resumed rather than started again";
  const ExportedGame& game = games[0];
  EXPECT_EQ(game.fields.at("room"), std::to_string(game_id) + " round 1");
  EXPECT_EQ(game.fields.at("size"), "7");
  const auto marks = static_cast<std::size_t>(std::count_if(
      final_state.cells().begin(), final_state.cells().end(), [](char c) { return c != 'E'; }));
  EXPECT_EQ(game.fields.at("moves"), std::to_string(marks));
  EXPECT_EQ(game.moves.size(), marks);
  EXPECT_GT(game.moves.size(), moves_before_kill);
  EXPECT_EQ(cells_of(game, 7), final_state.cells()) << "every move, in order";
  const std::string result = final_state.status() == wire::GAME_STATUS_X_WON   ? "X"
                             : final_state.status() == wire::GAME_STATUS_O_WON ? "O"
                                                                               : "draw";
  EXPECT_EQ(game.fields.at("result"), result);
}

TEST_F(ClientPersistenceTest, BotGamesAreRatedOnlyWhenEveryBotAsksWithRated) {
  auto server = std::make_unique<ServerProcess>(server_args());
  const std::uint16_t port = server->port();
  auto bot = [&](const std::string& name, std::vector<std::string> args, bool rated) {
    args.insert(args.end(), {"--name", name, "--level", "random", "--budget", "5"});
    if (rated) args.push_back("--rated");
    return start_bot(port, config_, args);
  };
  // Each pair on a board size of its own, so the quick matches pair as meant.
  std::vector<std::unique_ptr<ChildProcess>> bots;
  bots.push_back(bot("plain-x", {"--quick-match", "3"}, false));
  bots.push_back(bot("plain-o", {"--quick-match", "3"}, false));
  bots.push_back(bot("keen-x", {"--quick-match", "4"}, true));
  bots.push_back(bot("keen-o", {"--quick-match", "4"}, true));
  bots.push_back(bot("mixed-x", {"--quick-match", "5"}, true));
  bots.push_back(bot("mixed-o", {"--quick-match", "5"}, false));
  bots.push_back(bot("host", {"--create", "3"}, true));
  const auto id = created_game_id(*bots.back(), 10s);
  ASSERT_TRUE(id) << bots.back()->output();
  bots.push_back(bot("guest", {"--join", *id}, true));
  for (const auto& b : bots) {
    ASSERT_EQ(b->wait_exit(20s), 0) << b->output();
    const auto summary = last_line_summary(b->output());
    ASSERT_TRUE(summary) << b->output();
    EXPECT_EQ(summary->games, 1) << b->output();
  }
  server->process().kill(SIGTERM);

  const std::string file = (fs::path(data_.path()) / "games.txt").string();
  const auto exported =
      run_command({bin_dir() + "/ttt-server", "--db", db(), "--export-games", file});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  std::map<std::string, std::string> rated;  // by pair: X's name up to its "-"
  for (const ExportedGame& game : read_export(file)) {
    const std::string x = game.fields.at("x");
    const std::string pair = x.substr(0, x.find('-'));
    rated[pair == x ? "host/guest" : pair] = game.fields.at("rated");
  }
  EXPECT_EQ(rated.size(), 4u);
  EXPECT_EQ(rated["plain"], "no") << "bots that don't ask play unrated games";
  EXPECT_EQ(rated["keen"], "yes") << "both asked with --rated";
  EXPECT_EQ(rated["mixed"], "no") << "one bot did not ask";
  EXPECT_EQ(rated["host/guest"], "yes") << "--create and --join with --rated";
}

TEST_F(ClientPersistenceTest, TopHistoryAndReplayShowAFinishedGame) {
  std::optional<ServerProcess> running(std::in_place, server_args());
  ServerProcess& server = *running;
  auto player = start_client(server.port(), config_, {});
  player->write(std::string("/create 3 bot random rated\n") + kEveryCell);
  player->close_stdin();
  ASSERT_EQ(player->wait_exit(20s), 0) << player->output();
  const std::string& game = player->output();
  EXPECT_NE(game.find("as tester (rating 1200)."), std::string::npos) << game;
  EXPECT_NE(game.find("Game 1, 3x3, rated: tester (X, 1200) vs bot (random) (O, 1200)"),
            std::string::npos)
      << game;
  std::smatch over;
  ASSERT_TRUE(std::regex_search(game, over, std::regex("Game over: ([^\n]*)\n"))) << game;
  const std::string words = over[1];  // as the game screen said it

  auto reader = start_client(server.port(), config_, {});
  reader->write("/top\n/history\n/history bot (random)\n/history nobody\n/replay 99\n");
  reader->close_stdin();
  ASSERT_EQ(reader->wait_exit(10s), 0) << reader->output();
  const std::string& out = reader->output();
  EXPECT_NE(out.find("rank  name                rating  games     W     L     D\n"),
            std::string::npos)
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(\n   [12]  tester +\d+      1 )"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(\n   [12]  bot \(random\) +\d+      1 )")))
      << out;
  // The server's own bot is marked so, and only it.
  EXPECT_TRUE(
      std::regex_search(out, std::regex(R"(\n   [12]  bot \(random\) [^\n]*the server's bot)")))
      << out;
  EXPECT_FALSE(std::regex_search(out, std::regex(R"(\n   [12]  tester [^\n]*server's)"))) << out;
  EXPECT_NE(out.find("Recent games of tester, newest first:"), std::string::npos) << out;
  EXPECT_NE(out.find("Recent games of bot (random), newest first:"), std::string::npos) << out;
  std::smatch row;
  ASSERT_TRUE(std::regex_search(
      out, row,
      std::regex(R"(\n +(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d  3x3 +tester +bot \(random\) +)"
                 R"((X wins|O wins|draw)[^\n]*rated +(\d+)\n)")))
      << out;
  EXPECT_NE(row[0].str().find("  " + words + "  "), std::string::npos)
      << "/history words the result as the game screen did (" << words << "):\n"
      << out;
  const std::string record = row[1];
  const int moves = std::stoi(row[3]);
  EXPECT_GE(moves, 5);
  EXPECT_NE(out.find("No player called 'nobody' on this server"), std::string::npos) << out;
  EXPECT_NE(out.find("No finished game has record 99 (/history shows the record ids)"),
            std::string::npos)
      << out;

  auto replayer = start_client(server.port(), config_, {});
  replayer->write("/replay " + record + "\n");
  replayer->close_stdin();
  ASSERT_EQ(replayer->wait_exit(10s), 0) << replayer->output();
  const std::string& replay = replayer->output();
  EXPECT_NE(replay.find("Replay of record " + record + " (game 1), "), std::string::npos) << replay;
  EXPECT_NE(replay.find("tester (X) vs bot (random) (O): "), std::string::npos) << replay;
  EXPECT_NE(replay.find("): tester (X) played a1.\n    a   b   c\n"), std::string::npos) << replay;
  EXPECT_EQ(count_of(replay, "Move "), static_cast<std::size_t>(moves)) << replay;
  EXPECT_NE(replay.find("Move " + std::to_string(moves) + " of " + std::to_string(moves)),
            std::string::npos)
      << replay;
  EXPECT_EQ(count_of(replay, "Game over:"), 1u) << replay;
  EXPECT_NE(replay.find("Game over: " + words + "\n"), std::string::npos) << replay;
  EXPECT_NE(replay.find("(O): " + words + " after "), std::string::npos) << replay;

  running.reset();  // the export reads the database once the server is gone
  const std::string file = (fs::path(data_.path()) / "games.txt").string();
  const auto exported =
      run_command({bin_dir() + "/ttt-server", "--db", db(), "--export-games", file});
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const auto games = read_export(file);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].fields.at("outcome"), words);
}

TEST_F(ClientPersistenceTest, RecordsCommandsOnAServerWithoutADatabaseSaySo) {
  ServerProcess server({"--db", "none"});
  auto client = start_client(server.port(), config_, {});
  client->write("/history\n/replay 1\n");
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(10s), 0) << client->output();
  EXPECT_NE(client->output().find("This server keeps no game records (it runs without a "
                                  "database), so /history has nothing to show"),
            std::string::npos)
      << client->output();
  EXPECT_NE(client->output().find("so /replay has nothing to show"), std::string::npos)
      << client->output();
}

TEST_F(ClientPersistenceTest, ANameWithoutItsSecretIsRefusedClearly) {
  ServerProcess server(server_args());
  auto owner = start_client(server.port(), config_, {"--name", "alice"});
  owner->close_stdin();
  ASSERT_EQ(owner->wait_exit(10s), 0) << owner->output();

  TempDir elsewhere;  // another account: no secret, so not the name
  auto client = start_client(server.port(), elsewhere, {"--name", "alice"});
  client->close_stdin();
  EXPECT_EQ(client->wait_exit(10s), 3) << client->output();
  EXPECT_NE(client->output().find("ttt-client: the name 'alice' on 127.0.0.1:" +
                                  std::to_string(server.port()) + " belongs to someone else"),
            std::string::npos)
      << client->output();
  EXPECT_NE(client->output().find(elsewhere.path() + "/ttt/secrets/127.0.0.1-"), std::string::npos)
      << "says where the secret should be:\n"
      << client->output();
  EXPECT_NE(client->output().find("--name NAME"), std::string::npos) << client->output();

  auto bot = start_bot(server.port(), elsewhere, {"--name", "alice"});
  EXPECT_EQ(bot->wait_exit(10s), 1) << bot->output();
  EXPECT_NE(bot->output().find("ttt-bot: alice: the name 'alice' on 127.0.0.1:"), std::string::npos)
      << bot->output();
  const auto s = last_line_summary(bot->output());
  ASSERT_TRUE(s) << bot->output();
  EXPECT_EQ(s->games, 0);
  EXPECT_EQ(s->errors, 1) << "one refusal, one error";
}

TEST(ServerResume, TheJoinedAfterAResumedWelcomeAnswersTheHello) {
  TestServer server;
  TestClient alice(server.port());
  TestClient bob(server.port());
  const std::string token = alice.hello("alice").resume_token();
  bob.hello("bob");
  alice.create(3);
  const std::uint64_t game = alice.expect_joined().state().game_id();
  bob.join(game);
  bob.expect_joined();

  TestClient again(server.port());
  wire::ClientMessage hello;
  hello.set_request_id(77);
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  again.send(hello);
  const auto joined = again.expect([](const wire::ServerMessage& m) { return m.has_joined(); },
                                   "Joined after the resume");
  EXPECT_EQ(joined.in_reply_to(), 77u);
  EXPECT_EQ(joined.joined().state().game_id(), game);
}

}  // namespace
}  // namespace ttt::testing

namespace ttt::testing {
namespace {

// How many players wait in quick match, asked of the server.
std::uint64_t queued_players(TestClient& client) {
  client.simple([](wire::ClientMessage& m) { m.mutable_get_stats(); });
  return client.expect([](const wire::ServerMessage& m) { return m.has_stats(); }, "stats")
      .stats()
      .queued();
}

// Waits (bounded) until `count` players wait in quick match.
bool wait_queued(TestClient& client, std::uint64_t count, std::chrono::milliseconds timeout) {
  return eventually([&] { return queued_players(client) == count; }, timeout, 50ms);
}

void expect_clean_finish(ChildProcess& bot, int games) {
  ASSERT_EQ(bot.wait_exit(20s), 0) << bot.output();
  const auto summary = last_line_summary(bot.output());
  ASSERT_TRUE(summary) << bot.output();
  EXPECT_EQ(summary->games, games) << bot.output();
  EXPECT_EQ(summary->errors, 0) << bot.output();
}

// A server restart: a bot waiting in quick match, a bot waiting in the game it
// opened, a watcher and two bots mid-game all keep their places across a
// kill -9 (or an orderly SIGTERM) of the server: each puts itself back and
// finishes with errors=0.
class ServerRestart : public ClientPersistenceTest, public ::testing::WithParamInterface<int> {};

TEST_P(ServerRestart, EveryonesPlaceSurvivesIt) {
  auto server = std::make_unique<ServerProcess>(server_args());
  const std::uint16_t port = server->port();
  // At the default log level (warn): the restart is said even there.
  const std::vector<std::string> careful = {"--level", "hard", "--budget", "40"};
  const std::vector<std::string> slow = {"--level", "perfect", "--budget", "150"};
  auto with = [](std::vector<std::string> args, const std::vector<std::string>& play) {
    args.insert(args.end(), play.begin(), play.end());
    return args;
  };
  auto queuer = start_bot(port, config_, with({"--name", "queuer", "--quick-match", "5"}, careful));
  auto opener = start_bot(port, config_, with({"--name", "opener", "--create", "4"}, careful));
  TestClient probe(port, Transport::kTls);
  probe.hello("probe");
  ASSERT_TRUE(created_game_id(*opener, 10s)) << opener->output();
  ASSERT_TRUE(wait_queued(probe, 1, 10s)) << queuer->output();

  // The watcher is in the lobby before the game it watches starts: once the
  // game is found, all that stands between it and the server's stop is one
  // /watch. The game fills a 9x9 board (81 moves), which takes perfect play
  // at this budget about 1.5 s.
  auto viewer = start_client(port, config_, {"--name", "viewer"});
  ASSERT_TRUE(viewer->wait_for_text("Type /help", 10s)) << viewer->output();
  auto ann =
      start_bot(port, config_, with({"--name", "ann", "--quick-match", "9", "--seed", "1"}, slow));
  auto ben =
      start_bot(port, config_, with({"--name", "ben", "--quick-match", "9", "--seed", "2"}, slow));
  const auto playing = game_in_progress(probe, 10s);
  ASSERT_TRUE(playing) << ann->output() << ben->output();
  viewer->write("/watch " + std::to_string(*playing) + "\n");
  ASSERT_TRUE(viewer->wait_for_text("atching", 10s)) << viewer->output();
  const std::size_t viewer_before = viewer->output().size();
  const std::size_t opener_before = opener->output().size();
  server->process().kill(GetParam());

  server = std::make_unique<ServerProcess>(server_args(), port);
  TestClient probe2(port, Transport::kTls);
  probe2.hello("probe2");
  // The waiting bot queues again and the opener opens a new game: others
  // pair with them, and everyone finishes.
  ASSERT_TRUE(wait_queued(probe2, 1, 20s)) << queuer->output();
  auto partner =
      start_bot(port, config_, with({"--name", "partner", "--quick-match", "5"}, careful));
  std::string reopened;
  ASSERT_TRUE(opener->wait_for(
      [&](const std::string& out) {
        const std::string after = out.substr(opener_before);
        const std::regex line(R"(: waiting for an opponent in game (\d+)\n)");
        std::smatch match;
        if (!std::regex_search(after, match, line)) return false;
        reopened = match[1];
        return true;
      },
      20s))
      << opener->output();
  auto joiner = start_bot(port, config_, with({"--name", "joiner", "--join", reopened}, careful));

  for (ChildProcess* bot :
       {ann.get(), ben.get(), queuer.get(), opener.get(), partner.get(), joiner.get()}) {
    expect_clean_finish(*bot, 1);
  }
  EXPECT_EQ(count_of(queuer->output(), "the server restarted"), 1u) << queuer->output();
  EXPECT_EQ(count_of(opener->output(), "the server restarted"), 1u) << opener->output();
  EXPECT_NE(ann->output().find("the server restarted; back in game"), std::string::npos)
      << ann->output();

  ASSERT_TRUE(viewer->wait_for_text("Game over:", 20s, viewer_before)) << viewer->output();
  const std::string after = viewer->output().substr(viewer_before);
  EXPECT_EQ(count_of(after, "The server restarted"), 1u) << after;
  EXPECT_NE(after.find("Watching game " + std::to_string(*playing) + " again."), std::string::npos)
      << after;
  viewer->write("/quit\n");
  viewer->close_stdin();
  EXPECT_TRUE(viewer->wait_exit(10s)) << viewer->output();
}

INSTANTIATE_TEST_SUITE_P(Signals, ServerRestart, ::testing::Values(SIGKILL, SIGTERM),
                         [](const auto& param_info) {
                           return std::string(param_info.param == SIGKILL ? "Kill" : "Term");
                         });

}  // namespace
}  // namespace ttt::testing

namespace ttt::testing {
namespace {

// A server restart with the console client: a player waiting in quick match, one
// waiting in the 4x4 game she opened, one idle in the lobby and two seated
// in a game keep their places across a kill -9 (or SIGTERM) of the server.
// Each keeps its name by its kept resume token (never "signing in again"),
// says once that the server restarted, and is put back where it was.
class ConsoleRestart : public ClientPersistenceTest, public ::testing::WithParamInterface<int> {};

TEST_P(ConsoleRestart, EveryPlayerIsPutBackWhereTheyWere) {
  auto server = std::make_unique<ServerProcess>(server_args());
  const std::uint16_t port = server->port();
  auto quicker = start_client(port, config_, {"--name", "quicker"});
  auto opener = start_client(port, config_, {"--name", "opener"});
  auto idler = start_client(port, config_, {"--name", "idler"});
  auto alice = start_client(port, config_, {"--name", "alice"});
  auto bob = start_client(port, config_, {"--name", "bob"});
  quicker->write("/quick 5\n");
  ASSERT_TRUE(quicker->wait_for_text("Waiting for another player who wants a 5x5 game", 10s))
      << quicker->output();
  opener->write("/create 4\n");
  ASSERT_TRUE(opener->wait_for_text("Waiting for an opponent to join game 1.", 10s))
      << opener->output();
  ASSERT_TRUE(idler->wait_for_text("Connected to", 10s)) << idler->output();
  alice->write("/create 3 clock 5+0\n");  // a Fischer clock, kept across the restart
  ASSERT_TRUE(alice->wait_for_text("You play X in game 2.", 10s)) << alice->output();
  bob->write("/join 2\n");
  ASSERT_TRUE(bob->wait_for_text("You play O in game 2.", 10s)) << bob->output();
  alice->write("a1\n");
  ASSERT_TRUE(bob->wait_for_text("alice (X) played a1.", 10s)) << bob->output();

  std::vector<ChildProcess*> everyone = {quicker.get(), opener.get(), idler.get(), alice.get(),
                                         bob.get()};
  std::vector<std::size_t> before;
  for (ChildProcess* who : everyone) before.push_back(who->output().size());
  server->process().kill(GetParam());
  server = std::make_unique<ServerProcess>(server_args(), port);

  ASSERT_TRUE(quicker->wait_for_text("Back in the quick-match queue.", 20s, before[0]))
      << quicker->output();
  ASSERT_TRUE(opener->wait_for_text("Opening your game again.", 20s, before[1]))
      << opener->output();
  ASSERT_TRUE(idler->wait_for_text("Reconnected to 127.0.0.1:", 20s, before[2])) << idler->output();
  ASSERT_TRUE(alice->wait_for_text("The server restarted: back in game 2.", 20s, before[3]))
      << alice->output();
  ASSERT_TRUE(bob->wait_for_text("The server restarted: back in game 2.", 20s, before[4]))
      << bob->output();
  EXPECT_TRUE(bob->wait_for_text("Game 2, 3x3, clock 5+0, rated: alice (X, 1200) vs bob (O, 1200)",
                                 10s, before[4]))
      << bob->output();
  // bob's clock runs again from 5:00 (he has not moved): the restart cost nothing.
  EXPECT_TRUE(bob->wait_for_text("(X 4:", 10s, before[4]) ||
              bob->wait_for_text("(X 5:00, O 4:5", 1s, before[4]))
      << bob->output();

  // The game goes on from its position; the reopened game has its size; the
  // queue place pairs with a newcomer who asks for the same board.
  bob->write("b1\n");
  ASSERT_TRUE(alice->wait_for_text("bob (O) played b1.", 10s, before[3])) << alice->output();
  alice->write("a2\n");
  bob->write("b2\n");
  alice->write("a3\n");
  for (ChildProcess* who : {alice.get(), bob.get()}) {
    EXPECT_TRUE(who->wait_for_text("Game over: X wins (column a)", 10s)) << who->output();
  }
  const std::regex game_line(R"(Game (\d+), 4x4, rated: opener \(X, 1200\) vs \(free\) \(O\))");
  std::string game;
  ASSERT_TRUE(opener->wait_for(
      [&](const std::string& out) {
        const std::string reopened = out.substr(before[1]);
        std::smatch match;
        if (!std::regex_search(reopened, match, game_line)) return false;
        game = match[1].str();
        return true;
      },
      10s))
      << opener->output();
  EXPECT_NE(game, "1") << "a new game, with the settings of the one before";
  auto joiner = start_client(port, config_, {"--name", "joiner"});
  joiner->write("/join " + game + "\n");
  EXPECT_TRUE(joiner->wait_for_text("You play O in game " + game + ".", 10s)) << joiner->output();
  auto newcomer = start_client(port, config_, {"--name", "newcomer"});
  newcomer->write("/quick 5\n");
  EXPECT_TRUE(newcomer->wait_for_text("You play", 10s)) << newcomer->output();
  EXPECT_TRUE(quicker->wait_for_text("You play", 10s, before[0])) << quicker->output();

  for (std::size_t i = 0; i < everyone.size(); ++i) {
    const std::string after = everyone[i]->output().substr(before[i]);
    EXPECT_EQ(count_of(after, "The server restarted"), 1u) << after;
    EXPECT_EQ(after.find("signing in again"), std::string::npos) << "the kept token works:\n"
                                                                 << after;
  }
  for (ChildProcess* who : {quicker.get(), opener.get(), idler.get(), alice.get(), bob.get(),
                            joiner.get(), newcomer.get()}) {
    who->write("/quit\n");
    who->close_stdin();
    EXPECT_TRUE(who->wait_exit(10s)) << who->output();
  }
}

INSTANTIATE_TEST_SUITE_P(Signals, ConsoleRestart, ::testing::Values(SIGKILL, SIGTERM),
                         [](const auto& param_info) {
                           return std::string(param_info.param == SIGKILL ? "Kill" : "Term");
                         });

}  // namespace
}  // namespace ttt::testing
