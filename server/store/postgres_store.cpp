#include "store/postgres_store.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "game/rating.hpp"
#include "store/record_rows.hpp"

namespace ttt::server {
namespace {

// A new database gets the current schema at once: no PostgreSQL database of
// an older version exists. A later version adds its own step after this one
// (ALTER TABLE ...), as the SQLite store's migrations do.
constexpr const char* kSchema = R"sql(
CREATE TABLE players (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  salt TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  is_bot INTEGER NOT NULL DEFAULT 0,
  rating DOUBLE PRECISION NOT NULL DEFAULT 1200,
  games_played BIGINT NOT NULL DEFAULT 0,
  wins BIGINT NOT NULL DEFAULT 0,
  losses BIGINT NOT NULL DEFAULT 0,
  draws BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX players_by_name ON players (lower(name));
CREATE TABLE games (
  id BIGINT PRIMARY KEY,
  room_id BIGINT NOT NULL,
  round INTEGER NOT NULL,
  size INTEGER NOT NULL,
  x_player BIGINT NOT NULL REFERENCES players(id),
  o_player BIGINT NOT NULL REFERENCES players(id),
  rated INTEGER NOT NULL,
  is_private INTEGER NOT NULL,
  invite_code TEXT NOT NULL DEFAULT '',
  bot_level INTEGER NOT NULL DEFAULT 0,
  started_ms BIGINT NOT NULL,
  ended_ms BIGINT NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  win_length INTEGER NOT NULL,
  clock_initial_ms BIGINT NOT NULL DEFAULT 0,
  clock_increment_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_x ON games(x_player, ended_ms);
CREATE INDEX games_by_o ON games(o_player, ended_ms);
CREATE TABLE moves (
  game_id BIGINT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  "row" INTEGER NOT NULL,
  col INTEGER NOT NULL,
  at_ms BIGINT NOT NULL,
  clock_ms BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, ply)
);
CREATE TABLE resume_tokens (
  player_id BIGINT PRIMARY KEY REFERENCES players(id),
  token_hash TEXT NOT NULL
);
CREATE TABLE blocks (
  player_id BIGINT NOT NULL REFERENCES players(id),
  blocked_id BIGINT NOT NULL REFERENCES players(id),
  PRIMARY KEY (player_id, blocked_id)
);
)sql";

// Version 4: what several nodes share. Ids come from sequences (a node
// takes a block of them at a time), a name's key is kept so that any node
// finds an account by it, and a game in progress names the node holding it.
constexpr const char* kVersion4 = R"sql(
ALTER TABLE games ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX players_by_key ON players (name_key);
CREATE SEQUENCE ttt_room_ids;
CREATE SEQUENCE ttt_game_ids;
CREATE SEQUENCE ttt_player_ids;
SELECT setval('ttt_room_ids', (SELECT COALESCE(MAX(room_id), 0) + 1 FROM games), false);
SELECT setval('ttt_game_ids', (SELECT COALESCE(MAX(id), 0) + 1 FROM games), false);
SELECT setval('ttt_player_ids', (SELECT COALESCE(MAX(id), 0) + 1 FROM players), false);
)sql";

// Version 5: each node's heartbeat in the database, so that a node cut from
// Redis but still committing keeps its games (claim_game).
constexpr const char* kVersion5 = R"sql(
CREATE TABLE ttt_nodes (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  port INTEGER NOT NULL,
  fingerprint TEXT NOT NULL DEFAULT '',
  beat TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_by_node ON games(node) WHERE status = 'in_progress';
)sql";

// A node's beat within the last $N milliseconds (the database's clock).
#define TTT_BEAT_FRESH(node, ms)                         \
  "EXISTS (SELECT 1 FROM ttt_nodes n WHERE n.id = " node \
  " AND n.beat > "                                       \
  "clock_timestamp() - " ms "::bigint * interval '1 millisecond')"

// Any constant of ours: the key of the advisory lock taken while the schema
// is checked and migrated ("ttt" in ASCII).
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7633012)";
// The lock a writing server holds for as long as its session lasts: one per
// schema (the tables of one ttt database).
constexpr const char* kServerLock =
    "SELECT pg_try_advisory_lock(7633013, hashtext(current_schema()))";

// One row of a result, as record_rows.hpp reads rows.
struct PgRow {
  const PgResult& r;
  int row;
  std::int64_t integer(int i) const { return r.integer(row, i); }
  double real(int i) const { return r.real(row, i); }
  std::string text(int i) const { return r.text(row, i); }
};

