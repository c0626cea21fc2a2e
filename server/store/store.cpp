#include "store/store.hpp"

namespace ttt::server {
namespace {

[[noreturn]] void only_shared(const char* what) {
  throw StoreError(std::string(what) +
                   ": only a PostgreSQL store (--postgres) is shared by several nodes");
}

}  // namespace

Store::IdRuns Store::reserve_ids(IdKind, int) { only_shared("handing out ids for several nodes"); }
std::optional<StoredPlayer> Store::player_by_key(const std::string&) {
  only_shared("reading one account");
}
std::optional<StoredPlayer> Store::player_by_id(std::int64_t) {
  only_shared("reading one account");
}
std::vector<std::int64_t> Store::blocked_by(std::int64_t) { only_shared("reading one's blocks"); }
std::optional<StoredPlayer> Store::figures_of(std::int64_t) {
  only_shared("reading one's figures");
}
std::vector<StoredPlayer> Store::figures_of_all(const std::vector<std::int64_t>&) {
  only_shared("reading accounts' figures");
}
std::vector<GameRecord> Store::unfinished_games_of(std::int64_t) {
  only_shared("reading a player's games in progress");
}
std::vector<std::pair<std::int64_t, std::string>> Store::orphaned_games(
    const std::vector<std::string>&, int, std::chrono::milliseconds) {
  only_shared("looking for games nobody holds");
}
bool Store::claim_game(std::int64_t, const std::string&, const std::string&,
                       std::chrono::milliseconds) {
  only_shared("taking over a game");
}
void Store::beat_node(const std::string&, const std::string&, int, const std::string&) {
  only_shared("a node's heartbeat");
}
void Store::drop_node(const std::string&) { only_shared("a node's heartbeat"); }
std::optional<Store::NodeAddress> Store::live_node(const std::string&, std::chrono::milliseconds) {
  only_shared("a node's heartbeat");
}
std::vector<std::pair<std::int64_t, std::string>> Store::game_holders(
    const std::vector<std::int64_t>&) {
  only_shared("who holds a game");
}
void Store::add_held_move(const std::string&, std::int64_t game_id, int ply,
                          const StoredMove& move) {
  add_move(game_id, ply, move);
}
void Store::end_held_game(const std::string&, std::int64_t game_id, const std::string& status,
                          const std::string& reason, std::int64_t ended_ms,
                          std::optional<bool> rated) {
  end_game(game_id, status, reason, ended_ms, rated);
}
void Store::release_games(const std::string&) { only_shared("handing games over"); }
void Store::ensure_player(const StoredPlayer&) { only_shared("making an account"); }
std::optional<std::string> Store::token_hash(std::int64_t) { only_shared("reading a token"); }

}  // namespace ttt::server
