// The SQLite store and its writer: schema, migration, round trips, refusals
// of unusable files, group commit and failed writes that lose nothing else.
#include "store/sqlite_store.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "store/game_export.hpp"
#include "store/record_outcome.hpp"
#include "store/store_writer.hpp"
#include "support/eventually.hpp"

namespace ttt::server {
namespace {

namespace fs = std::filesystem;

// A fresh directory for database files, removed afterwards.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ttt-store-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name = "ttt.db") const { return (dir_ / name).string(); }

  fs::path dir_;
};

StoredPlayer player(std::int64_t id, const std::string& name) {
  StoredPlayer p;
  p.id = id;
  p.name = name;
  p.salt = "salt";
  p.secret_hash = "hash" + name;
  return p;
}

GameRecord game(std::int64_t id, std::int64_t x, std::int64_t o) {
  GameRecord g;
  g.id = id;
  g.room_id = 10 + id;
  g.size = 3;
  g.win_length = 3;
  g.x_player = x;
  g.o_player = o;
  g.rated = true;
  g.started_ms = 1'000;
  return g;
}

TEST_F(StoreTest, ResultsAddUpAndSavingAPlayerAgainChangesNothing) {
  SqliteStore store(":memory:");
  store.save_player(player(1, "alice"));
  store.add_result({.player_id = 1, .rating_change = 16, .wins = 1});
  store.add_result({.player_id = 1, .rating_change = -10.5, .losses = 1});
  store.add_result({.player_id = 1, .rating_change = 0, .draws = 1});
  store.save_player(player(1, "alice"));  // e.g. a start written again: no reset
  const auto players = store.load_players();
  ASSERT_EQ(players.size(), 1u);
  EXPECT_DOUBLE_EQ(players[0].rating, 1200 + 16 - 10.5);
  EXPECT_EQ(players[0].games_played, 3);
  EXPECT_EQ(players[0].wins, 1);
  EXPECT_EQ(players[0].losses, 1);
  EXPECT_EQ(players[0].draws, 1);
}

TEST_F(StoreTest, KeepsPlayersGamesAndMovesAcrossReopening) {
  {
    SqliteStore store(path());
    store.save_player(player(1, "alice"));
    store.save_player(player(2, "bob"));
    store.begin_game(game(1, 1, 2));
    store.add_move(1, 0, {1, 1, 1'100});
    store.add_move(1, 1, {0, 0, 1'200});
    store.end_game(1, "o_won", "resignation", 1'300);
    store.begin_game(game(2, 2, 1));
    store.add_move(2, 0, {2, 2, 2'000});
    store.save_token(1, "tokenhash");
  }
  SqliteStore store(path());
  const auto players = store.load_players();
  ASSERT_EQ(players.size(), 2u);
  EXPECT_EQ(players[0].name, "alice");
  EXPECT_EQ(players[1].secret_hash, "hashbob");
  const auto finished = store.finished_games();
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].x_name, "alice");
  EXPECT_EQ(finished[0].reason, "resignation");
  ASSERT_EQ(finished[0].moves.size(), 2u);
  EXPECT_EQ(finished[0].moves[1].row, 0);
  EXPECT_EQ(finished[0].moves[1].at_ms, 1'200);
  const auto unfinished = store.load_unfinished_games();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].room_id, 12);
  EXPECT_EQ(unfinished[0].moves.size(), 1u);
  EXPECT_EQ(store.load_tokens(),
            (std::vector<std::pair<std::int64_t, std::string>>{{1, "tokenhash"}}));
  EXPECT_EQ(store.max_game_id(), 2);
  EXPECT_EQ(store.max_room_id(), 12);
  EXPECT_EQ(store.history(1, 10).size(), 1u);
  EXPECT_EQ(store.game(1)->moves.size(), 2u);
  EXPECT_FALSE(store.game(99));
}

// The rating rule on varied opponents reads each account's different
// opponents from its games when the store opens: games that counted as
// rated only, each opponent once, the first kVariedOpponents by id.
TEST_F(StoreTest, EachAccountsOpponentsInRatedGamesComeBackWhenReopened) {
  {
    SqliteStore store(path());
    for (std::int64_t id = 1; id <= 16; ++id)
      store.save_player(player(id, "p" + std::to_string(id)));
    std::int64_t next_game = 1;
    auto play = [&](std::int64_t x, std::int64_t o, int moves, bool rated, const char* status) {
      GameRecord g = game(next_game, x, o);
      g.rated = rated;
      store.begin_game(g);
      for (int ply = 0; ply < moves; ++ply)
        store.add_move(next_game, ply, {ply / 3, ply % 3, 1'100});
      store.end_game(next_game, status, "line", 1'900, rated);
      ++next_game;
    };
    for (std::int64_t o = 13; o >= 2; --o) play(1, o, 5, true, "x_won");  // 12 others
    play(2, 1, 5, true, "draw");                                          // bob again
    play(14, 15, 5, false, "x_won");                                      // unrated
    play(14, 16, 1, true, "aborted");                                     // never finished
  }
  SqliteStore store(path());
  const auto players = store.load_players();
  ASSERT_EQ(players.size(), 16u);
  EXPECT_EQ(players[0].opponents, (std::vector<std::int64_t>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(players[0].rated_games, 13);
  EXPECT_EQ(players[1].opponents, std::vector<std::int64_t>{1}) << "once, whoever played X";
  EXPECT_EQ(players[12].opponents, std::vector<std::int64_t>{1});
  EXPECT_TRUE(players[13].opponents.empty()) << "unrated and unfinished games count for none";
}

TEST_F(StoreTest, NamesAreUniqueWhateverTheirCase) {
  SqliteStore store(":memory:");
  store.save_player(player(1, "Alice"));
  EXPECT_THROW(store.save_player(player(2, "alice")), StoreError);
}

TEST_F(StoreTest, UsesWriteAheadLogging) {
  SqliteStore store(path());
  Database check(path());
  auto mode = check.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.column_text(0), "wal");
}

TEST_F(StoreTest, RefusesAFileThatIsNotADatabase) {
  std::ofstream(path()) << "this is not a database, just some text that goes on for a while";
  try {
    SqliteStore store(path());
    FAIL() << "opened a text file";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("unusable"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a database"), std::string::npos) << e.what();
  }
}

TEST_F(StoreTest, RefusesAPathItCannotOpen) {
  EXPECT_THROW(SqliteStore(path("missing-directory/ttt.db")), StoreError);
  EXPECT_THROW(SqliteStore(dir_.string()), StoreError);
}

TEST_F(StoreTest, RefusesASchemaNewerThanItKnows) {
  {
    Database db(path());
    db.exec("PRAGMA user_version = 99");
  }
  try {
    SqliteStore store(path());
    FAIL() << "opened a newer schema";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
  }
}

TEST_F(StoreTest, MigratesAnEmptyDatabaseForward) {
  { Database db(path()); }
  SqliteStore store(path());
  Database check(path());
  auto version = check.prepare("PRAGMA user_version");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.column_int(0), Store::kSchemaVersion);
}

TEST_F(StoreTest, KeepsEachGamesWinLength) {
  {
    SqliteStore store(path());
    store.save_player(player(1, "alice"));
    store.save_player(player(2, "bob"));
    GameRecord gomoku = game(1, 1, 2);
    gomoku.size = 15;
    gomoku.win_length = 5;
    store.begin_game(gomoku);
    store.end_game(1, "x_won", "line", 2'000);
    GameRecord unfinished = game(2, 2, 1);
    unfinished.size = 7;
    unfinished.win_length = 4;
    store.begin_game(unfinished);
  }
  SqliteStore store(path());
  EXPECT_EQ(store.game(1)->win_length, 5);
  EXPECT_EQ(store.finished_games().at(0).win_length, 5);
  EXPECT_EQ(store.history(1, 10).at(0).win_length, 5);
  EXPECT_EQ(store.load_unfinished_games().at(0).win_length, 4);
  std::ostringstream out;
  export_games(store, out);
  EXPECT_NE(out.str().find("size 15\nwin_length 5\n"), std::string::npos) << out.str();
}

// A database written by a server of schema version 1 (before win lengths):
// its games come back as the whole-line games they were.
TEST_F(StoreTest, MigratesAVersion1DatabaseWithItsGamesAsWholeLineGames) {
  {
    Database db(path());
    db.exec(R"sql(
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  salt TEXT NOT NULL, secret_hash TEXT NOT NULL, is_bot INTEGER NOT NULL DEFAULT 0,
  rating REAL NOT NULL DEFAULT 1200, games_played INTEGER NOT NULL DEFAULT 0,
  wins INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0);
CREATE TABLE games (id INTEGER PRIMARY KEY, room_id INTEGER NOT NULL, round INTEGER NOT NULL,
  size INTEGER NOT NULL, x_player INTEGER NOT NULL REFERENCES players(id),
  o_player INTEGER NOT NULL REFERENCES players(id), rated INTEGER NOT NULL,
  is_private INTEGER NOT NULL, invite_code TEXT NOT NULL DEFAULT '',
  bot_level INTEGER NOT NULL DEFAULT 0, started_ms INTEGER NOT NULL,
  ended_ms INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '');
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
  row INTEGER NOT NULL, col INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
CREATE TABLE resume_tokens (player_id INTEGER PRIMARY KEY REFERENCES players(id),
  token_hash TEXT NOT NULL);
INSERT INTO players (id, name, salt, secret_hash) VALUES (1, 'alice', 's', 'h'), (2, 'bob', 's', 'h');
INSERT INTO games (id, room_id, round, size, x_player, o_player, rated, is_private, started_ms,
  ended_ms, status, reason) VALUES (1, 1, 1, 4, 1, 2, 1, 0, 1000, 2000, 'draw', 'board_full');
PRAGMA user_version = 1;
)sql");
  }
  SqliteStore store(path());
  const auto games = store.finished_games();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].size, 4);
  EXPECT_EQ(games[0].win_length, 4) << "a version-1 game was won by its whole line";
  EXPECT_EQ(games[0].clock_initial_ms, 0) << "and had no clock";
  Database check(path());
  auto version = check.prepare("PRAGMA user_version");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.column_int(0), Store::kSchemaVersion);
}

// Schema 3: a game's Fischer clock and each move's time left come back as
// written; blocks are kept.
TEST_F(StoreTest, ClocksAndBlocksComeBackAsWritten) {
  {
    SqliteStore store(path());
    store.save_player(player(1, "alice"));
    store.save_player(player(2, "bob"));
    GameRecord g = game(1, 1, 2);
    g.clock_initial_ms = 180'000;
    g.clock_increment_ms = 2'000;
    store.begin_game(g);
    store.add_move(1, 0, {1, 1, 1000, 179'500});
    store.add_move(1, 1, {0, 0, 2000, 181'000});
    store.save_block(1, 2);
    store.save_block(1, 2);  // twice: still one
    store.save_block(2, 1);
    store.drop_block(2, 1);
  }
  SqliteStore store(path());
  const auto games = store.load_unfinished_games();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].clock_initial_ms, 180'000);
  EXPECT_EQ(games[0].clock_increment_ms, 2'000);
  ASSERT_EQ(games[0].moves.size(), 2u);
  EXPECT_EQ(games[0].moves[0].clock_ms, 179'500);
  EXPECT_EQ(games[0].moves[1].clock_ms, 181'000);
  EXPECT_EQ(store.load_blocks(), (std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 2}}));
}

TEST_F(StoreTest, WriterCommitsJobsInGroupsAndReportsInOrder) {
  boost::asio::io_context io;
  auto store = std::make_unique<SqliteStore>(path());
  store->save_player(player(1, "alice"));
  store->save_player(player(2, "bob"));
  store->begin_game(game(1, 1, 2));
  std::vector<int> completed;
  {
    StoreWriter writer(std::move(store), io.get_executor());
    for (int i = 0; i < 500; ++i) {
      writer.submit(
          [i](Store& s) {
            s.add_move(1, i, {i % 3, i % 5, i});
          },
          [&completed, i](const std::optional<std::string>& error) {
            EXPECT_FALSE(error) << *error;
            completed.push_back(i);
          });
    }
    writer.flush();
    const auto counters = writer.counters();
    EXPECT_EQ(counters.jobs, 500u);
    EXPECT_LT(counters.batches, 500u);
    EXPECT_EQ(counters.failures, 0u);
  }
  io.run();
  ASSERT_EQ(completed.size(), 500u);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(completed[i], i);
  EXPECT_EQ(SqliteStore(path()).game(1)->moves.size(), 500u);
}

// A database that can go away: while away, a transaction can't begin and
// the store says it is unreachable (as PostgreSQL's does when its
// connection is lost).
class AwayStore final : public SqliteStore {
 public:
  AwayStore(const std::string& path, std::shared_ptr<std::atomic<bool>> away)
      : SqliteStore(path), away_(std::move(away)) {}
  void begin() override {
    if (*away_) throw StoreError("the database can't be reached (test)");
    SqliteStore::begin();
  }
  bool reachable() override { return !*away_; }

 private:
  std::shared_ptr<std::atomic<bool>> away_;
};

TEST_F(StoreTest, WhileTheDatabaseIsAwayWritesWaitBoundedAndLandWhenItIsBack) {
  boost::asio::io_context io;
  auto away = std::make_shared<std::atomic<bool>>(false);
  auto store = std::make_unique<AwayStore>(path(), away);
  store->save_player(player(1, "alice"));
  store->save_player(player(2, "bob"));
  store->begin_game(game(1, 1, 2));
  std::vector<std::optional<std::string>> results(5);
  std::vector<bool> waiting;
  {
    StoreWriter writer(std::move(store), io.get_executor(), nullptr, 3);
    writer.on_waiting([&waiting](bool w) { waiting.push_back(w); });
    *away = true;
    for (int i = 0; i < 5; ++i) {
      writer.submit(
          [i](Store& s) {
            s.add_move(1, i, {i % 3, i / 3, i});
          },
          [&results, i](const std::optional<std::string>& error) {
            results[i] = error.value_or("ok");
          });
      if (i == 0) {
        // The first batch meets the lost database and waits.
        ttt::testing::eventually([&] { return writer.counters().waiting; },
                                 std::chrono::seconds(5));
        ASSERT_TRUE(writer.counters().waiting);
      }
    }
    io.poll();
    // Three wait behind the first; the fifth finds them: refused at once.
    EXPECT_FALSE(results[0]) << "no answer while the database is away";
    ASSERT_TRUE(results[4]);
    EXPECT_NE(results[4]->find("writes wait for it already"), std::string::npos) << *results[4];
    *away = false;  // back: the waiting batch commits, then the rest
    writer.flush();
  }
  io.restart();
  io.run();
  EXPECT_EQ(results[0], "ok");
  EXPECT_EQ(results[1], "ok");
  EXPECT_EQ(results[2], "ok");
  EXPECT_EQ(results[3], "ok");
  EXPECT_EQ(SqliteStore(path()).game(1)->moves.size(), 4u) << "nothing that waited is lost";
  EXPECT_EQ(waiting, (std::vector<bool>{true, false})) << "told it waits, and that it is back";
}

TEST_F(StoreTest, AFailedWriteIsRefusedAloneAndLosesNothingElse) {
  boost::asio::io_context io;
  auto store = std::make_unique<SqliteStore>(path());
  store->save_player(player(1, "alice"));
  store->save_player(player(2, "bob"));
  store->begin_game(game(1, 1, 2));
  std::vector<bool> ok;
  {
    StoreWriter writer(std::move(store), io.get_executor());
    auto done = [&ok](const std::optional<std::string>& error) { ok.push_back(!error); };
    writer.submit([](Store& s) { s.add_move(1, 0, {1, 1, 1}); }, done);
    writer.submit([](Store& s) { s.add_move(1, 0, {2, 2, 2}); }, done);  // the same ply again
    writer.submit([](Store& s) { s.add_move(1, 1, {0, 0, 3}); }, done);
    writer.flush();
  }
  io.run();
  EXPECT_EQ(ok, (std::vector<bool>{true, false, true}));
  const auto moves = SqliteStore(path()).game(1)->moves;
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].row, 1);
  EXPECT_EQ(moves[1].row, 0);
}

TEST_F(StoreTest, AFullDiskRefusesTheWriteWithAClearError) {
  boost::asio::io_context io;
  auto store = std::make_unique<SqliteStore>(path());
  store->save_player(player(1, "alice"));
  store->save_player(player(2, "bob"));
  store->begin_game(game(1, 1, 2));
  store->limit_pages(1);  // as if the disk were full
  std::optional<std::string> failure;
  {
    StoreWriter writer(std::move(store), io.get_executor());
    writer.submit(
        [](Store& s) {
          for (int i = 0; i < 2000; ++i) s.add_move(1, i, {1, 1, i});
        },
        [&failure](const std::optional<std::string>& error) { failure = error; });
    writer.flush();
  }
  io.run();
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("full"), std::string::npos) << *failure;
  EXPECT_EQ(SqliteStore(path()).load_players().size(), 2u);  // what was there stays
}

TEST_F(StoreTest, ExportWritesEveryFinishedGameAsDocumented) {
  SqliteStore store(path());
  store.save_player(player(1, "alice"));
  store.save_player(player(2, "bob"));
  store.begin_game(game(1, 1, 2));
  store.add_move(1, 0, {1, 1, 1'100});
  store.add_move(1, 1, {0, 2, 1'250});
  store.end_game(1, "x_won", "timeout", 1'900);
  store.begin_game(game(2, 1, 2));  // still in progress: not exported
  std::ostringstream out;
  EXPECT_EQ(export_games(store, out), 1u);
  const std::string text = out.str();
  EXPECT_NE(text.find("game 1\nroom 11 round 1\nsize 3\nwin_length 3\nx alice\no bob\nrated yes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("start 1970-01-01T00:00:01.000Z\nend 1970-01-01T00:00:01.900Z\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("result X\nreason timeout\noutcome X wins (O ran out of time)\nmoves 2\n"
                      "move 1 X 1 1 100\nmove 2 O 0 2 250\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("game 2"), std::string::npos);
}

TEST(ExportText, EveryCharacterThatDoesNotPrintAsItselfIsEscaped) {
  EXPECT_EQ(escape_export_text("alice"), "alice");
  EXPECT_EQ(escape_export_text("Zoë 🙂"), "Zoë 🙂") << "printable text stays";
  EXPECT_EQ(escape_export_text("a\u2028b\u2029c"), "a\\u{2028}b\\u{2029}c");
  EXPECT_EQ(escape_export_text("x\ny\rz\tw"), "x\\u{000A}y\\u{000D}z\\u{0009}w");
  EXPECT_EQ(escape_export_text("\u0085\u00a0\u200b\u202e\ufeff"),
            "\\u{0085}\\u{00A0}\\u{200B}\\u{202E}\\u{FEFF}");
  EXPECT_EQ(escape_export_text("\U000E0041\uE000\uFFFF"), "\\u{E0041}\\u{E000}\\u{FFFF}");
  EXPECT_EQ(escape_export_text("back\\slash"), "back\\\\slash");
  EXPECT_EQ(escape_export_text(std::string("bad\xff\xc3", 5)), "bad\\x{FF}\\x{C3}");
}

TEST_F(StoreTest, ANameCantForgeLinesInTheExportForAnyReader) {
  SqliteStore store(path());
  // A name the lobby allows (printable, no control characters) that holds
  // Unicode's line and paragraph separators.
  store.save_player(player(1, "mallory\u2028result O\u2029game 99"));
  store.save_player(player(2, "bob"));
  store.begin_game(game(1, 1, 2));
  store.end_game(1, "x_won", "resignation", 1'500);
  std::ostringstream out;
  export_games(store, out);
  const std::string text = out.str();
  EXPECT_EQ(text.find("\u2028"), std::string::npos);
  EXPECT_EQ(text.find("\u2029"), std::string::npos);
  EXPECT_NE(text.find("x mallory\\u{2028}result O\\u{2029}game 99\n"), std::string::npos) << text;
  EXPECT_EQ(text.rfind("# ttt games export, format 3\n", 0), 0u);
  // Split on every line break Unicode knows, the record is what it says:
  // one line that starts with "result ", one that starts with "game ".
  for (const char* key : {"\nresult ", "\ngame "}) {
    int lines = 0;
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      ++lines;
    }
    EXPECT_EQ(lines, 1) << key;
  }
}

TEST_F(StoreTest, ANewDatabaseAndItsJournalFilesAreTheOwnersOnly) {
  const mode_t old_mask = ::umask(022);  // as a careless environment would leave it
  {
    SqliteStore store(path());
    store.save_player(player(1, "alice"));  // a write: the WAL and its index exist now
    for (const std::string file : {"ttt.db", "ttt.db-wal", "ttt.db-shm"}) {
      std::error_code ec;
      const auto perms = fs::status(path(file), ec).permissions();
      ASSERT_FALSE(ec) << file;
      EXPECT_EQ(perms & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write) << file;
    }
  }
  ::umask(old_mask);
}

// X: c1, b2, a3 (row, col from 0: 0 2, 1 1, 2 0); O: a1, b1.
GameRecord won_by_the_anti_diagonal() {
  GameRecord g = game(3, 1, 2);
  g.status = "x_won";
  g.reason = "line";
  g.moves = {{0, 2, 1'100}, {0, 0, 1'200}, {1, 1, 1'300}, {0, 1, 1'400}, {2, 0, 1'500}};
  return g;
}

TEST(RecordOutcome, TheWinningLineIsWorkedOutFromTheMoves) {
  const GameRecord g = won_by_the_anti_diagonal();
  EXPECT_EQ(winning_line_of(g), (Line{LineKind::AntiDiagonal, 0}));
  EXPECT_EQ(result_text(g), "X wins (anti-diagonal)");
  GameRecord resigned = g;
  resigned.reason = "resignation";
  EXPECT_EQ(winning_line_of(resigned), std::nullopt);
  EXPECT_EQ(result_text(resigned), "X wins (O resigned)");
}

TEST(RecordOutcome, MovesThatAreNotALegalGameGiveNoLine) {
  GameRecord damaged = won_by_the_anti_diagonal();
  damaged.moves[3] = {0, 0, 1'400};  // on a taken cell
  EXPECT_EQ(winning_line_of(damaged), std::nullopt);
  EXPECT_EQ(result_text(damaged), "X wins (a line)");
  damaged.size = 99;
  EXPECT_EQ(winning_line_of(damaged), std::nullopt);
}

TEST(RecordOutcome, AWinOfKInARowNamesItsRun) {
  // 4x4, three in a row: X b1, b2, b3 (a column run); O a1, a2.
  GameRecord g = game(4, 1, 2);
  g.size = 4;
  g.win_length = 3;
  g.status = "x_won";
  g.reason = "line";
  g.moves = {{0, 1, 1'100}, {0, 0, 1'200}, {1, 1, 1'300}, {1, 0, 1'400}, {2, 1, 1'500}};
  EXPECT_EQ(result_text(g), "X wins (column b from b1 to b3)");
  g.win_length = 7;  // no such rule on 4x4: a damaged record names no line
  EXPECT_EQ(winning_line_of(g), std::nullopt);
  EXPECT_EQ(result_text(g), "X wins (a line)");
}

TEST(RecordOutcome, StoredStatusAndReasonReadBackAsTheWireSaysThem) {
  for (int r = wire::EndReason_MIN; r <= wire::EndReason_MAX; ++r) {
    const auto reason = static_cast<wire::EndReason>(r);
    EXPECT_EQ(end_reason_of(stored_reason(reason)), reason) << r;
  }
  EXPECT_EQ(game_status_of("x_won"), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(game_status_of("o_won"), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(game_status_of("aborted"), wire::GAME_STATUS_DRAW);
  EXPECT_EQ(game_status_of("in_progress"), wire::GAME_STATUS_IN_PROGRESS);
}

TEST_F(StoreTest, ExportWordsTheResultAsPlayersReadIt) {
  SqliteStore store(path());
  store.save_player(player(1, "alice"));
  store.save_player(player(2, "bob"));
  const GameRecord g = won_by_the_anti_diagonal();
  store.begin_game(g);
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    store.add_move(g.id, static_cast<int>(i), g.moves[i]);
  }
  store.end_game(g.id, g.status, g.reason, 1'600);
  std::ostringstream out;
  EXPECT_EQ(export_games(store, out), 1u);
  EXPECT_NE(out.str().find("result X\nreason line\noutcome X wins (anti-diagonal)\nmoves 5\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace ttt::server