PgParam flag(bool on) { return pg_param(std::int64_t{on ? 1 : 0}); }
PgParam number(std::int64_t value) { return pg_param(value); }

}  // namespace

PostgresStore::PostgresStore(const std::string& conninfo, Use use) : db_(conninfo), use_(use) {
  db_.before_answers([this] { send_pending(); });
  try {
    check_and_migrate();
  } catch (const StoreError& e) {
    throw StoreError("PostgreSQL database " + db_.where() + " is unusable: " + e.what());
  }
  claim();
}

void PostgresStore::claim() {
  if (use_ != Use::kServer) return;
  if (db_.exec(kServerLock).text(0, 0) != "t") {
    throw StoreError("PostgreSQL database " + db_.where() +
                     " is in use by another ttt-server: one server per database, unless they "
                     "are nodes of one lobby sharing a Redis (--redis)");
  }
}

int PostgresStore::schema_version() {
  auto rows = db_.exec("SELECT version FROM ttt_schema");
  return rows.rows() == 0 ? 0 : static_cast<int>(rows.integer(0, 0));
}

void PostgresStore::check_and_migrate() {
  db_.exec("BEGIN");
  try {
    db_.exec(kMigrationLock);
    db_.exec("CREATE TABLE IF NOT EXISTS ttt_schema (version INTEGER NOT NULL)");
    const int version = schema_version();
    if (version > kVersion) {
      throw StoreError("its schema version " + std::to_string(version) +
                       " is newer than this server's " + std::to_string(kVersion) +
                       ": upgrade ttt-server");
    }
    if (version == 0) {
      db_.exec(kSchema);
      db_.exec("INSERT INTO ttt_schema (version) VALUES (3)");
    } else if (version < 3) {
      throw StoreError("its schema version " + std::to_string(version) +
                       " has no migration to version " + std::to_string(kVersion));
    }
    if (version < 4) {
      db_.exec(kVersion4);
      db_.exec("UPDATE ttt_schema SET version = 4");
    }
    if (version < 5) {
      db_.exec(kVersion5);
      db_.exec("UPDATE ttt_schema SET version = 5");
    }

    db_.exec("COMMIT");
  } catch (...) {
    if (db_.connected()) {
      try {
        db_.exec("ROLLBACK");
      } catch (const StoreError&) {
        // The first failure is the one worth reporting.
      }
    }
    throw;
  }
}

std::string PostgresStore::where() const { return "postgresql://" + db_.where(); }

// --- startup reads --------------------------------------------------------------

std::vector<StoredPlayer> PostgresStore::load_players() {
  auto rows = db_.exec(TTT_PLAYER_COLUMNS
                       ", (SELECT COUNT(*) FROM games g WHERE (g.x_player = p.id OR "
                       "g.o_player = p.id) AND " TTT_GAME_COUNTED ") FROM players p ORDER BY id");
  std::vector<StoredPlayer> players;
  players.reserve(static_cast<std::size_t>(rows.rows()));
  for (int i = 0; i < rows.rows(); ++i) {
    players.push_back(player_from(PgRow{rows, i}));
    players.back().rated_games = rows.integer(i, 10);
  }
  auto pairs = db_.run(TTT_RATED_OPPONENTS("$1"), {number(kVariedOpponents)});
  std::vector<std::pair<std::int64_t, std::int64_t>> opponents;
  opponents.reserve(static_cast<std::size_t>(pairs.rows()));
  for (int i = 0; i < pairs.rows(); ++i) {
    opponents.emplace_back(pairs.integer(i, 0), pairs.integer(i, 1));
  }
  give_opponents(players, opponents);
  return players;
}

std::vector<RatedPairing> PostgresStore::load_rated_pairings(std::int64_t since_ms) {
  auto rows = db_.run(
      "SELECT g.x_player, g.o_player, g.ended_ms FROM games g WHERE "
      "g.ended_ms >= $1 AND " TTT_GAME_COUNTED " ORDER BY g.ended_ms",
      {number(since_ms)});
  std::vector<RatedPairing> pairings;
  for (int i = 0; i < rows.rows(); ++i) {
    pairings.push_back({rows.integer(i, 0), rows.integer(i, 1), rows.integer(i, 2)});
  }
  return pairings;
}

