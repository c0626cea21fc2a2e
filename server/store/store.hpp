// Store: where the server keeps what must last — players with their hashed
// secrets and ratings, every game with its moves, the hashed resume tokens
// of players the server holds a place for, and blocks. An interface: SQLite
// (SqliteStore, one file, the default) and PostgreSQL (PostgresStore, shared
// by nodes) keep the same records with the same meaning. Synchronous; one
// thread uses a store at a time (the StoreWriter's). Every failure is a
// StoreError naming what failed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "records.hpp"
#include "store/store_error.hpp"

namespace ttt::server {

class Store {
 public:
  // The schema version both stores migrate to on open.
  static constexpr int kSchemaVersion = 3;

  virtual ~Store() = default;

  // Startup reads.
  // Every account, with rated_games counted and its opponents listed.
  virtual std::vector<StoredPlayer> load_players() = 0;
  // The rated games that counted (rated, both moved) ended since since_ms.
  virtual std::vector<RatedPairing> load_rated_pairings(std::int64_t since_ms) = 0;
  virtual std::vector<GameRecord> load_unfinished_games() = 0;  // with moves
  // player id -> hashed resume token, for players the server holds a place for.
  virtual std::vector<std::pair<std::int64_t, std::string>> load_tokens() = 0;
  // (player, blocked player): who blocked whom (/block).
  virtual std::vector<std::pair<std::int64_t, std::int64_t>> load_blocks() = 0;
  virtual std::int64_t max_game_id() = 0;
  virtual std::int64_t max_room_id() = 0;
  virtual std::int64_t max_player_id() = 0;

  // Writes; the StoreWriter wraps them in transactions.
  // Inserts the player unless a row with its id exists (a name taken by
  // another id, whatever its case, is an error); afterwards only results
  // change it.
  virtual void save_player(const StoredPlayer& player) = 0;
  // Adds one game's result to the player's rating and counts.
  virtual void add_result(const PlayerResult& result) = 0;
  // Inserts the game unless a row with its id exists (a start may be written
  // again with the first move when its own write failed).
  virtual void begin_game(const GameRecord& game) = 0;
  // A ply written twice is an error.
  virtual void add_move(std::int64_t game_id, int ply, const StoredMove& move) = 0;
  // rated: whether the game counted as rated after all (nullopt: as it began).
  virtual void end_game(std::int64_t game_id, const std::string& status, const std::string& reason,
                        std::int64_t ended_ms, std::optional<bool> rated = std::nullopt) = 0;
  // Several nodes: the same two writes, made only while node `holder` holds
  // the game in progress; the game's row stays locked until the transaction
  // ends, so a claim by another node waits for it (or it for the claim).
  // GameLost if the game is another node's now, or over. A store of one
  // server alone (SQLite) writes as above.
  virtual void add_held_move(const std::string& holder, std::int64_t game_id, int ply,
                             const StoredMove& move);
  virtual void end_held_game(const std::string& holder, std::int64_t game_id,
                             const std::string& status, const std::string& reason,
                             std::int64_t ended_ms, std::optional<bool> rated = std::nullopt);
  // A player's new secret (salt and salted hash).
  virtual void save_secret(std::int64_t player_id, const std::string& salt,
                           const std::string& hash) = 0;
  virtual void save_token(std::int64_t player_id, const std::string& token_hash) = 0;
  virtual void drop_token(std::int64_t player_id) = 0;
  virtual void save_block(std::int64_t player_id, std::int64_t blocked_id) = 0;
  virtual void drop_block(std::int64_t player_id, std::int64_t blocked_id) = 0;

  // One transaction around a batch, and a savepoint around each job in it,
  // so that one refused job loses nothing else.
  virtual void begin() = 0;
  // A transaction for a batch run whole, where any failure fails it all:
  // writes may go to the database before earlier ones are answered, so a
  // write's failure may be thrown by a later call (commit() at the latest)
  // instead of by the write. Reads still answer at once.
  virtual void begin_batch() { begin(); }
  virtual void commit() = 0;
  virtual void rollback() = 0;
  virtual void savepoint() = 0;
  virtual void release() = 0;
  virtual void rollback_to_savepoint() = 0;

  // Queries.
  virtual std::vector<StoredPlayer> top_players(int limit) = 0;
  // Finished games, newest first.
  virtual std::vector<GameRecord> history(std::int64_t player_id, int limit) = 0;
  virtual std::optional<GameRecord> game(std::int64_t id) = 0;  // with moves
  // The last finished round of a room (a watch link's game), with moves.
  virtual std::optional<GameRecord> last_game_of_room(std::int64_t room_id) = 0;
  virtual std::vector<GameRecord> finished_games() = 0;  // with moves, by id

