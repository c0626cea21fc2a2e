// GameHolders: for several nodes sharing one database, which node holds
// each game in progress, and passing a game from a dead (or drained) node
// to this one: a player's games in progress with their holders, a claim
// that exactly one claimant wins (with what the adopter needs: the moves,
// both accounts and their resume tokens), and letting all of this node's
// games go at the end of a drain. store/stored_holders implements it over
// the PostgreSQL store. Answers arrive later, on the logic executor.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "store/records.hpp"

namespace ttt::server {

// A game this node now holds, with its players as stored (x, o) and the
// hashes of their resume tokens (empty: none).
struct ClaimedGame {
  GameRecord game;
  std::array<std::optional<StoredPlayer>, 2> players;
  std::array<std::string, 2> token_hashes;
};

class GameHolders {
 public:
  virtual ~GameHolders() = default;

  // The account's games in progress (without moves; `node` says who holds
  // each); nullopt if they could not be read.
  using Found = std::function<void(std::optional<std::vector<GameRecord>>)>;
  virtual void games_of(AccountId account, Found done) = 0;

  // Takes the game over from node `from` ("" for a released game): done
  // with the game and its players if this node won it, nullopt if another
  // node did (or it could not be written).
  using Claimed = std::function<void(std::optional<ClaimedGame>)>;
  virtual void claim(RecordId game, const std::string& from, Claimed done) = 0;

  // Games in progress none of the live nodes holds: (record, holder).
  using Orphans = std::function<void(std::vector<std::pair<RecordId, std::string>>)>;
  virtual void orphans(const std::vector<std::string>& live_nodes, Orphans done) = 0;

  // Every game in progress this node holds is held by nobody now.
  virtual void release_all(std::function<void(bool ok)> done) = 0;
};

}  // namespace ttt::server