std::vector<GameRecord> PostgresStore::games_with_moves(const PgResult& rows) {
  std::vector<GameRecord> games;
  games.reserve(static_cast<std::size_t>(rows.rows()));
  for (int i = 0; i < rows.rows(); ++i) games.push_back(game_from(PgRow{rows, i}));
  for (auto& g : games) {
    auto moves =
        db_.run("SELECT \"row\", col, at_ms, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply",
                {number(g.id)});
    for (int i = 0; i < moves.rows(); ++i) {
      g.moves.push_back({static_cast<int>(moves.integer(i, 0)),
                         static_cast<int>(moves.integer(i, 1)), moves.integer(i, 2),
                         moves.integer(i, 3)});
    }
  }
  return games;
}

std::vector<GameRecord> PostgresStore::load_unfinished_games() {
  return games_with_moves(
      db_.exec(TTT_GAME_COLUMNS "WHERE g.status = 'in_progress' ORDER BY g.id"));
}

std::vector<std::pair<std::int64_t, std::string>> PostgresStore::load_tokens() {
  auto rows = db_.exec("SELECT player_id, token_hash FROM resume_tokens ORDER BY player_id");
  std::vector<std::pair<std::int64_t, std::string>> tokens;
  for (int i = 0; i < rows.rows(); ++i) tokens.emplace_back(rows.integer(i, 0), rows.text(i, 1));
  return tokens;
}

std::vector<std::pair<std::int64_t, std::int64_t>> PostgresStore::load_blocks() {
  auto rows = db_.exec("SELECT player_id, blocked_id FROM blocks ORDER BY player_id, blocked_id");
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  for (int i = 0; i < rows.rows(); ++i) blocks.emplace_back(rows.integer(i, 0), rows.integer(i, 1));
  return blocks;
}

std::int64_t PostgresStore::single_integer(const char* sql) {
  auto rows = db_.exec(sql);
  return rows.integer(0, 0);
}

std::int64_t PostgresStore::max_game_id() {
  return single_integer("SELECT COALESCE(MAX(id), 0) FROM games");
}

std::int64_t PostgresStore::max_room_id() {
  return single_integer("SELECT COALESCE(MAX(room_id), 0) FROM games");
}

std::int64_t PostgresStore::max_player_id() {
  return single_integer("SELECT COALESCE(MAX(id), 0) FROM players");
}

// --- writes ---------------------------------------------------------------------

void PostgresStore::write(const char* sql, const std::vector<PgParam>& params) {
  if (refusing_) throw StoreError("writes refused (test hook)");
  db_.send(sql, params);  // in a batch: answered at its commit
}

void PostgresStore::save_player(const StoredPlayer& p) {
  write(
      "INSERT INTO players (id, name, salt, secret_hash, is_bot, rating, games_played, wins, "
      "losses, draws, name_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
      "ON CONFLICT (id) DO NOTHING",
      {number(p.id), pg_param(p.name), pg_param(p.salt), pg_param(p.secret_hash), flag(p.is_bot),
       pg_param(p.rating), number(p.games_played), number(p.wins), number(p.losses),
       number(p.draws), p.key.empty() ? PgParam{} : pg_param(p.key)});
}

void PostgresStore::add_result(const PlayerResult& r) {
  write(
      "UPDATE players SET rating = rating + $1, games_played = games_played + 1, "
      "wins = wins + $2, losses = losses + $3, draws = draws + $4 WHERE id = $5",
      {pg_param(r.rating_change), number(r.wins), number(r.losses), number(r.draws),
       number(r.player_id)});
}

void PostgresStore::begin_game(const GameRecord& g) {
  write(
      "INSERT INTO games (id, room_id, round, size, x_player, o_player, rated, is_private, "
      "invite_code, bot_level, started_ms, status, win_length, clock_initial_ms, "
      "clock_increment_ms, node) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
      "$13, $14, $15, $16) ON CONFLICT (id) DO NOTHING",
      {number(g.id), number(g.room_id), number(g.round), number(g.size), number(g.x_player),
       number(g.o_player), flag(g.rated), flag(g.is_private), pg_param(g.invite_code),
       number(g.bot_level), number(g.started_ms), pg_param(g.status), number(g.win_length),
       number(g.clock_initial_ms), number(g.clock_increment_ms), pg_param(g.node)});
}

void PostgresStore::add_move(std::int64_t game_id, int ply, const StoredMove& m) {
  if (db_.pipelined()) {
    if (refusing_) throw StoreError("writes refused (test hook)");
    hold_move("", game_id, ply, m);
    return;
  }
  write(
      "INSERT INTO moves (game_id, ply, \"row\", col, at_ms, clock_ms) "
      "VALUES ($1, $2, $3, $4, $5, $6)",
      {number(game_id), number(ply), number(m.row), number(m.col), number(m.at_ms),
       number(m.clock_ms)});
}

