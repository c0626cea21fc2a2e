// The server with a database: names owned by their secret, games that
// survive a restart and a kill -9, ratings, the leaderboard, history, replay,
// a clear refusal of an unusable database, and SIGINT saying Goodbye while the
// game in progress stays on disk.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "client_support/child_process.hpp"
#include "store/sqlite_store.hpp"
#include "support/eventually.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;
using wire::ServerMessage;

bool in_progress(const wire::GameState& s) { return s.status() == wire::GAME_STATUS_IN_PROGRESS; }

server::ServerConfig config_on(const std::string& db) {
  auto config = test_config();
  config.db = db;
  return config;
}

// Plays moves alternately from x and o, starting with whoever is to move
// after `already` moves, and waits until both have seen each one.
wire::GameState play(TestClient& x, TestClient& o, std::uint32_t already,
                     std::initializer_list<std::pair<int, int>> moves) {
  wire::GameState last;
  for (auto [row, col] : moves) {
    (already % 2 == 0 ? x : o).move(row, col);
    const std::uint32_t count = ++already;
    for (TestClient* c : {&x, &o}) {
      last = c->expect_state([count](const wire::GameState& s) { return s.move_count() == count; },
                             "move " + std::to_string(count));
    }
  }
  return last;
}

std::uint64_t start_game(TestClient& x, TestClient& o) {
  x.create(3);
  const auto game = x.expect_joined().state().game_id();
  o.join(game);
  o.expect_joined();
  x.expect_state(in_progress, "the start");
  return game;
}

// The leaderboard, as `client` asks for it.
wire::Leaderboard leaderboard(TestClient& client) {
  wire::ClientMessage top;
  top.mutable_get_leaderboard();
  client.send(top);
  return client
      .expect([](const ServerMessage& m) { return m.has_leaderboard(); }, "the leaderboard")
      .leaderboard();
}

wire::Error hello_error(std::uint16_t port, const std::string& name, const std::string& secret) {
  TestClient c(port);
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_secret(secret);
  c.send(m);
  auto reply = c.expect([](const ServerMessage& r) { return r.has_error() || r.has_welcome(); },
                        "a reply to Hello");
  return reply.error();
}

class PersistenceTest : public ::testing::Test {
 protected:
  std::string db() const { return (fs::path(dir_.path()) / "ttt.db").string(); }
  TempDir dir_;
};

