// The PostgreSQL store (--postgres) against the real server that ./ttt test
// starts (pg_virtualenv): the same records and answers as the SQLite store,
// query by query and in the export; its schema made once and refused when
// newer; clear errors for a server that can't be reached or refuses the
// login; a lost connection taken up again; and ttt-server on PostgreSQL end
// to end: a game kept across kill -9, bots' games on record, the export.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cctype>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "client_support/child_process.hpp"
#include "client_support/client_programs.hpp"
#include "lobby/text_rules.hpp"
#include "store/game_export.hpp"
#include "store/postgres.hpp"
#include "store/postgres_store.hpp"
#include "store/sequence_ids.hpp"
#include "store/sqlite_store.hpp"
#include "store/store_writer.hpp"
#include "store/stored_accounts.hpp"
#include "support/eventually.hpp"
#include "support/postgres_scratch.hpp"
#include "support/tcp_proxy.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;
using server::GameRecord;
using server::PgConnection;
using server::PostgresStore;
using server::SqliteStore;
using server::Store;
using server::StoredPlayer;
using server::StoreError;

StoredPlayer player(std::int64_t id, const std::string& name) {
  StoredPlayer p;
  p.id = id;
  p.name = name;
  p.salt = "salt" + name;
  p.secret_hash = "hash" + name;
  return p;
}

GameRecord game(std::int64_t id, std::int64_t x, std::int64_t o, std::int64_t started_ms) {
  GameRecord g;
  g.id = id;
  g.room_id = 100 + id;
  g.size = 3;
  g.win_length = 3;
  g.x_player = x;
  g.o_player = o;
  g.rated = true;
  g.started_ms = started_ms;
  return g;
}