  // --- several nodes on one database (PostgreSQL; the others refuse) -------
  // The kinds of ids nodes hand out, each from its own sequence.
  enum class IdKind { kRoom, kGame, kPlayer };
  // `count` ids of that kind nobody else is given, as runs [first, end) in
  // order (another node's may fall between two runs).
  using IdRuns = std::vector<std::pair<std::int64_t, std::int64_t>>;
  virtual IdRuns reserve_ids(IdKind kind, int count);
  // One account by its name's key or its id, with rated_games counted and
  // its opponents listed.
  virtual std::optional<StoredPlayer> player_by_key(const std::string& key);
  virtual std::optional<StoredPlayer> player_by_id(std::int64_t id);
  // The player's games in progress, with their moves and holders.
  virtual std::vector<GameRecord> unfinished_games_of(std::int64_t player_id);
  // Games in progress held by none of the live nodes (their node died, or
  // let them go) whose holder has not beaten in the database for
  // `dead_after` either, as (game id, holder), at most `limit` of them.
  virtual std::vector<std::pair<std::int64_t, std::string>> orphaned_games(
      const std::vector<std::string>& live_nodes, int limit, std::chrono::milliseconds dead_after);
  // The game in progress passes from node `from` (empty: none) to `to`;
  // false if another node took it first (exactly one claim of the same
  // holder wins), or if `from` still beats in the database (its last beat
  // younger than `dead_after`, in the database's clock): a node that still
  // commits keeps its games.
  virtual bool claim_game(std::int64_t game_id, const std::string& from, const std::string& to,
                          std::chrono::milliseconds dead_after);
  // A node's heartbeat in the database (its row in ttt_nodes, stamped with
  // the database's clock), with how clients reach it.
  virtual void beat_node(const std::string& node, const std::string& host, int port,
                         const std::string& fingerprint);
  // The node stopped: its row goes (and rows of nodes silent for a day).
  virtual void drop_node(const std::string& node);
  // Where a node that beat in the database within `dead_after` is reached:
  // (host, port, fingerprint), or nullopt if it did not.
  struct NodeAddress {
    std::string host;
    int port = 0;
    std::string fingerprint;
  };
  virtual std::optional<NodeAddress> live_node(const std::string& node,
                                               std::chrono::milliseconds dead_after);
  // Who holds each of these games now: (id, node) for a game in progress,
  // (id, "") for one that is over or held by nobody; unknown ids are left out.
  virtual std::vector<std::pair<std::int64_t, std::string>> game_holders(
      const std::vector<std::int64_t>& ids);
  // The node's games in progress are held by nobody (a drained node hands
  // them over).
  virtual void release_games(const std::string& node);
  // Adds the account (its id from the sequence) unless its name is taken:
  // the server's bots' accounts, which every node makes at start.
  virtual void ensure_player(const StoredPlayer& player);
  // The hash of the player's resume token, if it has one.
  virtual std::optional<std::string> token_hash(std::int64_t player_id);
  // One account's rating and counts as committed (rated_games not counted,
  // opponents not listed: a read by its key, cheap enough for every game's
  // end).
  virtual std::optional<StoredPlayer> figures_of(std::int64_t player_id);
  // The same of several accounts in one read (those that exist, in id order).
  virtual std::vector<StoredPlayer> figures_of_all(const std::vector<std::int64_t>& player_ids);
  // The accounts the player blocks (read with the account when its player
  // arrives at a node: it may have blocked them at another).
  virtual std::vector<std::int64_t> blocked_by(std::int64_t player_id);

  // False once the connection to the database is lost (PostgreSQL): the
  // writer then waits for it and writes the batch again, instead of refusing
  // it. A file is always reachable.
  virtual bool reachable() { return true; }

  // From now on a statement the database does not answer within `limit`
  // fails as if the connection were lost (PostgreSQL: a stopped or cut-off
  // server is noticed); a file store ignores it. 0: wait for ever.
  virtual void answer_within(std::chrono::milliseconds limit) { (void)limit; }

  // The names' keys the store keeps (PostgreSQL's players.name_key, by
  // which nodes find accounts) made again with `key`, today's rule: once the
  // rule changes, keys kept under the old one would miss names or let look-
  // alikes in. Of accounts whose names now share a key, the oldest keeps it
  // (as in memory: only it signs in by name); the others keep none. Returns
  // how many keys changed. A file keeps no keys: the server makes them again
  // from the names as it loads them.
  virtual std::size_t rekey_names(const std::function<std::string(std::string_view)>& key) {
    (void)key;
    return 0;
  }

  // Test hook: while on, every write fails, as on a failing disk.
  virtual void refuse_writes(bool on) = 0;

  // Where the records are, for logs and errors (a path; a PostgreSQL
  // database's host, port and name, never its password).
  virtual std::string where() const = 0;
};

}  // namespace ttt::server