TEST_F(PersistenceTest, ANameBelongsToWhoeverHoldsItsSecret) {
  TestServer server(config_on(db()));
  wire::Welcome first;
  {
    TestClient alice(server.port());
    first = alice.hello("alice");
    EXPECT_EQ(first.secret().size(), 32u);
  }
  EXPECT_EQ(hello_error(server.port(), "alice", "").code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_EQ(hello_error(server.port(), "alice", "guess").code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_EQ(hello_error(server.port(), "ALICE", "").code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(hello_error(server.port(), "alice", "").fatal());
  TestClient again(server.port());
  const auto welcome = again.hello("alice");  // the test client keeps the secret
  EXPECT_EQ(welcome.player_id(), first.player_id());
  EXPECT_TRUE(welcome.secret().empty()) << "a secret is issued once";
  // The server's bots' names are never free.
  EXPECT_EQ(hello_error(server.port(), "bot (perfect)", "").code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_EQ(hello_error(server.port(), "Bot (anything)", "").code(), wire::ERROR_CODE_NAME_TAKEN);
}

TEST_F(PersistenceTest, NamesAndRatingsOutliveTheServer) {
  std::uint64_t alice_id = 0;
  {
    TestServer server(config_on(db()));
    TestClient alice(server.port());
    TestClient bob(server.port());
    alice_id = alice.hello("alice").player_id();
    bob.hello("bob");
    start_game(alice, bob);
    const auto end = play(alice, bob, 0, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}});
    // The final state already shows the new ratings.
    EXPECT_DOUBLE_EQ(end.x().rating(), 1216);
    EXPECT_DOUBLE_EQ(end.o().rating(), 1184);
  }
  TestServer server(config_on(db()));
  EXPECT_EQ(hello_error(server.port(), "alice", "").code(), wire::ERROR_CODE_NAME_TAKEN);
  TestClient alice(server.port());
  const auto welcome = alice.hello("alice");
  EXPECT_EQ(welcome.player_id(), alice_id);
  EXPECT_DOUBLE_EQ(welcome.rating(), 1216);
  const auto board = leaderboard(alice);
  ASSERT_EQ(board.entries_size(), 2);
  EXPECT_EQ(board.entries(0).name(), "alice");
  EXPECT_DOUBLE_EQ(board.entries(0).rating(), 1216);
  EXPECT_EQ(board.entries(0).wins(), 1u);
  EXPECT_EQ(board.entries(1).name(), "bob");
  EXPECT_DOUBLE_EQ(board.entries(1).rating(), 1184);
  EXPECT_EQ(board.entries(1).losses(), 1u);
}

TEST_F(PersistenceTest, AGameInProgressSurvivesARestartAndFinishesOnRecord) {
  std::string x_token, o_token;
  std::uint64_t game = 0;
  {
    TestServer server(config_on(db()));
    TestClient alice(server.port());
    TestClient bob(server.port());
    alice.hello("alice");
    bob.hello("bob");
    game = start_game(alice, bob);
    play(alice, bob, 0, {{1, 1}, {0, 0}, {2, 2}});
    // The latest tokens: every Hello issues a new one (here, sessions taken
    // over from another connection).
    TestClient alice2(server.port());
    x_token = alice2.hello("alice", "", true).resume_token();
    alice2.expect_joined();
    TestClient bob2(server.port());
    o_token = bob2.hello("bob", "", true).resume_token();
    bob2.expect_joined();
  }
  TestServer server(config_on(db()));
  TestClient alice(server.port());
  TestClient bob(server.port());
  EXPECT_TRUE(alice.hello("", x_token).resumed());
  const auto joined = alice.expect_joined();
  EXPECT_EQ(joined.state().game_id(), game);
  EXPECT_EQ(joined.state().cells(), "OEEEXEEEX");
  EXPECT_EQ(joined.state().to_move(), wire::SIDE_O);
  EXPECT_TRUE(bob.hello("", o_token).resumed());
  bob.expect_joined();
  const auto end = play(alice, bob, 3, {{0, 1}, {2, 0}, {0, 2}});
  EXPECT_EQ(end.status(), wire::GAME_STATUS_O_WON);
  // New games don't reuse the restored game's id.
  TestClient carol(server.port());
  carol.hello("carol");
  carol.create(3);
  EXPECT_GT(carol.expect_joined().state().game_id(), game);

  server::SqliteStore store(db());
  const auto finished = store.finished_games();
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].status, "o_won");
  EXPECT_EQ(finished[0].moves.size(), 6u);
}