void PostgresStore::end_game(std::int64_t game_id, const std::string& status,
                             const std::string& reason, std::int64_t ended_ms,
                             std::optional<bool> rated) {
  static constexpr const char* kEnd =
      "UPDATE games SET status = $1, reason = $2, ended_ms = $3, "
      "rated = COALESCE($4::integer, rated) WHERE id = $5";
  std::vector<PgParam> params{pg_param(status), pg_param(reason), number(ended_ms),
                              rated ? flag(*rated) : PgParam{}, number(game_id)};
  if (db_.pipelined()) {
    if (refusing_) throw StoreError("writes refused (test hook)");
    hold_end(game_id, kEnd, std::move(params), std::nullopt);
    return;
  }
  write(kEnd, params);
}

void PostgresStore::lost(std::int64_t game_id) {
  auto rows = db_.run("SELECT node, status FROM games WHERE id = $1", {number(game_id)});
  if (rows.rows() == 0) throw StoreError("game " + std::to_string(game_id) + " is not stored");
  throw GameLost(game_id, rows.text(0, 0), rows.text(0, 1));
}

void PostgresStore::add_held_move(const std::string& holder, std::int64_t game_id, int ply,
                                  const StoredMove& m) {
  if (refusing_) throw StoreError("writes refused (test hook)");
  const std::vector<PgParam> params{number(game_id), number(ply),     number(m.row),
                                    number(m.col),   number(m.at_ms), number(m.clock_ms),
                                    pg_param(holder)};
  // FOR SHARE: the game's row stays locked until the transaction ends, so a
  // claim (an update of the row) waits for this move or this move for it.
  // The game by its key alone (as send_pending: not by games_by_node).
#define TTT_HELD_MOVE                                                 \
  "INSERT INTO moves (game_id, ply, \"row\", col, at_ms, clock_ms) "  \
  "SELECT g.id, $2, $3, $4, $5, $6 FROM games g WHERE g.id = $1 AND " \
  "g.node || '' = $7 AND g.status || '' = 'in_progress' FOR SHARE RETURNING ply"
  if (db_.pipelined()) {
    hold_move(holder, game_id, ply, m);
    return;
  }
  if (db_.run(TTT_HELD_MOVE, params).rows() != 1) lost(game_id);
#undef TTT_HELD_MOVE
}

void PostgresStore::end_held_game(const std::string& holder, std::int64_t game_id,
                                  const std::string& status, const std::string& reason,
                                  std::int64_t ended_ms, std::optional<bool> rated) {
  if (refusing_) throw StoreError("writes refused (test hook)");
  const std::vector<PgParam> params{pg_param(status), pg_param(reason),
                                    number(ended_ms), rated ? flag(*rated) : PgParam{},
                                    number(game_id),  pg_param(holder)};
  // The game is found by its key alone: node and status are compared as
  // expressions no index answers, or the planner (a prepared statement's
  // generic plan) reads games_by_node, every version of every game of the
  // node there (the dead ones until a vacuum), for each game that ends.
#define TTT_HELD_END                                                            \
  "UPDATE games SET status = $1, reason = $2, ended_ms = $3, "                  \
  "rated = COALESCE($4::integer, rated) WHERE id = $5 AND node || '' = $6 AND " \
  "status || '' = 'in_progress' RETURNING id"
  if (db_.pipelined()) {
    // Answered before the batch commits: no row written fails the batch,
    // and its second run (job by job) finds who holds the game.
    hold_end(game_id, TTT_HELD_END, params, 1);
    return;
  }
  if (db_.run(TTT_HELD_END, params).rows() != 1) lost(game_id);
#undef TTT_HELD_END
}

void PostgresStore::hold_move(const std::string& holder, std::int64_t game_id, int ply,
                              const StoredMove& m) {
  if ((!moves_.empty() && holder != moves_holder_) || ended_.contains(game_id)) send_pending();
  moves_holder_ = holder;
  moves_.add(game_id, ply, m);
}

void PostgresStore::hold_end(std::int64_t game_id, const char* sql, std::vector<PgParam> params,
                             std::optional<int> rows) {
  ends_.push_back({sql, std::move(params), rows});
  ended_.insert(game_id);
}

