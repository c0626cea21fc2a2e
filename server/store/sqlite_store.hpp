// Store: the server's SQLite database — players with their hashed secrets and
// ratings, every game with its moves, and the hashed resume tokens of players
// seated in games in progress. Synchronous; one thread uses it at a time (the
// StoreWriter's). Schema versions migrate forward on open.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/records.hpp"
#include "store/sqlite.hpp"

namespace ttt::server {

class Store {
 public:
  static constexpr int kSchemaVersion = 3;

  // Opens or creates the database (a new file readable by its owner only,
  // and so its journal files), checks it and migrates it to kSchemaVersion. Throws StoreError with
  // a clear reason for an unreadable or corrupt file or a schema newer than this server knows.
  explicit Store(const std::string& path);

  // Startup reads.
  std::vector<StoredPlayer> load_players();  // with rated_games counted
  // The rated games that counted (rated, both moved) ended since since_ms.
  std::vector<RatedPairing> load_rated_pairings(std::int64_t since_ms);
  std::vector<GameRecord> load_unfinished_games();  // with moves
  // player id -> hashed resume token, for players seated in unfinished games.
  std::vector<std::pair<std::int64_t, std::string>> load_tokens();
  // (player, blocked player): who blocked whom (/block).
  std::vector<std::pair<std::int64_t, std::int64_t>> load_blocks();
  std::int64_t max_game_id();
  std::int64_t max_room_id();
  std::int64_t max_player_id();

  // Writes; the StoreWriter wraps them in transactions.
  // Inserts the player unless a row with its id exists (a name taken by
  // another id is an error); afterwards only results change it.
  void save_player(const StoredPlayer& player);
  // Adds one game's result to the player's rating and counts.
  void add_result(const PlayerResult& result);
  // Inserts the game unless a row with its id exists (a start may be written
  // again with the first move when its own write failed).
  void begin_game(const GameRecord& game);
  void add_move(std::int64_t game_id, int ply, const StoredMove& move);
  // rated: whether the game counted as rated after all (nullopt: as it began).
  void end_game(std::int64_t game_id, const std::string& status, const std::string& reason,
                std::int64_t ended_ms, std::optional<bool> rated = std::nullopt);
  // A player's new secret (salt and salted hash).
  void save_secret(std::int64_t player_id, const std::string& salt, const std::string& hash);
  void save_token(std::int64_t player_id, const std::string& token_hash);
  void drop_token(std::int64_t player_id);
  void save_block(std::int64_t player_id, std::int64_t blocked_id);
  void drop_block(std::int64_t player_id, std::int64_t blocked_id);

  void begin();
  void commit();
  void rollback();
  void savepoint();
  void release();
  void rollback_to_savepoint();

  // Queries.
  std::vector<StoredPlayer> top_players(int limit);
  std::vector<GameRecord> history(std::int64_t player_id, int limit);  // finished, newest first
  std::optional<GameRecord> game(std::int64_t id);                     // with moves
  std::vector<GameRecord> finished_games();                            // with moves, by id

  // Test hook: caps the database's size in pages, so writes fail as on a full
  // disk.
  void limit_pages(int pages);
  // Test hook: while on, every write fails, as on a failing disk.
  void refuse_writes(bool on);

  const std::string& path() const noexcept { return db_.path(); }

 private:
  void check_and_migrate();
  // A prepared statement kept for reuse, reset and ready to bind.
  Statement& cached(const char* sql);
  std::vector<StoredMove> moves_of(std::int64_t game_id);
  GameRecord read_game_row(Statement& s);

  Database db_;
  std::unordered_map<const char*, Statement> statements_;  // keyed by the literal
};

}  // namespace ttt::server