// A game against the bot whose player goes away ends after --bot-game-grace;
// one restored after a restart waits the whole --reconnect-grace: its player
// was away through no choice of theirs.
TEST_F(PersistenceTest, ARestoredGameAgainstTheBotWaitsTheFullGraceForItsPlayer) {
  std::string token;
  std::uint64_t game = 0;
  {
    TestServer server(config_on(db()));
    TestClient alice(server.port());
    token = alice.hello("alice").resume_token();
    alice.create(3, false, true, wire::BOT_LEVEL_RANDOM);
    game = alice.expect_joined().state().game_id();
    alice.move(1, 1);
    alice.expect_state([](const wire::GameState& s) { return s.move_count() == 2; },
                       "the bot's reply");
  }
  auto config = config_on(db());
  config.lobby.bot_game_grace = std::chrono::milliseconds(100);
  config.lobby.reconnect_grace = std::chrono::milliseconds(60'000);
  TestServer server(config);
  // Ten times the bot game's grace, well within the reconnect grace: the
  // test is that a timer does not fire, so that time must pass.
  std::this_thread::sleep_for(std::chrono::milliseconds(1'000));
  {
    TestClient alice(server.port());
    EXPECT_TRUE(alice.hello("", token).resumed());
    const auto joined = alice.expect_joined();
    EXPECT_EQ(joined.state().game_id(), game);
    EXPECT_TRUE(in_progress(joined.state()));
    EXPECT_EQ(joined.state().move_count(), 2u);
  }
  // Once back, the game is an ordinary game against the bot again: away
  // past --bot-game-grace, it ends.
  TestClient carol(server.port());
  carol.hello("carol");
  eventually(
      [&] {
        wire::ClientMessage list;
        list.mutable_list_games();
        carol.send(list);
        return carol.expect([](const ServerMessage& m) { return m.has_game_list(); }, "the list")
                   .game_list()
                   .games_size() == 0;
      },
      std::chrono::seconds(10), std::chrono::milliseconds(100));
  wire::ClientMessage list;
  list.mutable_list_games();
  carol.send(list);
  EXPECT_EQ(carol.expect([](const ServerMessage& m) { return m.has_game_list(); }, "the list")
                .game_list()
                .games_size(),
            0)
      << "the game against the bot ended once its player left again";
}

TEST_F(PersistenceTest, HistoryAndReplayShowFinishedGames) {
  TestServer server(config_on(db()));
  TestClient alice(server.port());
  TestClient bob(server.port());
  alice.hello("alice");
  bob.hello("bob");
  start_game(alice, bob);
  play(alice, bob, 0, {{1, 1}, {0, 0}, {0, 1}, {2, 2}});  // two moves each: rated
  alice.simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  bob.expect_state(is_over, "the resignation");

  wire::ClientMessage ask;
  ask.mutable_get_history()->set_name("BOB");
  alice.send(ask);
  const auto history =
      alice.expect([](const ServerMessage& m) { return m.has_history(); }, "history").history();
  EXPECT_EQ(history.name(), "bob");
  ASSERT_EQ(history.games_size(), 1);
  const auto& record = history.games(0);
  EXPECT_EQ(record.status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(record.end_reason(), wire::END_REASON_RESIGNATION);
  EXPECT_EQ(record.move_count(), 4u);
  EXPECT_TRUE(record.rated());
  EXPECT_EQ(record.moves_size(), 0);

  wire::ClientMessage replay;
  replay.mutable_get_replay()->set_record_id(record.record_id());
  bob.send(replay);
  const auto game =
      bob.expect([](const ServerMessage& m) { return m.has_replay(); }, "replay").replay().game();
  ASSERT_EQ(game.moves_size(), 4);
  EXPECT_EQ(game.moves(0).row(), 1);
  EXPECT_EQ(game.moves(1).col(), 0);
  EXPECT_GE(game.moves(1).at_ms(), game.moves(0).at_ms());

  replay.mutable_get_replay()->set_record_id(9999);
  bob.send(replay);
  bob.expect_error(wire::ERROR_CODE_NO_RECORD);
  ask.mutable_get_history()->set_name("nobody");
  bob.send(ask);
  bob.expect_error(wire::ERROR_CODE_NO_RECORD);
}

TEST_F(PersistenceTest, BotGamesAreUnratedUnlessAsked) {
  TestServer server(config_on(db()));
  TestClient alice(server.port());
  alice.hello("alice");
  for (auto rated : {wire::RATED_DEFAULT, wire::RATED_YES}) {
    wire::ClientMessage create;
    create.mutable_create_game()->set_size(3);
    create.mutable_create_game()->set_vs_bot(true);
    create.mutable_create_game()->set_bot_level(wire::BOT_LEVEL_RANDOM);
    create.mutable_create_game()->set_rated(rated);
    alice.send(create);
    EXPECT_EQ(alice.expect_joined().state().rated(), rated == wire::RATED_YES);
    // Both sides move twice (a game ended before that moves no rating),
    // then alice resigns.
    alice.move(1, 1);
    const auto replied = alice.expect_state(
        [](const wire::GameState& s) { return s.move_count() == 2; }, "the bot's reply");
    const auto free_cell = static_cast<int>(replied.cells().find('E'));
    alice.move(free_cell / 3, free_cell % 3);
    alice.expect_state([](const wire::GameState& s) { return s.move_count() >= 4; },
                       "the bot's second reply");
    alice.simple([](wire::ClientMessage& m) { m.mutable_resign(); });
    alice.expect_state(is_over, "the resignation");
    alice.simple([](wire::ClientMessage& m) { m.mutable_leave(); });
    alice.expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
  }
  const auto board = leaderboard(alice);
  ASSERT_EQ(board.entries_size(), 2);
  EXPECT_EQ(board.entries(0).name(), "bot (random)");
  EXPECT_DOUBLE_EQ(board.entries(0).rating(), 1216);  // only the rated game counted
  EXPECT_EQ(board.entries(0).games(), 2u);
  EXPECT_DOUBLE_EQ(board.entries(1).rating(), 1184);
}

TEST_F(PersistenceTest, WithoutADatabaseThereIsNoHistory) {
  auto config = test_config();
  config.db = "none";
  TestServer server(config);
  TestClient alice(server.port());
  alice.hello("alice");
  wire::ClientMessage ask;
  ask.mutable_get_history();
  alice.send(ask);
  EXPECT_FALSE(alice.expect_error(wire::ERROR_CODE_NO_DATABASE).fatal());
}

TEST_F(PersistenceTest, AnUnusableDatabaseStopsTheServerWithAClearError) {
  std::ofstream(db()) << "definitely not an SQLite database, whatever the name says";
  try {
    server::Server server(config_on(db()));
    FAIL() << "the server started on a corrupt database";
  } catch (const server::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find(db()), std::string::npos) << e.what();
  }
  // The real program says so and exits non-zero.
  const auto result = run_command({bin_dir() + "/ttt-server", "--port", "0", "--db", db()}, 10s);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("unusable"), std::string::npos) << result.output;
}

TEST_F(PersistenceTest, KillDashNineMidGameLosesNothing) {
  auto server =
      std::make_unique<ServerProcess>(std::vector<std::string>{"--db", db(), "--no-tls"}, 0);
  const std::uint16_t port = server->port();
  std::string x_token, o_token;
  {
    TestClient alice(port);
    TestClient bob(port);
    x_token = alice.hello("alice").resume_token();
    o_token = bob.hello("bob").resume_token();
    start_game(alice, bob);
    play(alice, bob, 0, {{0, 0}, {1, 1}, {2, 2}, {0, 2}});
    server->process().kill(9);  // no chance to say or save anything more
  }
  server =
      std::make_unique<ServerProcess>(std::vector<std::string>{"--db", db(), "--no-tls"}, port);
  TestClient alice(port);
  TestClient bob(port);
  ASSERT_TRUE(alice.hello("", x_token).resumed());
  EXPECT_EQ(alice.expect_joined().state().cells(), "XEOEOEEEX");
  ASSERT_TRUE(bob.hello("", o_token).resumed());
  bob.expect_joined();
  const auto end = play(alice, bob, 4, {{2, 0}, {1, 0}, {1, 2}, {2, 1}, {0, 1}});
  EXPECT_EQ(end.status(), wire::GAME_STATUS_DRAW);
  server->process().kill(15);
  server::SqliteStore store(db());
  const auto finished = store.finished_games();
  ASSERT_EQ(finished.size(), 1u);
  ASSERT_EQ(finished[0].moves.size(), 9u);
  EXPECT_EQ(finished[0].moves[3].row, 0);
  EXPECT_EQ(finished[0].moves[3].col, 2);
  EXPECT_EQ(finished[0].status, "draw");
}

TEST_F(PersistenceTest, SigintSaysGoodbyeToEveryClientAndExitsZero) {
  ServerProcess server({"--db", db(), "--log-level", "info", "--no-tls"});
  auto alice = std::make_unique<TestClient>(server.port());
  auto bob = std::make_unique<TestClient>(server.port());
  auto carol = std::make_unique<TestClient>(server.port());  // in the lobby, in no game
  alice->hello("alice");
  bob->hello("bob");
  carol->hello("carol");
  start_game(*alice, *bob);
  play(*alice, *bob, 0, {{1, 1}, {0, 0}});

  ASSERT_EQ(::kill(server.process().pid(), SIGINT), 0);
  for (auto* client : {&alice, &bob, &carol}) {
    // With a database the game is not ended: the next word is Goodbye.
    const auto m = (*client)->expect(
        [](const ServerMessage& r) {
          return r.has_goodbye() || (r.has_state() && is_over(r.state()));
        },
        "Goodbye");
    ASSERT_TRUE(m.has_goodbye()) << m.DebugString();
    EXPECT_EQ(m.goodbye().reason(), "interrupted (SIGINT)");
    EXPECT_TRUE((*client)->wait_closed());
    client->reset();  // closes our end too, as a real client does on the server's close
  }
  EXPECT_EQ(server.process().wait_exit(10s), 0) << server.process().output();
  EXPECT_NE(server.process().output().find("shutting down: interrupted (SIGINT)"),
            std::string::npos)
      << server.process().output();

  // The game in progress waits on disk for the next start.
  server::SqliteStore store(db());
  const auto unfinished = store.load_unfinished_games();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].moves.size(), 2u);
  EXPECT_TRUE(store.finished_games().empty());
}

}  // namespace
}  // namespace ttt::testing