void PostgresStore::send_pending() {
  if (moves_.empty() && ends_.empty()) return;
  // Taken out first: what is sent is no longer held, whatever sending says.
  const auto ends = std::move(ends_);
  ends_.clear();
  ended_.clear();
  if (!moves_.empty()) {
    auto params = moves_.params();
    const int count = moves_.count();
    moves_.clear();
    if (moves_holder_.empty()) {
      db_.send(TTT_INSERT_MOVE_ROWS, params);
    } else {
      // A node's moves: each only while the node holds its game in
      // progress (FOR SHARE, as one move alone); a move whose game it
      // doesn't hold writes no row, and the count fails the batch. Each
      // move's game is looked up by its key: the holder and status are
      // compared as expressions no index answers, because a join that could
      // read them from games_by_node read every version of the node's games
      // there (the dead ones until a vacuum) once a batch.
      params.push_back(pg_param(moves_holder_));
      db_.send(TTT_INSERT_MOVE_ROWS
               "CROSS JOIN LATERAL (SELECT 1 FROM games g WHERE g.id = m.game_id AND "
               "g.node || '' = $7 AND g.status || '' = 'in_progress' FOR SHARE) AS held "
               "RETURNING ply",
               params, count);
    }
  }
  for (const HeldEnd& end : ends) db_.send(end.sql, end.params, end.rows);
}

void PostgresStore::save_secret(std::int64_t player_id, const std::string& salt,
                                const std::string& hash) {
  write("UPDATE players SET salt = $1, secret_hash = $2 WHERE id = $3",
        {pg_param(salt), pg_param(hash), number(player_id)});
}

void PostgresStore::save_token(std::int64_t player_id, const std::string& token_hash) {
  write(
      "INSERT INTO resume_tokens (player_id, token_hash) VALUES ($1, $2) "
      "ON CONFLICT (player_id) DO UPDATE SET token_hash = EXCLUDED.token_hash",
      {number(player_id), pg_param(token_hash)});
}

void PostgresStore::drop_token(std::int64_t player_id) {
  write("DELETE FROM resume_tokens WHERE player_id = $1", {number(player_id)});
}