// The same history written into any store: players (one a bot), finished
// games of every kind (rated, unrated, a 15x15 five in a row with a Fischer
// clock, a private one with an invite code), one still in progress, results,
// secrets, tokens and blocks.
void write_history(Store& s, bool own_transaction = true) {
  if (own_transaction) s.begin();
  s.save_player(player(1, "alice"));
  s.save_player(player(2, "Bob"));
  auto bot = player(3, "house-bot");
  bot.is_bot = true;
  bot.secret_hash = "";
  s.save_player(bot);
  s.save_player(player(4, "carol"));
  s.save_player(player(1, "alice-again"));  // the same id again: nothing changes

  s.begin_game(game(1, 1, 2, 1'000));
  for (int ply = 0; ply < 5; ++ply) {
    const int cells[5][2] = {{0, 0}, {1, 1}, {0, 1}, {2, 2}, {0, 2}};
    s.add_move(1, ply, {cells[ply][0], cells[ply][1], 1'100 + ply * 100, 0});
  }
  s.end_game(1, "x_won", "line", 1'900);
  s.add_result({1, 12.5, 1, 0, 0, 1});
  s.add_result({2, -12.5, 0, 1, 0, 1});

  auto big = game(2, 2, 4, 2'000);
  big.size = 15;
  big.win_length = 5;
  big.clock_initial_ms = 180'000;
  big.clock_increment_ms = 2'000;
  big.rated = false;
  s.begin_game(big);
  s.add_move(2, 0, {7, 7, 2'100, 179'000});
  s.add_move(2, 1, {7, 8, 2'200, 178'500});
  s.end_game(2, "o_won", "resignation", 2'900, false);

  auto hidden = game(3, 4, 3, 3'000);
  hidden.is_private = true;
  hidden.invite_code = "K7Q2ZP";
  hidden.bot_level = 3;
  s.begin_game(hidden);
  s.add_move(3, 0, {1, 1, 3'100, 0});
  s.add_move(3, 1, {0, 0, 3'200, 0});
  s.end_game(3, "draw", "draw_agreed", 3'900);
  s.add_result({4, 0.25, 0, 0, 1, 1});
  s.add_result({3, -0.25, 0, 0, 1, 1});

  s.begin_game(game(4, 1, 4, 4'000));  // still in progress
  s.add_move(4, 0, {2, 0, 4'100, 0});
  s.begin_game(game(4, 1, 4, 4'000));  // written again with its first move: kept once

  s.save_secret(4, "new-salt", "new-hash");
  s.save_token(1, "token-1");
  s.save_token(4, "token-4");
  s.save_token(4, "token-4b");  // replaces
  s.save_token(2, "token-2");
  s.drop_token(2);
  s.save_block(1, 2);
  s.save_block(1, 2);  // again: nothing changes
  s.save_block(4, 3);
  s.save_block(2, 1);
  s.drop_block(2, 1);
  if (own_transaction) s.commit();
}

std::string exported(Store& s) {
  std::ostringstream out;
  server::export_games(s, out);
  return out.str();
}

std::string describe(const StoredPlayer& p) {
  std::ostringstream out;
  out << p.id << ' ' << p.name << ' ' << p.salt << ' ' << p.secret_hash << ' ' << p.is_bot << ' '
      << p.rating << ' ' << p.games_played << ' ' << p.wins << '/' << p.losses << '/' << p.draws
      << " rated " << p.rated_games << " against";
  for (std::int64_t opponent : p.opponents) out << ' ' << opponent;
  return out.str();
}

std::string describe(const GameRecord& g) {
  std::ostringstream out;
  out << g.id << " room " << g.room_id << '.' << g.round << ' ' << g.size << 'k' << g.win_length
      << ' ' << g.x_player << g.x_name << " v " << g.o_player << g.o_name << " rated " << g.rated
      << " private " << g.is_private << g.invite_code << " bot " << g.bot_level << " clock "
      << g.clock_initial_ms << '+' << g.clock_increment_ms << " at " << g.started_ms << '-'
      << g.ended_ms << ' ' << g.status << ' ' << g.reason << " moves";
  for (const auto& m : g.moves)
    out << ' ' << m.row << ',' << m.col << '@' << m.at_ms << '/' << m.clock_ms;
  return out.str();
}

template <typename T>
std::vector<std::string> described(const std::vector<T>& items) {
  std::vector<std::string> lines;
  for (const auto& item : items) lines.push_back(describe(item));
  return lines;
}

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TTT_NEED_POSTGRES();
    scratch_ = std::make_unique<PostgresScratch>();
  }
  const std::string& conninfo() const { return scratch_->conninfo(); }
  std::string sqlite_path() const { return (fs::path(dir_.path()) / "ttt.db").string(); }

  TempDir dir_;
  std::unique_ptr<PostgresScratch> scratch_;
};

// Every read and query answers on PostgreSQL exactly as on SQLite, for the
// same history, and the export is the same text byte for byte.
TEST_F(PostgresStoreTest, EveryAnswerIsTheSqliteStoresAnswer) {
  SqliteStore lite(sqlite_path());
  PostgresStore pg(conninfo());
  write_history(lite);
  write_history(pg);
  for (Store* s : {static_cast<Store*>(&lite), static_cast<Store*>(&pg)}) {
    SCOPED_TRACE(s->where());
    EXPECT_EQ(s->load_players().size(), 4u);
    EXPECT_EQ(s->load_unfinished_games().size(), 1u);
  }
  EXPECT_EQ(described(pg.load_players()), described(lite.load_players()));
  // Each account's opponents in games that counted as rated, at start and
  // when one account is read (a node it arrives at).
  const auto players = pg.load_players();
  EXPECT_EQ(players[0].opponents, std::vector<std::int64_t>{2});
  EXPECT_EQ(players[3].opponents, std::vector<std::int64_t>{3});
  ASSERT_TRUE(pg.player_by_id(4));
  EXPECT_EQ(pg.player_by_id(4)->opponents, std::vector<std::int64_t>{3});
  EXPECT_EQ(pg.player_by_id(2)->opponents, std::vector<std::int64_t>{1});
  EXPECT_EQ(described(pg.load_unfinished_games()), described(lite.load_unfinished_games()));
  EXPECT_EQ(pg.load_tokens(), lite.load_tokens());
  EXPECT_EQ(pg.load_blocks(), lite.load_blocks());
  EXPECT_EQ(pg.max_game_id(), 4);
  EXPECT_EQ(pg.max_room_id(), 104);
  EXPECT_EQ(pg.max_player_id(), 4);
  EXPECT_EQ(pg.max_game_id(), lite.max_game_id());
  EXPECT_EQ(pg.max_room_id(), lite.max_room_id());
  EXPECT_EQ(pg.max_player_id(), lite.max_player_id());
  const auto pairings = [](Store& s, std::int64_t since) {
    std::vector<std::string> lines;
    for (const auto& p : s.load_rated_pairings(since)) {
      lines.push_back(std::to_string(p.x) + "v" + std::to_string(p.o) + "@" +
                      std::to_string(p.ended_ms));
    }
    return lines;
  };
  EXPECT_EQ(pairings(pg, 0), pairings(lite, 0));
  EXPECT_EQ(pairings(pg, 0).size(), 2u);
  EXPECT_EQ(pairings(pg, 3'000), pairings(lite, 3'000));
  EXPECT_EQ(described(pg.top_players(10)), described(lite.top_players(10)));
  EXPECT_EQ(described(pg.top_players(2)), described(lite.top_players(2)));
  for (std::int64_t who : {1, 2, 3, 4, 99}) {
    EXPECT_EQ(described(pg.history(who, 10)), described(lite.history(who, 10))) << who;
  }
  EXPECT_EQ(described(pg.history(4, 1)), described(lite.history(4, 1)));
  for (std::int64_t id : {1, 2, 3, 4}) {
    ASSERT_TRUE(pg.game(id)) << id;
    EXPECT_EQ(describe(*pg.game(id)), describe(*lite.game(id)));
  }
  EXPECT_FALSE(pg.game(99));
  EXPECT_EQ(described(pg.finished_games()), described(lite.finished_games()));
  EXPECT_EQ(exported(pg), exported(lite));
  EXPECT_NE(exported(pg).find("win_length 5"), std::string::npos) << exported(pg);
}

TEST_F(PostgresStoreTest, EverythingOutlivesTheConnection) {
  {
    PostgresStore pg(conninfo());
    write_history(pg);
  }
  PostgresStore again(conninfo());
  EXPECT_EQ(again.schema_version(), PostgresStore::kVersion);
  EXPECT_EQ(again.load_players().size(), 4u);
  ASSERT_EQ(again.load_unfinished_games().size(), 1u);
  EXPECT_EQ(again.load_unfinished_games()[0].moves.size(), 1u);
  EXPECT_EQ(again.game(2)->moves[1].clock_ms, 178'500);
}

TEST_F(PostgresStoreTest, NamesAreUniqueWhateverTheirCase) {
  PostgresStore pg(conninfo());
  pg.save_player(player(1, "Alice"));
  try {
    pg.save_player(player(2, "aLICE"));
    FAIL() << "a second account took the name";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("players_by_name"), std::string::npos) << e.what();
  }
}

// A rule for names' keys that differs from the one the keys were kept
// under: case folded, and a zero reads as an o.
std::string zero_is_o(std::string_view name) {
  std::string key;
  for (const char c : name) key += c == '0' ? 'o' : static_cast<char>(std::tolower(c));
  return key;
}

// Keys kept under an older rule are made again at start: every account is
// found by its name's key under today's rule, the oldest of names that now
// look alike keeps the key, a name with quotes and backslashes too; a second
// start changes nothing.
TEST_F(PostgresStoreTest, NameKeysKeptUnderAnOlderRuleAreMadeAgain) {
  {
    PostgresStore pg(conninfo());
    const auto kept = [&](std::int64_t id, const std::string& name, const std::string& key) {
      StoredPlayer p = player(id, name);
      p.key = key;
      pg.save_player(p);
    };
    kept(1, "Bob", "bob");              // the same under both rules
    kept(2, "b0b", "b0b");              // now looks like Bob: loses its key
    kept(3, "R0b", "r0b");              // now rob
    kept(4, "rob-old", "rob");          // held rob, its name's key now rob-old
    kept(5, "say \"hi\" \\o/", "old");  // quoted and escaped in the array
    kept(6, "nokey", "");               // kept no key at all
  }
  PostgresStore pg(conninfo());
  EXPECT_EQ(pg.rekey_names(zero_is_o), 5u);
  const auto holder = [&](const std::string& key) -> std::int64_t {
    const auto p = pg.player_by_key(key);
    return p ? p->id : 0;
  };
  EXPECT_EQ(holder("bob"), 1);
  EXPECT_EQ(holder("b0b"), 0);
  EXPECT_EQ(holder("rob"), 3);
  EXPECT_EQ(holder("r0b"), 0);
  EXPECT_EQ(holder("rob-old"), 4);
  EXPECT_EQ(holder("say \"hi\" \\o/"), 5);
  EXPECT_EQ(holder("old"), 0);
  EXPECT_EQ(holder("nokey"), 6);
  server::PgConnection check(conninfo());
  EXPECT_EQ(check.exec("SELECT COUNT(*) FROM players WHERE name_key IS NULL").integer(0, 0), 1)
      << "b0b alone keeps no key";
  EXPECT_EQ(pg.rekey_names(zero_is_o), 0u) << "keys made twice";
  EXPECT_EQ(pg.load_players().size(), 6u);
}

// The server makes the keys again as it opens the database: a name whose
// kept key is stale is found by a node (player_by_key) under today's rule.
TEST_F(PostgresStoreTest, TheServerMakesStaleKeysAgainAtStart) {
  {
    PostgresStore pg(conninfo());
    StoredPlayer p = player(1, "Carol");
    p.key = "stale key";
    pg.save_player(p);
  }
  {
    server::ServerConfig config = test_config();
    config.db.clear();
    config.postgres = conninfo();
    TestServer server(config);
  }
  PostgresStore pg(conninfo(), PostgresStore::Use::kReader);
  const auto carol = pg.player_by_key(server::name_key("Carol"));
  ASSERT_TRUE(carol);
  EXPECT_EQ(carol->id, 1);
  EXPECT_FALSE(pg.player_by_key("stale key"));
}

TEST_F(PostgresStoreTest, ASecondMoveForTheSamePlyIsRefused) {
  PostgresStore pg(conninfo());
  pg.save_player(player(1, "alice"));
  pg.save_player(player(2, "bob"));
  pg.begin_game(game(1, 1, 2, 1'000));
  pg.add_move(1, 0, {1, 1, 1'100, 0});
  EXPECT_THROW(pg.add_move(1, 0, {2, 2, 1'200, 0}), StoreError);
}

// Fencing: a node writes a game only while it holds it; a claim waits for
// a holder that still beats in the database; a refused end adds nothing.
TEST_F(PostgresStoreTest, AGameIsWrittenOnlyByItsHolderAndTakenOnlyFromADeadOne) {
  using namespace std::chrono_literals;
  PostgresStore a(conninfo(), PostgresStore::Use::kNode);
  PostgresStore b(conninfo(), PostgresStore::Use::kNode);
  a.save_player(player(1, "alice"));
  a.save_player(player(2, "bob"));
  auto g = game(1, 1, 2, 1'000);
  g.node = "nodea";
  a.begin_game(g);
  a.beat_node("nodea", "127.0.0.1", 7001, "SHA256:aa");
  a.add_held_move("nodea", 1, 0, {1, 1, 1'100, 0});
  // nodea still beats: its game is not taken, whatever Redis says.
  EXPECT_FALSE(b.claim_game(1, "nodea", "nodeb", 60s));
  ASSERT_TRUE(b.live_node("nodea", 60s));
  EXPECT_EQ(b.live_node("nodea", 60s)->port, 7001);
  // Its beat ages past 20 ms (the database's clock decides).
  EXPECT_TRUE(eventually([&] { return !b.live_node("nodea", 20ms); }, 5s, 10ms))
      << "its beat is older than that";
  EXPECT_TRUE(b.claim_game(1, "nodea", "nodeb", 20ms));
  // nodea's writes are refused whole now, naming the holder.
  try {
    a.add_held_move("nodea", 1, 1, {0, 0, 1'200, 0});
    ADD_FAILURE() << "a move written by a node that lost the game";
  } catch (const server::GameLost& lost) {
    EXPECT_EQ(lost.holder, "nodeb");
    EXPECT_EQ(lost.status, "in_progress");
  }
  a.begin();
  EXPECT_THROW(a.end_held_game("nodea", 1, "o_won", "disconnect", 2'000), server::GameLost);
  a.rollback();
  const auto holders = a.game_holders({1, 99});
  ASSERT_EQ(holders.size(), 1u);
  EXPECT_EQ(holders[0], (std::pair<std::int64_t, std::string>{1, "nodeb"}));
  b.add_held_move("nodeb", 1, 1, {0, 0, 1'300, 0});
  b.end_held_game("nodeb", 1, "x_won", "line", 2'100);
  EXPECT_EQ(a.game_holders({1})[0].second, "") << "over: held by nobody";
  EXPECT_THROW(b.end_held_game("nodeb", 1, "o_won", "timeout", 2'200), server::GameLost)
      << "an end is written once";
  EXPECT_EQ(a.game(1)->status, "x_won");
  EXPECT_EQ(a.game(1)->moves.size(), 2u);
  a.drop_node("nodea");
  EXPECT_FALSE(b.live_node("nodea", 60s));
}

// Alice, bob and their game 1, held by nodea.
void begin_game_of_nodea(PostgresStore& store) {
  store.save_player(player(1, "alice"));
  store.save_player(player(2, "bob"));
  auto g = game(1, 1, 2, 1'000);
  g.node = "nodea";
  store.begin_game(g);
}

// Counts the sessions of one application name waiting for a lock.
int waiting_for_a_lock(PgConnection& watch, const std::string& application) {
  return static_cast<int>(
      watch
          .run("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 AND "
               "wait_event_type = 'Lock'",
               {server::pg_param(application)})
          .integer(0, 0));
}

// Fencing in a batch: a claim not yet committed holds the holder's batch
// back, and once the claim is committed the batch finds the game taken and
// writes nothing (it reads the holder after the claim, not before).
TEST_F(PostgresStoreTest, AHoldersBatchWaitsForAClaimInFlightThenWritesNothing) {
  using namespace std::chrono_literals;
  PostgresStore a(conninfo() + " application_name=ttt_fenced_batch", PostgresStore::Use::kNode);
  PostgresStore b(conninfo(), PostgresStore::Use::kNode);
  begin_game_of_nodea(a);
  // nodea never beat in the database: its game is taken at once, and the
  // claim stays uncommitted while nodea sends a batch.
  b.begin();
  ASSERT_TRUE(b.claim_game(1, "nodea", "nodeb", 60s));
  std::optional<std::string> refused;
  std::thread batch([&] {
    try {
      a.begin_batch();
      a.add_held_move("nodea", 1, 0, {1, 1, 1'100, 0});
      a.commit();
    } catch (const std::exception& e) {
      refused = e.what();
      a.rollback();
    }
  });
  PgConnection watch(conninfo());
  const bool waited =
      eventually([&] { return waiting_for_a_lock(watch, "ttt_fenced_batch") == 1; }, 10s, 10ms);
  b.commit();
  batch.join();
  EXPECT_TRUE(waited) << "the batch went ahead of a claim in flight";
  ASSERT_TRUE(refused) << "a move written for a game another node took";
  EXPECT_TRUE(b.game(1)->moves.empty());
  EXPECT_EQ(b.game_holders({1})[0].second, "nodeb");
}

// The other way round: a claim waits for the holder's batch in flight, and
// takes the game with the batch's moves in it.
TEST_F(PostgresStoreTest, AClaimWaitsForTheHoldersBatchInFlight) {
  using namespace std::chrono_literals;
  PostgresStore a(conninfo(), PostgresStore::Use::kNode);
  PostgresStore b(conninfo() + " application_name=ttt_fenced_claim", PostgresStore::Use::kNode);
  begin_game_of_nodea(a);
  a.begin_batch();
  a.add_held_move("nodea", 1, 0, {1, 1, 1'100, 0});
  // A read in the batch sends the move it held (its game's row locked).
  ASSERT_EQ(a.game(1)->moves.size(), 1u);
  bool claimed = false;
  std::optional<std::string> failed;
  std::thread claim([&] {
    try {
      claimed = b.claim_game(1, "nodea", "nodeb", 60s);
    } catch (const std::exception& e) {
      failed = e.what();
    }
  });
  PgConnection watch(conninfo());
  const bool waited =
      eventually([&] { return waiting_for_a_lock(watch, "ttt_fenced_claim") == 1; }, 10s, 10ms);
  a.commit();
  claim.join();
  EXPECT_TRUE(waited) << "the claim went ahead of the holder's batch in flight";
  EXPECT_FALSE(failed) << *failed;
  EXPECT_TRUE(claimed);
  EXPECT_EQ(b.game(1)->moves.size(), 1u);
  EXPECT_EQ(b.game_holders({1})[0].second, "nodeb");
}

// A node's fenced writes find each game by its key: ending a game (or
// writing a move, or taking a game over) never reads games_by_node, which
// holds every version of all the node's games (the dead ones until a
// vacuum), so an end would cost as much as the node's games in play. Both
// ways: in a batch (pipelined, prepared: generic plans after five) and one
// statement at a time. Counted by PostgreSQL's statistics, which a session
// hands in when it ends.
TEST_F(PostgresStoreTest, ANodesFencedWritesFindTheGameByItsKeyNotByTheNodesIndex) {
  constexpr int kGames = 30;
  {
    PostgresStore a(conninfo(), PostgresStore::Use::kNode);
    PostgresStore b(conninfo(), PostgresStore::Use::kNode);
    a.save_player(player(1, "alice"));
    a.save_player(player(2, "bob"));
    for (int id = 1; id <= kGames + 1; ++id) {
      auto g = game(id, 1, 2, 1'000);
      g.node = "nodea";
      a.begin_game(g);
    }
    a.begin_batch();
    for (int id = 1; id <= kGames; ++id) {
      a.add_held_move("nodea", id, 0, {1, 1, 1'100, 0});
      a.add_held_move("nodea", id, 1, {0, 0, 1'200, 0});
      if (id % 3 != 0) a.end_held_game("nodea", id, "x_won", "resignation", 1'300);
    }
    a.commit();
    for (int id = 3; id <= kGames; id += 3) {
      a.begin();
      a.add_held_move("nodea", id, 2, {2, 2, 1'400, 0});
      a.end_held_game("nodea", id, "o_won", "line", 1'500);
      a.commit();
    }
    // nodea never beat in the database: its last game is taken at once.
    EXPECT_TRUE(b.claim_game(kGames + 1, "nodea", "nodeb", std::chrono::seconds(60)));
  }
  PgConnection check(conninfo());
  const auto count = [&check](const char* sql) { return check.run(sql).integer(0, 0); };
  // Every count handed in (the sessions' ends are seen a little later).
  ASSERT_TRUE(eventually([&] {
    return count(
               "SELECT COALESCE(SUM(n_tup_upd), 0) FROM pg_stat_user_tables WHERE "
               "schemaname = current_schema() AND relname = 'games'") >= kGames + 1 &&
           count(
               "SELECT COALESCE(SUM(n_tup_ins), 0) FROM pg_stat_user_tables WHERE "
               "schemaname = current_schema() AND relname = 'moves'") >= 2 * kGames + kGames / 3;
  }));
  EXPECT_EQ(count("SELECT COUNT(*) FROM games WHERE status = 'in_progress'"), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM moves"), 2 * kGames + kGames / 3);
  EXPECT_EQ(count("SELECT COALESCE(SUM(idx_scan), -1) FROM pg_stat_user_indexes WHERE "
                  "schemaname = current_schema() AND indexrelname = 'games_by_node'"),
            0);
}

// In a batch a game's end waits behind the moves held so far (one INSERT a
// batch), yet every game's rows keep their order: its moves go before its
// end, and a move written after its game's end still comes after it, where
// a node's fenced INSERT refuses it (the game is no longer in progress).
TEST_F(PostgresStoreTest, InABatchAGamesEndStaysBetweenTheMovesBeforeAndAfterIt) {
  PostgresStore a(conninfo(), PostgresStore::Use::kNode);
  a.save_player(player(1, "alice"));
  a.save_player(player(2, "bob"));
  for (int id = 1; id <= 3; ++id) {
    auto g = game(id, 1, 2, 1'000);
    g.node = "nodea";
    a.begin_game(g);
  }
  a.begin_batch();
  a.add_held_move("nodea", 1, 0, {1, 1, 1'100, 0});
  a.end_held_game("nodea", 1, "x_won", "resignation", 1'200);
  a.add_held_move("nodea", 2, 0, {1, 1, 1'300, 0});
  a.add_held_move("nodea", 1, 1, {0, 0, 1'400, 0});  // after its game's end
  EXPECT_THROW(a.commit(), StoreError);
  a.rollback();
  EXPECT_EQ(a.game(1)->status, "in_progress") << "the failed batch wrote nothing";
  EXPECT_TRUE(a.game(1)->moves.empty());
  EXPECT_TRUE(a.game(2)->moves.empty());

  a.begin_batch();
  a.add_held_move("nodea", 1, 0, {1, 1, 1'100, 0});
  a.add_held_move("nodea", 2, 0, {1, 1, 1'150, 0});
  a.end_held_game("nodea", 1, "x_won", "resignation", 1'200);
  a.add_held_move("nodea", 2, 1, {0, 0, 1'300, 0});
  a.add_held_move("nodea", 3, 0, {2, 2, 1'350, 0});
  a.end_held_game("nodea", 2, "draw", "agreement", 1'400);
  a.add_held_move("nodea", 3, 1, {0, 2, 1'450, 0});
  a.commit();
  EXPECT_EQ(a.game(1)->status, "x_won");
  EXPECT_EQ(a.game(1)->moves.size(), 1u);
  EXPECT_EQ(a.game(2)->status, "draw");
  EXPECT_EQ(a.game(2)->moves.size(), 2u);
  EXPECT_EQ(a.game(3)->status, "in_progress");
  ASSERT_EQ(a.game(3)->moves.size(), 2u);
  EXPECT_EQ(a.game(3)->moves[1].col, 2);
}

// A database that stops answering (its link frozen, as a stopped server):
// the statement fails within the deadline and the connection is given up;
// once the database answers, the next transaction connects again.
TEST_F(PostgresStoreTest, ASilentDatabaseFailsAStatementWithinTheDeadline) {
  using namespace std::chrono_literals;
  const char* host = std::getenv("PGHOST");
  const char* port = std::getenv("PGPORT");
  TcpProxy link(host ? host : "localhost",
                static_cast<std::uint16_t>(port ? std::stoi(port) : 5432));
  PostgresStore pg(conninfo() + " host=127.0.0.1 port=" + std::to_string(link.port()),
                   PostgresStore::Use::kNode);
  pg.answer_within(500ms);
  pg.save_player(player(1, "alice"));
  link.freeze();
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_THROW(pg.save_player(player(2, "bob")), StoreError);
  const auto waited = std::chrono::steady_clock::now() - asked;
  EXPECT_GE(waited, 450ms);
  EXPECT_LT(waited, 5s);
  EXPECT_FALSE(pg.reachable());
  link.heal();
  pg.begin();  // connects again
  pg.save_player(player(2, "bob"));
  pg.commit();
  EXPECT_TRUE(pg.reachable());
  EXPECT_TRUE(pg.player_by_id(2));
}

// Group commit as on SQLite: one refused job loses nothing else of its
// batch, and each job hears its own outcome.
// Two nodes taking ids of one kind in a burst, their blocks asked for at
// the same moments: no id is handed out twice, and each node's come in
// increasing order.
TEST_F(PostgresStoreTest, IdsTakenByNodesAtOnceAreNeverTheSame) {
  boost::asio::io_context io;
  server::StoreWriter writer_a(
      std::make_unique<PostgresStore>(conninfo(), PostgresStore::Use::kNode), io.get_executor());
  server::StoreWriter writer_b(
      std::make_unique<PostgresStore>(conninfo(), PostgresStore::Use::kNode), io.get_executor());
  server::SequenceIds ids_a(writer_a, Store::IdKind::kGame);
  server::SequenceIds ids_b(writer_b, Store::IdKind::kGame);
  constexpr int kEach = 10'000;
  std::vector<std::int64_t> a, b;
  for (int i = 0; i < kEach; ++i) {
    a.push_back(ids_a.next());
    b.push_back(ids_b.next());
  }
  std::set<std::int64_t> all(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  EXPECT_EQ(all.size(), 2u * kEach) << "no id handed out twice";
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
}

TEST_F(PostgresStoreTest, TheWriterRefusesAFailedWriteAloneAndKeepsTheRest) {
  auto pg = std::make_unique<PostgresStore>(conninfo());
  pg->save_player(player(1, "alice"));
  pg->save_player(player(2, "bob"));
  pg->begin_game(game(1, 1, 2, 1'000));
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  {
    server::StoreWriter writer(std::move(pg), io.get_executor());
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    writer.submit([](Store& s) { s.add_move(1, 0, {1, 1, 1, 0}); }, done);
    writer.submit([](Store& s) { s.add_move(1, 0, {2, 2, 2, 0}); }, done);  // the same ply again
    writer.submit([](Store& s) { s.add_move(1, 1, {0, 0, 3, 0}); }, done);
    for (int i = 2; i < 200; ++i) {
      writer.submit([i](Store& s) { s.add_move(1, i, {i % 3, i % 3, i, 0}); });
    }
    writer.flush();
    EXPECT_EQ(writer.counters().failures, 1u);
  }
  io.run();
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_FALSE(outcomes[0]);
  ASSERT_TRUE(outcomes[1]);
  EXPECT_NE(outcomes[1]->find("duplicate key"), std::string::npos) << *outcomes[1];
  EXPECT_FALSE(outcomes[2]);
  PostgresStore check(conninfo());
  const auto moves = check.game(1)->moves;
  ASSERT_EQ(moves.size(), 200u);
  EXPECT_EQ(moves[0].row, 1);
  EXPECT_EQ(moves[1].row, 0);
}

// A job that holds the writer inside its batch until released, so that
// every job submitted meanwhile goes into the next batch together; it
// tells when it first runs. (A batch may run twice: later runs pass.)
class WriterGate {
 public:
  server::StoreWriter::Job job() {
    return [this](Store&) {
      std::unique_lock lock(mutex_);
      started_ = true;
      changed_.notify_all();
      changed_.wait_for(lock, std::chrono::seconds(30), [this] { return open_; });
    };
  }
  void wait_started() {
    std::unique_lock lock(mutex_);
    ASSERT_TRUE(changed_.wait_for(lock, std::chrono::seconds(30), [this] { return started_; }));
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool started_ = false;
  bool open_ = false;
};

// The same history as above, written as one batch in pipeline mode (every
// statement sent before the first answer is read): the same answers.
TEST_F(PostgresStoreTest, ABatchSentAheadStoresWhatStatementByStatementStores) {
  PostgresStore one_by_one(conninfo());
  write_history(one_by_one);
  PostgresScratch other;
  PostgresStore batched(other.conninfo());
  batched.begin_batch();
  write_history(batched, /*own_transaction=*/false);
  EXPECT_EQ(batched.player_by_id(4)->salt, "new-salt") << "a read inside the batch sees its writes";
  batched.commit();
  EXPECT_EQ(described(batched.load_players()), described(one_by_one.load_players()));
  EXPECT_EQ(described(batched.finished_games()), described(one_by_one.finished_games()));
  EXPECT_EQ(described(batched.load_unfinished_games()),
            described(one_by_one.load_unfinished_games()));
  EXPECT_EQ(batched.load_tokens(), one_by_one.load_tokens());
  EXPECT_EQ(batched.load_blocks(), one_by_one.load_blocks());
  // A failure inside the batch is thrown at the latest by its commit, and
  // nothing of the batch stands.
  batched.begin_batch();
  batched.save_player(player(9, "dave"));
  batched.add_move(1, 0, {2, 2, 9'000, 0});  // ply 0 of game 1 is stored already
  batched.save_token(9, "token-9");
  EXPECT_THROW(batched.commit(), StoreError);
  batched.rollback();
  EXPECT_FALSE(batched.player_by_id(9));
  EXPECT_EQ(batched.game(1)->moves.size(), 5u);
}

// One job refused among hundreds sent ahead in one batch: it alone is
// refused, the others are stored once, and each hears its own outcome.
TEST_F(PostgresStoreTest, OneRefusedJobAmongManySentAheadIsRefusedAlone) {
  auto pg = std::make_unique<PostgresStore>(conninfo());
  pg->save_player(player(1, "alice"));
  pg->save_player(player(2, "bob"));
  pg->begin_game(game(1, 1, 2, 1'000));
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  WriterGate gate;
  constexpr int kMoves = 2'000;  // more than a socket buffer holds
  {
    server::StoreWriter writer(std::move(pg), io.get_executor());
    writer.submit(gate.job());
    gate.wait_started();
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    for (int ply = 0; ply < kMoves; ++ply) {
      writer.submit([ply](Store& s) { s.add_move(1, ply, {ply % 3, ply % 3, ply, 0}); }, done);
      if (ply == kMoves / 2) {
        writer.submit([](Store& s) { s.add_move(1, 7, {0, 0, 0, 0}); }, done);  // ply 7 again
        writer.submit([](Store& s) { EXPECT_TRUE(s.player_by_id(2)); }, done);  // a read between
      }
    }
    gate.open();
    writer.flush();
    EXPECT_EQ(writer.counters().failures, 1u);
    EXPECT_GE(writer.counters().largest_batch, static_cast<std::uint64_t>(kMoves));
    EXPECT_FALSE(writer.counters().last_batch_ok) << "a write of it was refused";
  }
  io.run();
  ASSERT_EQ(outcomes.size(), static_cast<std::size_t>(kMoves + 2));
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (i == kMoves / 2 + 1) {
      ASSERT_TRUE(outcomes[i]);
      EXPECT_NE(outcomes[i]->find("duplicate key"), std::string::npos) << *outcomes[i];
    } else {
      EXPECT_FALSE(outcomes[i]) << i << ": " << *outcomes[i];
    }
  }
  const auto moves = PostgresStore(conninfo()).game(1)->moves;
  ASSERT_EQ(moves.size(), static_cast<std::size_t>(kMoves));
  EXPECT_EQ(moves[7].at_ms, 7) << "the refused write changed nothing";
}

// Fencing in a batch sent ahead: a write of a game another node took
// writes no row, which fails the batch; its second run refuses that job
// alone (it stores nothing: no move, no end, no result), names the holder,
// and stores the others. Moves of several jobs go as one INSERT: a taken
// game among them is found too.
TEST_F(PostgresStoreTest, AFencedWriteSentAheadIsRefusedAloneAndChangesNoCounts) {
  auto a = std::make_unique<PostgresStore>(conninfo(), PostgresStore::Use::kNode);
  PostgresStore b(conninfo(), PostgresStore::Use::kNode);
  a->save_player(player(1, "alice"));
  a->save_player(player(2, "bob"));
  constexpr int kGames = 20;
  for (int id = 1; id <= kGames; ++id) {
    auto g = game(id, 1, 2, 1'000);
    g.node = "nodea";
    a->begin_game(g);
  }
  // nodea never beat in the database: its games are taken at once.
  for (const int taken : {7, 12}) {
    ASSERT_TRUE(b.claim_game(taken, "nodea", "nodeb", std::chrono::seconds(60)));
  }
  const auto ends = [](int id) { return id % 4 == 0 || id == 12; };
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  std::vector<std::string> lost_to(kGames + 1);
  WriterGate gate;
  {
    server::StoreWriter writer(std::move(a), io.get_executor());
    writer.submit(gate.job());
    gate.wait_started();
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    for (int id = 1; id <= kGames; ++id) {
      writer.submit(
          [id, end = ends(id), &lost_to](Store& s) {
            try {
              s.add_held_move("nodea", id, 0, {1, 1, 1'100, 0});
              if (!end) return;
              s.end_held_game("nodea", id, "x_won", "resignation", 1'200);
              s.add_result({1, 10, 1, 0, 0, 1});
              s.add_result({2, -10, 0, 1, 0, 1});
            } catch (const server::GameLost& e) {
              lost_to[static_cast<std::size_t>(id)] = e.holder;
              throw;
            }
          },
          done);
    }
    gate.open();
    writer.flush();
    EXPECT_EQ(writer.counters().failures, 2u);
  }
  io.run();
  ASSERT_EQ(outcomes.size(), static_cast<std::size_t>(kGames));
  PostgresStore check(conninfo(), PostgresStore::Use::kReader);
  for (int id = 1; id <= kGames; ++id) {
    const auto& outcome = outcomes[static_cast<std::size_t>(id - 1)];
    const auto stored = check.game(id);
    ASSERT_TRUE(stored);
    if (id == 7 || id == 12) {
      ASSERT_TRUE(outcome) << id;
      EXPECT_NE(outcome->find("no longer held by this node (held by node nodeb"), std::string::npos)
          << *outcome;
      EXPECT_EQ(lost_to[static_cast<std::size_t>(id)], "nodeb");
      EXPECT_TRUE(stored->moves.empty()) << id;
      EXPECT_EQ(stored->status, "in_progress") << id;
    } else {
      EXPECT_FALSE(outcome) << id << ": " << *outcome;
      EXPECT_EQ(stored->moves.size(), 1u) << id;
      EXPECT_EQ(stored->status, ends(id) ? "x_won" : "in_progress") << id;
    }
  }
  EXPECT_EQ(check.figures_of(1)->games_played, 4) << "games 4, 8, 16 and 20; none for 12";
  EXPECT_EQ(check.figures_of(2)->losses, 4);
}

// The database's session ends while a batch is being sent (a restart, a
// failover): the batch fails on the dead session, the writer connects
// again and commits it whole; every job succeeds and is stored once.
TEST_F(PostgresStoreTest, ABatchCutMidPipelineIsCommittedOnceTheDatabaseIsBack) {
  auto pg = std::make_unique<PostgresStore>(conninfo() + " application_name=ttt_mid_pipeline");
  pg->save_player(player(1, "alice"));
  pg->save_player(player(2, "bob"));
  pg->begin_game(game(1, 1, 2, 1'000));
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  std::vector<bool> waiting;
  WriterGate first, inside;
  {
    server::StoreWriter writer(std::move(pg), io.get_executor());
    writer.on_waiting([&waiting](bool on) { waiting.push_back(on); });
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    writer.submit(first.job());
    first.wait_started();
    // The next batch: a move, a pause inside it, and 299 moves more.
    writer.submit([](Store& s) { s.add_move(1, 0, {1, 1, 0, 0}); }, done);
    writer.submit(inside.job());
    for (int ply = 1; ply < 300; ++ply) {
      writer.submit([ply](Store& s) { s.add_move(1, ply, {ply % 3, 0, ply, 0}); }, done);
    }
    first.open();
    inside.wait_started();  // BEGIN and the first move sent, unanswered
    PostgresScratch::admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE application_name = 'ttt_mid_pipeline'");
    inside.open();
    writer.flush();
    EXPECT_EQ(writer.counters().failures, 0u);
    EXPECT_TRUE(writer.counters().last_batch_ok);
    EXPECT_EQ(writer.counters().batches, 2u);
  }
  io.run();
  ASSERT_EQ(outcomes.size(), 300u);
  for (const auto& outcome : outcomes) EXPECT_FALSE(outcome) << *outcome;
  const auto moves = PostgresStore(conninfo()).game(1)->moves;
  ASSERT_EQ(moves.size(), 300u);
  EXPECT_EQ(moves[299].at_ms, 299);
}

// A database that falls silent while a batch is in flight: its answers
// don't come within the deadline, the writer waits (and says so) and
// commits the batch once the database answers again, once: the statements
// given up on still reach the database when the link heals, but no COMMIT
// among them (each job would otherwise find its move stored already).
TEST_F(PostgresStoreTest, ABatchSentIntoASilentDatabaseWaitsAndIsCommittedAfter) {
  using namespace std::chrono_literals;
  const char* host = std::getenv("PGHOST");
  const char* port = std::getenv("PGPORT");
  TcpProxy link(host ? host : "localhost",
                static_cast<std::uint16_t>(port ? std::stoi(port) : 5432));
  auto pg = std::make_unique<PostgresStore>(
      conninfo() + " host=127.0.0.1 port=" + std::to_string(link.port()),
      PostgresStore::Use::kNode);
  pg->save_player(player(1, "alice"));
  pg->save_player(player(2, "bob"));
  pg->begin_game(game(1, 1, 2, 1'000));
  pg->answer_within(400ms);
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  std::vector<bool> waiting;
  WriterGate first, inside;
  {
    server::StoreWriter writer(std::move(pg), io.get_executor());
    writer.on_waiting([&waiting](bool on) { waiting.push_back(on); });
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    writer.submit(first.job());
    first.wait_started();
    writer.submit(inside.job());
    for (int ply = 0; ply < 50; ++ply) {
      writer.submit([ply](Store& s) { s.add_move(1, ply, {ply % 3, 1, ply, 0}); }, done);
    }
    first.open();
    inside.wait_started();
    link.freeze();
    inside.open();  // the moves go out into the silence
    eventually([&] { return writer.counters().waiting; }, 10s, 20ms);
    EXPECT_TRUE(writer.counters().waiting) << "the writer noticed the silence";
    EXPECT_EQ(writer.counters().jobs, 1u) << "nothing acknowledged before its commit";
    link.heal();
    writer.flush();
    EXPECT_FALSE(writer.counters().waiting);
    EXPECT_EQ(writer.counters().failures, 0u);
  }
  io.run();
  ASSERT_EQ(outcomes.size(), 50u);
  for (const auto& outcome : outcomes) EXPECT_FALSE(outcome) << *outcome;
  EXPECT_EQ(waiting, (std::vector<bool>{true, false}));
  EXPECT_EQ(PostgresStore(conninfo()).game(1)->moves.size(), 50u);
}

// Two nodes settle results of one account at the same moment (the server's
// bots play at every node): each tells the figures the database holds after
// its own result, so whichever is told last, every node ends with both.
TEST_F(PostgresStoreTest, FiguresToldByNodesSettlingAtOnceAddUpToTheDatabases) {
  std::vector<StoredPlayer> players;
  {
    PostgresStore setup(conninfo());
    for (const auto& p : {player(1, "bot"), player(2, "alice"), player(3, "bob")}) {
      setup.save_player(p);
      players.push_back(p);
    }
  }
  boost::asio::io_context io;
  auto node_store = [this] {
    return std::make_unique<PostgresStore>(conninfo(), PostgresStore::Use::kNode);
  };
  server::StoreWriter writer_a(node_store(), io.get_executor());
  server::StoreWriter writer_b(node_store(), io.get_executor());
  server::StoredAccounts a(&writer_a, server::name_key, players);
  server::StoredAccounts b(&writer_b, server::name_key, players);
  a.share(nullptr);
  b.share(nullptr);
  std::vector<StoredPlayer> told_by_a, told_by_b;
  a.on_figures([&](const StoredPlayer& p) { told_by_a.push_back(p); });
  b.on_figures([&](const StoredPlayer& p) { told_by_b.push_back(p); });
  const server::AccountId bot{1}, alice{2}, bob{3};
  const server::GameResult bot_wins{Player::X, wire::END_REASON_LINE};
  // Both results are committed before either node hears of the other's.
  auto settle = [](server::StoredAccounts& node, server::StoreWriter& writer, server::AccountId o,
                   const server::GameResult& result) {
    const auto s = node.settle(server::AccountId{1}, o, result, false, 5);
    ASSERT_TRUE(s);
    writer.submit(
        [s](Store& store) {
          store.add_result(s->x);
          store.add_result(s->o);
        },
        [&node, s](const std::optional<std::string>& failure) { node.settled(*s, !failure); });
  };
  settle(a, writer_a, alice, bot_wins);
  settle(b, writer_b, bob, bot_wins);
  writer_a.flush();
  writer_b.flush();
  eventually(
      [&] {
        io.restart();
        io.poll();
        return told_by_a.size() >= 2 && told_by_b.size() >= 2;
      },
      10s, 10ms);
  ASSERT_EQ(told_by_a.size(), 2u);
  ASSERT_EQ(told_by_b.size(), 2u);
  for (const auto& p : told_by_b) a.take_figures(p);
  for (const auto& p : told_by_a) b.take_figures(p);
  PostgresStore check(conninfo(), PostgresStore::Use::kReader);
  const auto stored = check.figures_of(1);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->games_played, 2);
  EXPECT_EQ(stored->wins, 2);
  for (const server::StoredAccounts* node : {&a, &b}) {
    EXPECT_EQ(node->get(bot)->games_played, 2) << "both results, at either node";
    EXPECT_EQ(node->get(bot)->wins, 2);
    EXPECT_EQ(node->get(bot)->rating, stored->rating);
  }
  EXPECT_EQ(a.get(bob)->losses, 1) << "bob's result, told by the other node";
  EXPECT_EQ(b.get(alice)->losses, 1);
}

// Nodes that start together on a new database make its schema once.
TEST_F(PostgresStoreTest, NodesStartingTogetherMakeTheSchemaOnce) {
  std::vector<std::thread> nodes;
  std::vector<std::string> errors(4);
  for (std::size_t i = 0; i < errors.size(); ++i) {
    nodes.emplace_back([&, i] {
      try {
        PostgresStore pg(conninfo(), PostgresStore::Use::kReader);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (auto& node : nodes) node.join();
  for (const auto& error : errors) EXPECT_EQ(error, "");
  server::PgConnection check(conninfo());
  EXPECT_EQ(check.exec("SELECT COUNT(*) FROM ttt_schema").integer(0, 0), 1);
}

// Until nodes share a database, one server writes to it: a second is refused
// (their ids would collide); a reader (an export) is not.
TEST_F(PostgresStoreTest, ASecondServerOnTheSameDatabaseIsRefused) {
  PostgresStore first(conninfo());
  try {
    PostgresStore second(conninfo());
    FAIL() << "two servers on one database";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another ttt-server"), std::string::npos)
        << e.what();
  }
  PostgresStore reader(conninfo(), PostgresStore::Use::kReader);
  EXPECT_EQ(reader.schema_version(), PostgresStore::kVersion);
  // Another database (here: another schema) is another lock.
  PostgresScratch other;
  PostgresStore elsewhere(other.conninfo());
}

TEST_F(PostgresStoreTest, RefusesASchemaNewerThanItKnows) {
  { PostgresStore pg(conninfo()); }
  server::PgConnection(conninfo()).exec("UPDATE ttt_schema SET version = 99");
  try {
    PostgresStore pg(conninfo());
    FAIL() << "opened a schema from the future";
  } catch (const StoreError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("schema version 99 is newer"), std::string::npos) << what;
    EXPECT_NE(what.find("upgrade ttt-server"), std::string::npos) << what;
  }
}

TEST_F(PostgresStoreTest, AServerThatDoesNotAnswerIsAClearError) {
  try {
    PostgresStore pg("host=127.0.0.1 port=1 connect_timeout=5");
    FAIL() << "connected to nothing";
  } catch (const StoreError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot connect to PostgreSQL"), std::string::npos) << what;
    EXPECT_NE(what.find("127.0.0.1"), std::string::npos) << what;
  }
  EXPECT_THROW(PostgresStore("this is not a connection string"), StoreError);
}

TEST_F(PostgresStoreTest, AWrongPasswordIsAClearErrorAndNoPasswordIsEverShown) {
  try {
    PostgresStore pg(conninfo() + " password=not-the-password");
    FAIL() << "logged in with a wrong password";
  } catch (const StoreError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("password authentication failed"), std::string::npos) << what;
    EXPECT_EQ(what.find("not-the-password"), std::string::npos) << what;
  }
  const char* real = std::getenv("PGPASSWORD");
  ASSERT_NE(real, nullptr);
  PostgresStore pg(conninfo() + " password=" + real);
  EXPECT_EQ(pg.where().find(real), std::string::npos) << pg.where();
  EXPECT_EQ(pg.where().rfind("postgresql://", 0), 0u) << pg.where();
}

// The server's session ends under the store (a restart, a failover, an
// administrator): the batch in flight fails on the dead session, and its
// second run (the one with savepoints) connects again and goes through;
// nothing committed before is lost, and the server's lock is taken again.
TEST_F(PostgresStoreTest, ALostConnectionIsTakenUpAgainAtOnce) {
  auto pg = std::make_unique<PostgresStore>(conninfo() + " application_name=ttt_lost_session");
  pg->save_player(player(1, "alice"));
  pg->save_player(player(2, "bob"));
  pg->begin_game(game(1, 1, 2, 1'000));
  boost::asio::io_context io;
  std::vector<std::optional<std::string>> outcomes;
  {
    server::StoreWriter writer(std::move(pg), io.get_executor());
    auto done = [&outcomes](const std::optional<std::string>& r) { outcomes.push_back(r); };
    writer.submit([](Store& s) { s.add_move(1, 0, {1, 1, 1, 0}); }, done);
    writer.flush();
    PostgresScratch::admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE application_name = 'ttt_lost_session'");
    writer.submit([](Store& s) { s.add_move(1, 1, {0, 0, 2, 0}); }, done);
    writer.flush();
    EXPECT_TRUE(writer.counters().last_batch_ok);
    EXPECT_EQ(writer.counters().failures, 0u);
    // The lock came back with the new session: another server is refused.
    EXPECT_THROW(PostgresStore second(conninfo()), StoreError);
  }
  io.run();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0]);
  EXPECT_FALSE(outcomes[1]) << *outcomes[1];
  EXPECT_EQ(PostgresStore(conninfo()).game(1)->moves.size(), 2u);
}

// ttt-server --postgres: a game in progress outlives kill -9; its moves are
// all on record once; --export-games reads PostgreSQL.
TEST_F(PostgresStoreTest, TheServerKeepsAGameAcrossKillDashNine) {
  const std::vector<std::string> args{"--postgres", conninfo(), "--no-tls"};
  auto node = std::make_unique<ServerProcess>(args);
  const std::uint16_t port = node->port();
  std::string x_token, o_token;
  {
    TestClient alice(port);
    TestClient bob(port);
    x_token = alice.hello("alice").resume_token();
    o_token = bob.hello("bob").resume_token();
    alice.create(3);
    const auto id = alice.expect_joined().state().game_id();
    bob.join(id);
    bob.expect_joined();
    const auto play = [&](TestClient& who, int row, int col, std::uint32_t count) {
      who.move(row, col);
      for (TestClient* c : {&alice, &bob}) {
        c->expect_state([count](const wire::GameState& s) { return s.move_count() == count; },
                        "move " + std::to_string(count));
      }
    };
    play(alice, 0, 0, 1);
    play(bob, 1, 1, 2);
    play(alice, 2, 2, 3);
    node->process().kill(9);
  }
  node = std::make_unique<ServerProcess>(args, port);
  const auto second = run_command(
      {bin_dir() + "/ttt-server", "--port", "0", "--no-tls", "--postgres", conninfo()}, 20s);
  EXPECT_EQ(second.exit_code, 1) << second.output;
  EXPECT_NE(second.output.find("in use by another ttt-server"), std::string::npos) << second.output;
  TestClient alice(port);
  TestClient bob(port);
  ASSERT_TRUE(alice.hello("", x_token).resumed());
  EXPECT_EQ(alice.expect_joined().state().cells(), "XEEEOEEEX");
  ASSERT_TRUE(bob.hello("", o_token).resumed());
  bob.expect_joined();
  bob.move(0, 2);
  alice.expect_state([](const wire::GameState& s) { return s.move_count() == 4; }, "move 4");
  alice.simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  bob.expect_state(
      [](const wire::GameState& s) { return s.status() != wire::GAME_STATUS_IN_PROGRESS; },
      "the end");
  node->process().kill(15);
  ASSERT_TRUE(node->process().wait_exit(10s));

  PostgresStore pg(conninfo(), PostgresStore::Use::kReader);
  const auto finished = pg.finished_games();
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].moves.size(), 4u);
  EXPECT_EQ(finished[0].status, "o_won");
  EXPECT_EQ(finished[0].reason, "resignation");

  const std::string file = (fs::path(dir_.path()) / "games.txt").string();
  const auto result =
      run_command({bin_dir() + "/ttt-server", "--postgres", conninfo(), "--export-games", file});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("exported 1 games"), std::string::npos) << result.output;
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("x alice\no bob\n"), std::string::npos) << text;
  EXPECT_NE(text.find("moves 4\n"), std::string::npos) << text;
}

// Two bots play a series against each other on a PostgreSQL server: every
// game on record once, ratings updated, the summary clean.
TEST_F(PostgresStoreTest, BotsPlayASeriesOnRecord) {
  ServerProcess node({"--postgres", conninfo()});
  TempDir config;
  auto a = start_bot(
      node.port(), config,
      {"--name", "pg-a", "--level", "random", "--quick-match", "3", "--games", "6", "--seed", "3"});
  auto b = start_bot(
      node.port(), config,
      {"--name", "pg-b", "--level", "random", "--quick-match", "3", "--games", "6", "--seed", "4"});
  ASSERT_EQ(a->wait_exit(60s), 0) << a->output();
  ASSERT_EQ(b->wait_exit(60s), 0) << b->output();
  for (auto* bot : {a.get(), b.get()}) {
    const auto summary = last_line_summary(bot->output());
    ASSERT_TRUE(summary) << bot->output();
    EXPECT_EQ(summary->games, 6);
    EXPECT_EQ(summary->errors, 0);
  }
  PostgresStore pg(conninfo(), PostgresStore::Use::kReader);
  const auto finished = pg.finished_games();
  EXPECT_EQ(finished.size(), 6u);
  for (const auto& g : finished) {
    EXPECT_GE(g.moves.size(), 5u) << describe(g);
    EXPECT_NE(g.status, "in_progress");
  }
  const auto players = pg.load_players();
  ASSERT_EQ(players.size(), 2u);
  EXPECT_EQ(players[0].games_played, 6);
  EXPECT_EQ(players[1].games_played, 6);
}

TEST(PostgresFlags, ADatabaseFileAndPostgresTogetherAreRefused) {
  const auto result = run_command(
      {bin_dir() + "/ttt-server", "--db", "ttt.db", "--postgres", "host=127.0.0.1", "--no-tls"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--db and --postgres"), std::string::npos) << result.output;
}

TEST(PostgresFlags, AnUnreachableServerStopsTheStartWithAClearError) {
  TempDir state;
  const auto result = run_command({bin_dir() + "/ttt-server", "--port", "0", "--no-tls",
                                   "--postgres", "host=127.0.0.1 port=1 connect_timeout=5"},
                                  20s);
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("cannot connect to PostgreSQL"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace ttt::testing
