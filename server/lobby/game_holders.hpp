// GameHolders: for several nodes sharing one database, which node holds
// each game in progress, and passing a game from a dead (or drained) node
// to this one: a player's games in progress with their holders, a claim
// that exactly one claimant wins (with what the adopter needs: the moves,
// both accounts and their resume tokens), and letting all of this node's
// games go at the end of a drain. A node beats in the database too, and a
// game is never taken from a node whose beat there is fresh: a node cut
// from Redis but still committing keeps its games. store/stored_holders
// implements it over the PostgreSQL store. Answers arrive later, on the
// logic executor. SingleNodeHolders is a node alone's.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "lobby/cluster.hpp"
#include "records.hpp"

namespace ttt::server {

// A game this node now holds, with its players as stored (x, o) and the
// hashes of their resume tokens (empty: none).
struct ClaimedGame {
  GameRecord game;
  std::array<std::optional<StoredPlayer>, 2> players;
  std::array<std::string, 2> token_hashes;
};

// A player's game in progress (without moves; game.node says who holds it)
// and, while that holder beats in the database, how clients reach it.
struct HeldGame {
  GameRecord game;
  std::optional<NodeInfo> holder;
};

class GameHolders {
 public:
  virtual ~GameHolders() = default;

  // The account's games in progress; nullopt if they could not be read.
  using Found = std::function<void(std::optional<std::vector<HeldGame>>)>;
  virtual void games_of(AccountId account, Found done) = 0;

  // Takes the game over from node `from` ("" for a released game): done
  // with the game and its players if this node won it, nullopt if another
  // node did, `from` still beats in the database, or it could not be
  // written.
  using Claimed = std::function<void(std::optional<ClaimedGame>)>;
  virtual void claim(RecordId game, const std::string& from, Claimed done) = 0;

  // Games in progress none of the live nodes holds (and whose holder no
  // longer beats in the database): (record, holder).
  using Orphans = std::function<void(std::vector<std::pair<RecordId, std::string>>)>;
  virtual void orphans(const std::vector<std::string>& live_nodes, Orphans done) = 0;

  // Every game in progress this node holds is held by nobody now.
  virtual void release_all(std::function<void(bool ok)> done) = 0;

  // This node's heartbeat in the database: done(true, when the write ran
  // on the writer's thread) once committed, done(false, ...) if it failed.
  using Beaten = std::function<void(bool ok, std::chrono::steady_clock::time_point ran)>;
  virtual void beat(const NodeInfo& self, Beaten done) = 0;

  // Who holds each of these games now, as committed: record -> node for a
  // game in progress, record -> "" for one that is over or held by nobody;
  // nullopt if it could not be read.
  using Holders = std::function<void(std::optional<std::map<RecordId, std::string>>)>;
  virtual void holders_of(std::vector<RecordId> records, Holders done) = 0;

  // The node stops: its heartbeat in the database goes.
  virtual void leave() = 0;
};

// One node alone: it holds every game it has, and there is nobody to take
// games from. Answers at once.
class SingleNodeHolders final : public GameHolders {
 public:
  explicit SingleNodeHolders(const Cluster& cluster) : cluster_(cluster) {}
  void games_of(AccountId, Found done) override { done(std::vector<HeldGame>{}); }
  void claim(RecordId, const std::string&, Claimed done) override { done(std::nullopt); }
  void orphans(const std::vector<std::string>&, Orphans done) override { done({}); }
  void release_all(std::function<void(bool ok)> done) override { done(true); }
  void beat(const NodeInfo&, Beaten done) override { done(true, std::chrono::steady_clock::now()); }
  void holders_of(std::vector<RecordId> records, Holders done) override {
    std::map<RecordId, std::string> held;
    for (RecordId record : records) held[record] = cluster_.self().id;
    done(std::move(held));
  }
  void leave() override {}

 private:
  const Cluster& cluster_;
};

}  // namespace ttt::server
