#include "store/sqlite_store.hpp"

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "game/rating.hpp"
#include "store/record_rows.hpp"

namespace ttt::server {
namespace {

// Migrations[v] takes a database from schema version v to v + 1.
constexpr std::array<const char*, SqliteStore::kSchemaVersion> kMigrations = {
    R"sql(
CREATE TABLE players (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  salt TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  is_bot INTEGER NOT NULL DEFAULT 0,
  rating REAL NOT NULL DEFAULT 1200,
  games_played INTEGER NOT NULL DEFAULT 0,
  wins INTEGER NOT NULL DEFAULT 0,
  losses INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  room_id INTEGER NOT NULL,
  round INTEGER NOT NULL,
  size INTEGER NOT NULL,
  x_player INTEGER NOT NULL REFERENCES players(id),
  o_player INTEGER NOT NULL REFERENCES players(id),
  rated INTEGER NOT NULL,
  is_private INTEGER NOT NULL,
  invite_code TEXT NOT NULL DEFAULT '',
  bot_level INTEGER NOT NULL DEFAULT 0,
  started_ms INTEGER NOT NULL,
  ended_ms INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_x ON games(x_player, ended_ms);
CREATE INDEX games_by_o ON games(o_player, ended_ms);
CREATE TABLE moves (
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  row INTEGER NOT NULL,
  col INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE resume_tokens (
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  token_hash TEXT NOT NULL
);
)sql",
    // 2: each game's win length (the games before it were all whole-line games).
    R"sql(
ALTER TABLE games ADD COLUMN win_length INTEGER NOT NULL DEFAULT 0;
UPDATE games SET win_length = size;
)sql",
    // 3: Fischer clocks: each game's settings, each move's time left to its mover.
    R"sql(
ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE moves ADD COLUMN clock_ms INTEGER NOT NULL DEFAULT 0;
CREATE TABLE blocks (
  player_id INTEGER NOT NULL REFERENCES players(id),
  blocked_id INTEGER NOT NULL REFERENCES players(id),
  PRIMARY KEY (player_id, blocked_id)
) WITHOUT ROWID;
)sql",
};

// A statement's current row, as record_rows.hpp reads rows.
struct SqliteRow {
  Statement& s;
  std::int64_t integer(int i) const { return s.column_int(i); }
  double real(int i) const { return s.column_double(i); }
  std::string text(int i) const { return s.column_text(i); }
};

// Every player column, then rest ("WHERE ...", "ORDER BY ..."). Appended into
// one named string, returned without a move, rather than `std::string(a) + b`:
// GCC 12 at -O2 warns (-Warray-bounds) on the move out of that temporary,
// because it can't tell that a string in its small buffer fits there
// (libstdc++ PR 109299, fixed in GCC 13).
std::string players_query(std::string_view rest) {
  std::string sql(TTT_PLAYER_COLUMNS "FROM players ");
  sql.append(rest);
  return sql;
}

// Every game column with the players' names, then rest, as players_query.
std::string games_query(std::string_view rest) {
  std::string sql(TTT_GAME_COLUMNS);
  sql.append(rest);
  return sql;
}

}  // namespace

SqliteStore::SqliteStore(const std::string& path) : db_(path) {
  try {
    check_and_migrate();
  } catch (const StoreError& e) {
    throw StoreError("database '" + path + "' is unusable: " + e.what());
  }
}

void SqliteStore::check_and_migrate() {
  // Reading the header first makes a file that is not a database fail here.
  int version = 0;
  {
    auto query = db_.prepare("PRAGMA user_version");
    query.step();
    version = static_cast<int>(query.column_int(0));
  }
  if (version > kSchemaVersion) {
    throw StoreError("its schema version " + std::to_string(version) +
                     " is newer than this server's " + std::to_string(kSchemaVersion) +
                     ": upgrade ttt-server");
  }
  {
    auto check = db_.prepare("PRAGMA quick_check");
    check.step();
    if (check.column_text(0) != "ok") throw StoreError("integrity check: " + check.column_text(0));
  }
  db_.exec("PRAGMA journal_mode = WAL");
  db_.exec("PRAGMA synchronous = FULL");
  db_.exec("PRAGMA foreign_keys = ON");
  for (int v = version; v < kSchemaVersion; ++v) {
    db_.exec("BEGIN IMMEDIATE");
    try {
      db_.exec(kMigrations[static_cast<std::size_t>(v)]);
      db_.exec("PRAGMA user_version = " + std::to_string(v + 1));
      db_.exec("COMMIT");
    } catch (...) {
      db_.exec("ROLLBACK");
      throw;
    }
  }
}