void PostgresStore::save_block(std::int64_t player_id, std::int64_t blocked_id) {
  write("INSERT INTO blocks (player_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        {number(player_id), number(blocked_id)});
}

void PostgresStore::drop_block(std::int64_t player_id, std::int64_t blocked_id) {
  write("DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2",
        {number(player_id), number(blocked_id)});
}

void PostgresStore::begin() {
  if (!db_.connected()) {
    db_.reconnect();
    claim();  // the lock went with the lost session
  }
  db_.exec("BEGIN");
}

void PostgresStore::begin_batch() {
  if (!db_.connected()) {
    db_.reconnect();
    claim();
  }
  moves_.clear();
  ends_.clear();
  ended_.clear();
  db_.begin_pipeline();
  db_.send("BEGIN");
}

void PostgresStore::commit() {
  if (db_.pipelined()) {
    // Every answer of the batch first (one round trip for all of it), and
    // COMMIT only once they are in and good: a batch the writer gave up on
    // (a silent database) can then never be committed behind its back by
    // statements still on their way, as none of them is a COMMIT.
    try {
      db_.sync();
    } catch (const StoreError&) {
      db_.end_pipeline();
      throw;
    }
    db_.end_pipeline();
  }
  db_.exec("COMMIT");
}

void PostgresStore::rollback() {
  moves_.clear();  // never sent
  ends_.clear();
  ended_.clear();
  db_.end_pipeline();
  db_.exec("ROLLBACK");
}
void PostgresStore::savepoint() { db_.exec("SAVEPOINT job"); }
void PostgresStore::release() { db_.exec("RELEASE SAVEPOINT job"); }
void PostgresStore::rollback_to_savepoint() {
  db_.exec("ROLLBACK TO SAVEPOINT job; RELEASE SAVEPOINT job");
}

void PostgresStore::refuse_writes(bool on) { refusing_ = on; }

// --- several nodes ----------------------------------------------------------------

Store::IdRuns PostgresStore::reserve_ids(IdKind kind, int count) {
  // `count` calls of nextval in one statement: each is atomic, so no other
  // session gets one of these ids (nextval then setval past a block would
  // not be: another session's nextval can fall between the two). Another
  // node's ids may fall among them: the runs say where.
  const char* sql =
      kind == IdKind::kRoom   ? "SELECT nextval('ttt_room_ids') FROM generate_series(1, $1)"
      : kind == IdKind::kGame ? "SELECT nextval('ttt_game_ids') FROM generate_series(1, $1)"
                              : "SELECT nextval('ttt_player_ids') FROM generate_series(1, $1)";
  auto rows = db_.run(sql, {number(count)});
  std::vector<std::int64_t> ids;
  ids.reserve(static_cast<std::size_t>(rows.rows()));
  for (int i = 0; i < rows.rows(); ++i) ids.push_back(rows.integer(i, 0));
  std::sort(ids.begin(), ids.end());
  IdRuns runs;
  for (const std::int64_t id : ids) {
    if (!runs.empty() && runs.back().second == id) {
      ++runs.back().second;
    } else {
      runs.emplace_back(id, id + 1);
    }
  }
  return runs;
}

std::optional<StoredPlayer> PostgresStore::one_player(const PgResult& rows) {
  if (rows.rows() == 0) return std::nullopt;
  StoredPlayer p = player_from(PgRow{rows, 0});
  p.rated_games = rows.integer(0, 10);
  if (!rows.is_null(0, 11)) p.key = rows.text(0, 11);
  auto opponents =
      db_.run(TTT_RATED_OPPONENTS_OF("$1", "$2"), {number(p.id), number(kVariedOpponents)});
  for (int i = 0; i < opponents.rows(); ++i) p.opponents.push_back(opponents.integer(i, 0));
  return p;
}

// One account with its rated games counted and its name's key (one_player
// adds its opponents).
#define TTT_ONE_PLAYER                                           \
  TTT_PLAYER_COLUMNS                                             \
  ", (SELECT COUNT(*) FROM games g WHERE (g.x_player = p.id OR " \
  "g.o_player = p.id) AND " TTT_GAME_COUNTED "), p.name_key FROM players p "

std::optional<StoredPlayer> PostgresStore::player_by_key(const std::string& key) {
  return one_player(db_.run(TTT_ONE_PLAYER "WHERE p.name_key = $1", {pg_param(key)}));
}

std::optional<StoredPlayer> PostgresStore::player_by_id(std::int64_t id) {
  return one_player(db_.run(TTT_ONE_PLAYER "WHERE p.id = $1", {number(id)}));
}

std::optional<StoredPlayer> PostgresStore::figures_of(std::int64_t player_id) {
  auto rows = db_.run(TTT_PLAYER_COLUMNS "FROM players WHERE id = $1", {number(player_id)});
  if (rows.rows() == 0) return std::nullopt;
  return player_from(PgRow{rows, 0});
}

std::vector<StoredPlayer> PostgresStore::figures_of_all(
    const std::vector<std::int64_t>& player_ids) {
  std::string list = "{";
  for (std::size_t i = 0; i < player_ids.size(); ++i) {
    list += (i ? "," : "") + std::to_string(player_ids[i]);
  }
  list += "}";
  auto rows = db_.run(TTT_PLAYER_COLUMNS "FROM players WHERE id = ANY($1::bigint[]) ORDER BY id",
                      {pg_param(list)});
  std::vector<StoredPlayer> players;
  for (int i = 0; i < rows.rows(); ++i) players.push_back(player_from(PgRow{rows, i}));
  return players;
}

std::vector<std::int64_t> PostgresStore::blocked_by(std::int64_t player_id) {
  auto rows = db_.run("SELECT blocked_id FROM blocks WHERE player_id = $1 ORDER BY blocked_id",
                      {number(player_id)});
  std::vector<std::int64_t> blocked;
  for (int i = 0; i < rows.rows(); ++i) blocked.push_back(rows.integer(i, 0));
  return blocked;
}

std::vector<GameRecord> PostgresStore::unfinished_games_of(std::int64_t player_id) {
  auto games = games_with_moves(
      db_.run(TTT_GAME_COLUMNS
              "WHERE g.status = 'in_progress' AND (g.x_player = $1 OR g.o_player = $1) "
              "ORDER BY g.id",
              {number(player_id)}));
  for (auto& g : games) {
    g.node = db_.run("SELECT node FROM games WHERE id = $1", {number(g.id)}).text(0, 0);
  }
  return games;
}

std::vector<std::pair<std::int64_t, std::string>> PostgresStore::orphaned_games(
    const std::vector<std::string>& live_nodes, int limit, std::chrono::milliseconds dead_after) {
  // The live nodes as one text parameter: a PostgreSQL array literal of
  // node ids (hex: nothing to quote).
  std::string live = "{";
  for (std::size_t i = 0; i < live_nodes.size(); ++i) live += (i ? "," : "") + live_nodes[i];
  live += "}";
  auto rows = db_.run(
      "SELECT g.id, g.node FROM games g WHERE g.status = 'in_progress' AND "
      "NOT (g.node = ANY($1::text[])) AND NOT " TTT_BEAT_FRESH("g.node",
                                                               "$3") " ORDER BY g.id LIMIT $2",
      {pg_param(live), number(limit), number(dead_after.count())});
  std::vector<std::pair<std::int64_t, std::string>> games;
  for (int i = 0; i < rows.rows(); ++i) games.emplace_back(rows.integer(i, 0), rows.text(i, 1));
  return games;
}

bool PostgresStore::claim_game(std::int64_t game_id, const std::string& from, const std::string& to,
                               std::chrono::milliseconds dead_after) {
  if (refusing_) throw StoreError("writes refused (test hook)");
  // Row-level: of several nodes claiming the same holder's game at once,
  // the first update wins and the others find the holder changed. A holder
  // that still beats here keeps the game, whatever Redis says of it.
  // By the game's key alone (as end_held_game: not by games_by_node).
  auto rows = db_.run(
      "UPDATE games SET node = $1 WHERE id = $2 AND node || '' = $3 AND "
      "status || '' = 'in_progress' AND NOT " TTT_BEAT_FRESH("$3", "$4") " RETURNING id",
      {pg_param(to), number(game_id), pg_param(from), number(dead_after.count())});
  return rows.rows() == 1;
}

void PostgresStore::beat_node(const std::string& node, const std::string& host, int port,
                              const std::string& fingerprint) {
  write(
      "INSERT INTO ttt_nodes (id, host, port, fingerprint, beat) VALUES ($1, $2, $3, $4, "
      "clock_timestamp()) ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, port = "
      "EXCLUDED.port, fingerprint = EXCLUDED.fingerprint, beat = EXCLUDED.beat",
      {pg_param(node), pg_param(host), number(port), pg_param(fingerprint)});
}

void PostgresStore::drop_node(const std::string& node) {
  write("DELETE FROM ttt_nodes WHERE id = $1 OR beat < clock_timestamp() - interval '1 day'",
        {pg_param(node)});
}

std::optional<Store::NodeAddress> PostgresStore::live_node(const std::string& node,
                                                           std::chrono::milliseconds dead_after) {
  auto rows = db_.run(
      "SELECT host, port, fingerprint FROM ttt_nodes n WHERE n.id = $1 AND "
      "n.beat > clock_timestamp() - $2::bigint * interval '1 millisecond'",
      {pg_param(node), number(dead_after.count())});
  if (rows.rows() == 0) return std::nullopt;
  return NodeAddress{rows.text(0, 0), static_cast<int>(rows.integer(0, 1)), rows.text(0, 2)};
}

std::vector<std::pair<std::int64_t, std::string>> PostgresStore::game_holders(
    const std::vector<std::int64_t>& ids) {
  std::string list = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) list += (i ? "," : "") + std::to_string(ids[i]);
  list += "}";
  auto rows = db_.run(
      "SELECT id, CASE WHEN status = 'in_progress' THEN node ELSE '' END FROM "
      "games WHERE id = ANY($1::bigint[]) ORDER BY id",
      {pg_param(list)});
  std::vector<std::pair<std::int64_t, std::string>> holders;
  for (int i = 0; i < rows.rows(); ++i) holders.emplace_back(rows.integer(i, 0), rows.text(i, 1));
  return holders;
}

