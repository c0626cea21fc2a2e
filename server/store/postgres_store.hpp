// PostgresStore: the Store in a PostgreSQL database (--postgres CONNINFO),
// which several server nodes can share. The same records and meaning as the
// SQLite store; the schema is versioned in the table ttt_schema and made or
// migrated at start under an advisory lock, so nodes starting together
// migrate once. A lost connection is tried again at the next transaction.
//
// One server alone (no --redis) holds a session advisory lock on the
// database's ttt schema, and a second such server is refused with a clear
// error: it would restore the first one's games. Nodes of one lobby (with
// --redis) share the database: they take no lock, hand out ids from
// sequences in blocks (reserve_ids), find accounts made by other nodes
// (player_by_key, player_by_id), and record which node holds each game in
// progress (games.node), which a node takes over with one conditional update
// (claim_game), so that exactly one node adopts a dead node's game. Each
// node beats in ttt_nodes (the database's clock), and a game is taken from
// a node only when that beat is stale too; every write of a node's game is
// conditional on holding it (add_held_move, end_held_game), so a node that
// only looked dead writes nothing to a game another node took. Readers
// (--export-games) take no lock.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "store/move_rows.hpp"
#include "store/postgres.hpp"
#include "store/store.hpp"

namespace ttt::server {

class PostgresStore final : public Store {
 public:
  enum class Use {
    kServer,  // the one server writing to the database: holds its lock
    kNode,    // one of several nodes sharing it: no lock
    kReader,  // reads only (an export, a check): no lock
  };

  // The schema version this store migrates to (the SQLite store's is
  // Store::kSchemaVersion; versions 4 and 5 are PostgreSQL's own: what nodes share).
  static constexpr int kVersion = 5;

  // Connects, checks the schema and migrates it to kSchemaVersion. Throws
  // StoreError with a clear reason when the server can't be reached, refuses
  // the login, holds a schema newer than this server knows, or (kServer) is
  // in use by another server.
  explicit PostgresStore(const std::string& conninfo, Use use = Use::kServer);

  // From now on a statement the database does not answer within `limit`
  // counts as a lost connection (0: wait for ever, as at startup).
  void answer_within(std::chrono::milliseconds limit) override { db_.answer_within(limit); }

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
  void add_held_move(const std::string& holder, std::int64_t game_id, int ply,
                     const StoredMove& move) override;
  void end_held_game(const std::string& holder, std::int64_t game_id, const std::string& status,
                     const std::string& reason, std::int64_t ended_ms,
                     std::optional<bool> rated = std::nullopt) override;
  void save_secret(std::int64_t player_id, const std::string& salt,
                   const std::string& hash) override;
  void save_token(std::int64_t player_id, const std::string& token_hash) override;
  void drop_token(std::int64_t player_id) override;
  void save_block(std::int64_t player_id, std::int64_t blocked_id) override;
  void drop_block(std::int64_t player_id, std::int64_t blocked_id) override;

  // begin() and begin_batch() connect again first if the connection was
  // lost. A batch goes in pipeline mode: its statements are sent as the jobs
  // make them (its moves gathered into one multi-row INSERT, sent before
  // anything that reads or ends a game), commit() reads every answer in one
  // round trip and then commits in a second.
  void begin() override;
  void begin_batch() override;
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

  IdRuns reserve_ids(IdKind kind, int count) override;
  std::optional<StoredPlayer> player_by_key(const std::string& key) override;
  std::optional<StoredPlayer> player_by_id(std::int64_t id) override;
  std::vector<std::int64_t> blocked_by(std::int64_t player_id) override;
  std::optional<StoredPlayer> figures_of(std::int64_t player_id) override;
  std::vector<StoredPlayer> figures_of_all(const std::vector<std::int64_t>& player_ids) override;
  std::vector<GameRecord> unfinished_games_of(std::int64_t player_id) override;
  std::vector<std::pair<std::int64_t, std::string>> orphaned_games(
      const std::vector<std::string>& live_nodes, int limit,
      std::chrono::milliseconds dead_after) override;
  bool claim_game(std::int64_t game_id, const std::string& from, const std::string& to,
                  std::chrono::milliseconds dead_after) override;
  void beat_node(const std::string& node, const std::string& host, int port,
                 const std::string& fingerprint) override;
  void drop_node(const std::string& node) override;
  std::optional<NodeAddress> live_node(const std::string& node,
                                       std::chrono::milliseconds dead_after) override;
  std::vector<std::pair<std::int64_t, std::string>> game_holders(
      const std::vector<std::int64_t>& ids) override;
  void release_games(const std::string& node) override;
  std::optional<std::string> token_hash(std::int64_t player_id) override;
  void ensure_player(const StoredPlayer& player) override;
  std::size_t rekey_names(const std::function<std::string(std::string_view)>& key) override;

  bool reachable() override { return db_.connected(); }

  // While on, every write method throws before it reaches the database.
  void refuse_writes(bool on) override;

  std::string where() const override;

  // The schema version the database holds (ttt_schema).
  int schema_version();

 private:
  void check_and_migrate();
  // kServer: takes the database's lock, or throws.
  void claim();
  void write(const char* sql, const std::vector<PgParam>& params);
  std::vector<GameRecord> games_with_moves(const PgResult& rows);
  std::optional<StoredPlayer> one_player(const PgResult& rows);
  std::int64_t single_integer(const char* sql);
  // A held write updated no row: GameLost naming who holds the game now.
  [[noreturn]] void lost(std::int64_t game_id);
  // In a batch: the move joins the others, written together by one INSERT
  // when anything needs them (send_pending).
  void hold_move(const std::string& holder, std::int64_t game_id, int ply, const StoredMove& m);
  // In a batch: a game's end (expecting `rows` rows, if given) waits behind
  // the moves held so far, so that a batch's moves go in one INSERT, not
  // one before each end. A game's moves must reach the database before its
  // end (a node's fenced INSERT finds only games in progress): a move of a
  // game whose end is held sends what is held first.
  void hold_end(std::int64_t game_id, const char* sql, std::vector<PgParam> params,
                std::optional<int> rows);
  // Sends what is held: the moves' INSERT (a fenced one for a node's moves:
  // every move's game held by it, or the batch fails), then the ends held
  // behind them, in their order.
  void send_pending();

  struct HeldEnd {
    const char* sql;
    std::vector<PgParam> params;
    std::optional<int> rows;
  };

  PgConnection db_;
  Use use_;
  bool refusing_ = false;
  MoveRows moves_;                          // a batch's moves not yet sent
  std::string moves_holder_;                // the node fencing them; empty: none
  std::vector<HeldEnd> ends_;               // a batch's game ends not yet sent
  std::unordered_set<std::int64_t> ended_;  // the games of ends_
};

}  // namespace ttt::server