// --- startup reads --------------------------------------------------------------

std::vector<StoredPlayer> SqliteStore::load_players() {
  std::vector<StoredPlayer> players;
  // A game counts as rated once both players moved (a game of older
  // servers without that rule counts only if it had two moves).
  auto s = db_.prepare(TTT_PLAYER_COLUMNS
                       ", (SELECT COUNT(*) FROM games g WHERE (g.x_player = p.id OR "
                       "g.o_player = p.id) AND " TTT_GAME_COUNTED ") FROM players p ORDER BY id");
  while (s.step()) {
    players.push_back(player_from(SqliteRow{s}));
    players.back().rated_games = s.column_int(10);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> opponents;
  auto o = db_.prepare(TTT_RATED_OPPONENTS("?"));
  o.bind(1, std::int64_t{kVariedOpponents});
  while (o.step()) opponents.emplace_back(o.column_int(0), o.column_int(1));
  give_opponents(players, opponents);
  return players;
}

std::vector<RatedPairing> SqliteStore::load_rated_pairings(std::int64_t since_ms) {
  std::vector<RatedPairing> pairings;
  auto s = db_.prepare(
      "SELECT g.x_player, g.o_player, g.ended_ms FROM games g WHERE "
      "g.ended_ms >= ? AND " TTT_GAME_COUNTED " ORDER BY g.ended_ms");
  s.bind(1, since_ms);
  while (s.step()) pairings.push_back({s.column_int(0), s.column_int(1), s.column_int(2)});
  return pairings;
}

std::vector<StoredMove> SqliteStore::moves_of(std::int64_t game_id) {
  std::vector<StoredMove> moves;
  auto s =
      db_.prepare("SELECT row, col, at_ms, clock_ms FROM moves WHERE game_id = ? ORDER BY ply");
  s.bind(1, game_id);
  while (s.step()) {
    moves.push_back({static_cast<int>(s.column_int(0)), static_cast<int>(s.column_int(1)),
                     s.column_int(2), s.column_int(3)});
  }
  return moves;
}

std::vector<GameRecord> SqliteStore::load_unfinished_games() {
  std::vector<GameRecord> games;
  auto s = db_.prepare(games_query("WHERE g.status = 'in_progress' ORDER BY g.id"));
  while (s.step()) games.push_back(game_from(SqliteRow{s}));
  for (auto& g : games) g.moves = moves_of(g.id);
  return games;
}

std::vector<std::pair<std::int64_t, std::string>> SqliteStore::load_tokens() {
  std::vector<std::pair<std::int64_t, std::string>> tokens;
  auto s = db_.prepare("SELECT player_id, token_hash FROM resume_tokens");
  while (s.step()) tokens.emplace_back(s.column_int(0), s.column_text(1));
  return tokens;
}

std::vector<std::pair<std::int64_t, std::int64_t>> SqliteStore::load_blocks() {
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  auto s = db_.prepare("SELECT player_id, blocked_id FROM blocks");
  while (s.step()) blocks.emplace_back(s.column_int(0), s.column_int(1));
  return blocks;
}

void SqliteStore::save_block(std::int64_t player_id, std::int64_t blocked_id) {
  auto& s = cached("INSERT OR IGNORE INTO blocks (player_id, blocked_id) VALUES (?, ?)");
  s.bind(1, player_id).bind(2, blocked_id);
  s.run();
}

void SqliteStore::drop_block(std::int64_t player_id, std::int64_t blocked_id) {
  auto& s = cached("DELETE FROM blocks WHERE player_id = ? AND blocked_id = ?");
  s.bind(1, player_id).bind(2, blocked_id);
  s.run();
}

std::int64_t SqliteStore::max_game_id() {
  auto s = db_.prepare("SELECT COALESCE(MAX(id), 0) FROM games");
  s.step();
  return s.column_int(0);
}

std::int64_t SqliteStore::max_room_id() {
  auto s = db_.prepare("SELECT COALESCE(MAX(room_id), 0) FROM games");
  s.step();
  return s.column_int(0);
}

std::int64_t SqliteStore::max_player_id() {
  auto s = db_.prepare("SELECT COALESCE(MAX(id), 0) FROM players");
  s.step();
  return s.column_int(0);
}

// --- writes ---------------------------------------------------------------------

void SqliteStore::save_player(const StoredPlayer& p) {
  auto& s = cached(
      "INSERT INTO players (id, name, salt, secret_hash, is_bot, rating, games_played, wins, "
      "losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING");
  s.bind(1, p.id).bind(2, p.name).bind(3, p.salt).bind(4, p.secret_hash);
  s.bind(5, std::int64_t{p.is_bot}).bind(6, p.rating).bind(7, p.games_played);
  s.bind(8, p.wins).bind(9, p.losses).bind(10, p.draws);
  s.run();
}

void SqliteStore::add_result(const PlayerResult& r) {
  auto& s = cached(
      "UPDATE players SET rating = rating + ?, games_played = games_played + 1, "
      "wins = wins + ?, losses = losses + ?, draws = draws + ? WHERE id = ?");
  s.bind(1, r.rating_change).bind(2, std::int64_t{r.wins}).bind(3, std::int64_t{r.losses});
  s.bind(4, std::int64_t{r.draws}).bind(5, r.player_id);
  s.run();
}

void SqliteStore::begin_game(const GameRecord& g) {
  auto& s = cached(
      "INSERT INTO games (id, room_id, round, size, x_player, o_player, rated, is_private, "
      "invite_code, bot_level, started_ms, status, win_length, clock_initial_ms, "
      "clock_increment_ms) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING");
  s.bind(1, g.id).bind(2, g.room_id).bind(3, std::int64_t{g.round}).bind(4, std::int64_t{g.size});
  s.bind(5, g.x_player).bind(6, g.o_player).bind(7, std::int64_t{g.rated});
  s.bind(8, std::int64_t{g.is_private}).bind(9, g.invite_code).bind(10, std::int64_t{g.bot_level});
  s.bind(11, g.started_ms).bind(12, g.status).bind(13, std::int64_t{g.win_length});
  s.bind(14, g.clock_initial_ms).bind(15, g.clock_increment_ms);
  s.run();
}

void SqliteStore::add_move(std::int64_t game_id, int ply, const StoredMove& m) {
  auto& s = cached(
      "INSERT INTO moves (game_id, ply, row, col, at_ms, clock_ms) VALUES (?, ?, ?, ?, ?, ?)");
  s.bind(1, game_id).bind(2, std::int64_t{ply}).bind(3, std::int64_t{m.row});
  s.bind(4, std::int64_t{m.col}).bind(5, m.at_ms).bind(6, m.clock_ms);
  s.run();
}

void SqliteStore::end_game(std::int64_t game_id, const std::string& status,
                           const std::string& reason, std::int64_t ended_ms,
                           std::optional<bool> rated) {
  auto& s = cached(
      "UPDATE games SET status = ?, reason = ?, ended_ms = ?, rated = COALESCE(?, rated) "
      "WHERE id = ?");
  s.bind(1, status).bind(2, reason).bind(3, ended_ms);
  if (rated) {
    s.bind(4, std::int64_t{*rated});
  } else {
    s.bind_null(4);
  }
  s.bind(5, game_id);
  s.run();
}

void SqliteStore::save_secret(std::int64_t player_id, const std::string& salt,
                              const std::string& hash) {
  auto& s = cached("UPDATE players SET salt = ?, secret_hash = ? WHERE id = ?");
  s.bind(1, salt).bind(2, hash).bind(3, player_id);
  s.run();
}

void SqliteStore::save_token(std::int64_t player_id, const std::string& token_hash) {
  auto& s = cached(
      "INSERT INTO resume_tokens (player_id, token_hash) VALUES (?, ?) "
      "ON CONFLICT(player_id) DO UPDATE SET token_hash = excluded.token_hash");
  s.bind(1, player_id).bind(2, token_hash);
  s.run();
}

void SqliteStore::drop_token(std::int64_t player_id) {
  auto& s = cached("DELETE FROM resume_tokens WHERE player_id = ?");
  s.bind(1, player_id);
  s.run();
}

Statement& SqliteStore::cached(const char* sql) {
  auto it = statements_.find(sql);
  if (it == statements_.end()) it = statements_.emplace(sql, db_.prepare(sql)).first;
  it->second.reset();
  return it->second;
}

void SqliteStore::begin() { db_.exec("BEGIN IMMEDIATE"); }
void SqliteStore::commit() { db_.exec("COMMIT"); }
void SqliteStore::rollback() { db_.exec("ROLLBACK"); }
void SqliteStore::savepoint() { db_.exec("SAVEPOINT job"); }
void SqliteStore::release() { db_.exec("RELEASE job"); }
void SqliteStore::rollback_to_savepoint() { db_.exec("ROLLBACK TO job; RELEASE job"); }

// --- queries --------------------------------------------------------------------

std::vector<StoredPlayer> SqliteStore::top_players(int limit) {
  std::vector<StoredPlayer> players;
  auto s = db_.prepare(
      players_query("WHERE games_played > 0 ORDER BY rating DESC, games_played DESC, name "
                    "LIMIT ?"));
  s.bind(1, std::int64_t{limit});
  while (s.step()) players.push_back(player_from(SqliteRow{s}));
  return players;
}

std::vector<GameRecord> SqliteStore::history(std::int64_t player_id, int limit) {
  std::vector<GameRecord> games;
  auto s = db_.prepare(
      games_query("WHERE (g.x_player = ?1 OR g.o_player = ?1) AND g.status != 'in_progress' "
                  "ORDER BY g.ended_ms DESC, g.id DESC LIMIT ?2"));
  s.bind(1, player_id).bind(2, std::int64_t{limit});
  while (s.step()) games.push_back(game_from(SqliteRow{s}));
  for (auto& g : games) g.moves = moves_of(g.id);
  return games;
}

std::optional<GameRecord> SqliteStore::game(std::int64_t id) {
  auto s = db_.prepare(games_query("WHERE g.id = ?"));
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  GameRecord g = game_from(SqliteRow{s});
  g.moves = moves_of(g.id);
  return g;
}

std::optional<GameRecord> SqliteStore::last_game_of_room(std::int64_t room_id) {
  auto s = db_.prepare(games_query(
      "WHERE g.room_id = ? AND g.status != 'in_progress' ORDER BY g.round DESC LIMIT 1"));
  s.bind(1, room_id);
  if (!s.step()) return std::nullopt;
  GameRecord g = game_from(SqliteRow{s});
  g.moves = moves_of(g.id);
  return g;
}

std::vector<GameRecord> SqliteStore::finished_games() {
  std::vector<GameRecord> games;
  auto s = db_.prepare(games_query("WHERE g.status != 'in_progress' ORDER BY g.id"));
  while (s.step()) games.push_back(game_from(SqliteRow{s}));
  for (auto& g : games) g.moves = moves_of(g.id);
  return games;
}

void SqliteStore::limit_pages(int pages) {
  db_.exec("PRAGMA max_page_count = " + std::to_string(pages));
}

std::string SqliteStore::where() const {
  if (path() == ":memory:") return path();
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path(), ec).string();
  return absolute.empty() ? path() : absolute;
}

void SqliteStore::refuse_writes(bool on) {
  // Temporary triggers: they live in this connection only, never in the file.
  for (const char* table : {"players", "games", "moves", "resume_tokens"}) {
    for (const char* op : {"INSERT", "UPDATE", "DELETE"}) {
      const std::string name = std::string("temp.refuse_") + op + "_" + table;
      db_.exec(on ? "CREATE TEMP TRIGGER IF NOT EXISTS " + name.substr(5) + " BEFORE " + op +
                        " ON main." + table +
                        " BEGIN SELECT RAISE(ABORT, 'writes refused (test hook)'); END"
                  : "DROP TRIGGER IF EXISTS " + name);
    }
  }
}

}  // namespace ttt::server