void PostgresStore::release_games(const std::string& node) {
  send_pending();  // written while the node held the games
  write("UPDATE games SET node = '' WHERE node = $1 AND status = 'in_progress'", {pg_param(node)});
}

void PostgresStore::ensure_player(const StoredPlayer& p) {
  write(
      "INSERT INTO players (id, name, salt, secret_hash, is_bot, name_key) "
      "SELECT nextval('ttt_player_ids'), $1, $2, $3, $4, $5 "
      "WHERE NOT EXISTS (SELECT 1 FROM players WHERE lower(name) = lower($1)) "
      "ON CONFLICT DO NOTHING",
      {pg_param(p.name), pg_param(p.salt), pg_param(p.secret_hash), flag(p.is_bot),
       p.key.empty() ? PgParam{} : pg_param(p.key)});
}

namespace {

// A PostgreSQL array literal's element: quoted, its quotes and backslashes
// escaped (a name may hold either).
void append_array_text(std::string& array, std::string_view text) {
  array += array.empty() ? "{\"" : ",\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') array += '\\';
    array += c;
  }
  array += '"';
}

}  // namespace

std::size_t PostgresStore::rekey_names(const std::function<std::string(std::string_view)>& key) {
  db_.exec("BEGIN");
  try {
    // One node at a time (the lock of migrations): nodes starting together
    // agree on who keeps a shared key.
    db_.exec(kMigrationLock);
    auto rows = db_.exec("SELECT id, name, name_key FROM players ORDER BY id");
    std::unordered_set<std::string> taken;
    std::string ids, keys;  // the changed rows, as array literals
    std::size_t changed = 0;
    for (int i = 0; i < rows.rows(); ++i) {
      std::string made = key(rows.text(i, 1));
      // The oldest account keeps a key its name shares with later ones.
      const bool keeps = !made.empty() && taken.insert(made).second;
      const bool had = !rows.is_null(i, 2);
      if (keeps == had && (!keeps || rows.text(i, 2) == made)) continue;
      ids += ids.empty() ? '{' : ',';
      ids += std::to_string(rows.integer(i, 0));
      if (keeps) {
        append_array_text(keys, made);
      } else {
        keys += keys.empty() ? "{NULL" : ",NULL";
      }
      ++changed;
    }
    if (changed > 0) {
      ids += '}';
      keys += '}';
      // Every changed key cleared first: a new key may be another row's old.
      db_.run("UPDATE players SET name_key = NULL WHERE id = ANY($1::bigint[])", {PgParam(ids)});
      db_.run(
          "UPDATE players p SET name_key = k.key FROM unnest($1::bigint[], $2::text[]) "
          "AS k(id, key) WHERE p.id = k.id AND k.key IS NOT NULL",
          {PgParam(ids), PgParam(keys)});
    }
    db_.exec("COMMIT");
    return changed;
  } catch (...) {
    if (db_.connected()) {
      try {
        db_.exec("ROLLBACK");
      } catch (const StoreError&) {
        // The first failure is the one worth reporting.
      }
    }
    throw;
  }
}

