// GameHoldings: which games in progress this node holds, among nodes that
// share one database. It takes over the games of a node that is gone (for a
// player who comes here, or orphans nobody came back for, swept now and
// then): each is claimed in the database, where exactly one node wins it.
// And it fences this node: another node takes a game from this one only
// when both its heartbeats (Redis and the database) are older than the dead
// limit, so when this node may have looked dead (its heartbeats, or its own
// executor, stalled past that limit) it asks the database which of its games
// are still its own and drops the others; what waits on that answer (Hellos)
// runs once it is in. And it drains this node: no new games here, then
// nothing more taken from anyone once its games are let go. One path for one
// node or several: a node alone has
// GameHolders that answer "nothing to take over, everything is yours" and a
// Cluster whose heartbeat never ages. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ids.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_holders.hpp"

namespace ttt::server {

// What GameHoldings asks of the lobby around it (the Lobby, or a test's fake).
class HoldingsHost {
 public:
  virtual ~HoldingsHost() = default;
  // Whether a room here is game `room`.
  virtual bool has_room(GameId room) const = 0;
  // The records of the games here: every room's, or only those in progress.
  virtual std::vector<RecordId> records_here(bool in_progress_only) const = 0;
  // A game this node claimed comes back here with its players away (their
  // tokens held here); false if it could not be restored.
  virtual bool take_over(const ClaimedGame& claimed, const std::string& from) = 0;
  // Game `record` is held by node `holder` now ("": over, or held by
  // nobody): its room is dropped, its players told and sent on. False if no
  // room here had it (or it was dropped already).
  virtual bool drop_game(RecordId record, const std::string& holder) = 0;
};

class GameHoldings {
 public:
  GameHoldings(boost::asio::any_io_executor logic, GameHolders& holders, Cluster& cluster,
               HoldingsHost& host, std::chrono::milliseconds dead_after);

  GameHoldings(const GameHoldings&) = delete;
  GameHoldings& operator=(const GameHoldings&) = delete;

  // Takes over the account's games in progress whose node is dead or let
  // them go, then done(nullopt); done(node) instead when a game of the
  // account is held by another node that is alive (in Redis, or still
  // beating in the database), whether it always was or won the claim.
  using Adopted = std::function<void(const std::optional<NodeInfo>& elsewhere)>;
  void adopt_games_of(AccountId account, Adopted done);
  // Takes over the games in progress that no live node held at the last
  // sweep either (nobody came back for them meanwhile).
  void sweep_orphans();

  // Every heartbeat: this node's beat in the database (not once frozen),
  // and a check of holdings if this node may have looked dead. Starts the
  // stall watch.
  void keep_fence();
  // Whether the executor stalled past the dead limit since the last tick
  // (a check of holdings is started then). Never before keep_fence ticked.
  bool stalled();
  // Asks the database which games in progress here are still this node's,
  // and drops the others (lost); a check under way is followed by another.
  void check();
  // Whether a check is under way; if so, `then` runs once it is done.
  bool checking() const noexcept { return checking_; }
  void after_check(std::function<void()> then);
  std::size_t waiting_for_check() const noexcept { return after_check_.size(); }
  // A write of game `record` was refused: node `holder` holds it now.
  void lost(RecordId record, const std::string& holder);

  // The drain: this node takes no new games, and others send it nobody
  // (the Cluster is told); no orphans are taken over from now on.
  void drain();
  bool draining() const noexcept { return draining_; }
  // The drain's end: nothing more is taken from anyone (no beat, no move
  // lands after the games are let go in the database).
  void freeze() noexcept { frozen_ = true; }
  bool frozen() const noexcept { return frozen_; }

  std::uint64_t adopted() const noexcept { return adopted_; }
  std::uint64_t lost_count() const noexcept { return lost_; }

 private:
  void adopt_games_of(AccountId account, Adopted done, bool again);
  void adopt(const ClaimedGame& claimed, const std::string& from);
  void checked(const std::vector<RecordId>& records,
               const std::optional<std::map<RecordId, std::string>>& holders);

  boost::asio::any_io_executor logic_;
  GameHolders& holders_;
  Cluster& cluster_;
  HoldingsHost& host_;
  std::chrono::milliseconds dead_after_;
  bool draining_ = false;
  bool frozen_ = false;
  std::uint64_t adopted_ = 0;
  std::uint64_t lost_ = 0;
  std::unordered_set<RecordId> orphans_seen_;  // held by no live node at the last sweep
  // The fence: the executor's last tick (none before the first heartbeat),
  // the last beat committed in the database (when it ran), and the check.
  std::optional<std::chrono::steady_clock::time_point> tick_;
  std::chrono::steady_clock::time_point db_beat_ = std::chrono::steady_clock::now();
  bool db_beat_pending_ = false;
  bool checking_ = false;
  bool check_again_ = false;
  std::vector<std::function<void()>> after_check_;
};

}  // namespace ttt::server
