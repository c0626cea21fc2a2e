// SqliteStore: the Store in one SQLite file (the default, one node). WAL,
// synchronous = FULL; schema versions (PRAGMA user_version) migrate forward
// on open.
#pragma once

#include <string>
#include <unordered_map>

#include "store/sqlite.hpp"
#include "store/store.hpp"

namespace ttt::server {

class SqliteStore : public Store {
 public:
  // Opens or creates the database (a new file readable by its owner only,
  // and so its journal files), checks it and migrates it to kSchemaVersion. Throws StoreError with
  // a clear reason for an unreadable or corrupt file or a schema newer than this server knows.
  explicit SqliteStore(const std::string& path);

  std::vector<StoredPlayer> load_players() override;
  std::vector<RatedPairing> load_rated_pairings(std::int64_t since_ms) override;
  std::vector<GameRecord> load_unfinished_games() override;
  std::vector<std::pair<std::int64_t, std::string>> load_tokens() override;
  std::vector<std::pair<std::int64_t, std::int64_t>> load_blocks() override;
  std::int64_t max_game_id() override;
  std::int64_t max_room_id() override;
  std::int64_t max_player_id() override;

  void save_player(const StoredPlayer& player) override;
  void add_result(const PlayerResult& result) override;
  void begin_game(const GameRecord& game) override;
  void add_move(std::int64_t game_id, int ply, const StoredMove& move) override;
  void end_game(std::int64_t game_id, const std::string& status, const std::string& reason,
                std::int64_t ended_ms, std::optional<bool> rated = std::nullopt) override;
  void save_secret(std::int64_t player_id, const std::string& salt,
                   const std::string& hash) override;
  void save_token(std::int64_t player_id, const std::string& token_hash) override;
  void drop_token(std::int64_t player_id) override;
  void save_block(std::int64_t player_id, std::int64_t blocked_id) override;
  void drop_block(std::int64_t player_id, std::int64_t blocked_id) override;

  void begin() override;
  void commit() override;
  void rollback() override;
  void savepoint() override;
  void release() override;
  void rollback_to_savepoint() override;

  std::vector<StoredPlayer> top_players(int limit) override;
  std::vector<GameRecord> history(std::int64_t player_id, int limit) override;
  std::optional<GameRecord> game(std::int64_t id) override;
  std::optional<GameRecord> last_game_of_room(std::int64_t room_id) override;
  std::vector<GameRecord> finished_games() override;

  // Test hook: caps the database's size in pages, so writes fail as on a full
  // disk.
  void limit_pages(int pages);
  // Temporary triggers (this connection only, never in the file) that fail
  // every write, as a failing disk would.
  void refuse_writes(bool on) override;

  std::string where() const override;
  const std::string& path() const noexcept { return db_.path(); }

 private:
  void check_and_migrate();
  // A prepared statement kept for reuse, reset and ready to bind.
  Statement& cached(const char* sql);
  std::vector<StoredMove> moves_of(std::int64_t game_id);

  Database db_;
  std::unordered_map<const char*, Statement> statements_;  // keyed by the literal
};

}  // namespace ttt::server