std::optional<std::string> PostgresStore::token_hash(std::int64_t player_id) {
  auto rows =
      db_.run("SELECT token_hash FROM resume_tokens WHERE player_id = $1", {number(player_id)});
  if (rows.rows() == 0) return std::nullopt;
  return rows.text(0, 0);
}

// --- queries --------------------------------------------------------------------

std::vector<StoredPlayer> PostgresStore::top_players(int limit) {
  auto rows = db_.run(TTT_PLAYER_COLUMNS
                      "FROM players WHERE games_played > 0 "
                      "ORDER BY rating DESC, games_played DESC, lower(name) LIMIT $1",
                      {number(limit)});
  std::vector<StoredPlayer> players;
  for (int i = 0; i < rows.rows(); ++i) players.push_back(player_from(PgRow{rows, i}));
  return players;
}

std::vector<GameRecord> PostgresStore::history(std::int64_t player_id, int limit) {
  return games_with_moves(db_.run(TTT_GAME_COLUMNS
                                  "WHERE (g.x_player = $1 OR g.o_player = $1) AND "
                                  "g.status != 'in_progress' ORDER BY g.ended_ms DESC, g.id DESC "
                                  "LIMIT $2",
                                  {number(player_id), number(limit)}));
}

std::optional<GameRecord> PostgresStore::game(std::int64_t id) {
  auto games = games_with_moves(db_.run(TTT_GAME_COLUMNS "WHERE g.id = $1", {number(id)}));
  if (games.empty()) return std::nullopt;
  return std::move(games.front());
}

std::optional<GameRecord> PostgresStore::last_game_of_room(std::int64_t room_id) {
  auto games = games_with_moves(
      db_.run(TTT_GAME_COLUMNS
              "WHERE g.room_id = $1 AND g.status != 'in_progress' ORDER BY g.round DESC "
              "LIMIT 1",
              {number(room_id)}));
  if (games.empty()) return std::nullopt;
  return std::move(games.front());
}

std::vector<GameRecord> PostgresStore::finished_games() {
  return games_with_moves(
      db_.exec(TTT_GAME_COLUMNS "WHERE g.status != 'in_progress' ORDER BY g.id"));
}

}  // namespace ttt::server
