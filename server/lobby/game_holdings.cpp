#include "lobby/game_holdings.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <memory>
#include <utility>

namespace ttt::server {

using std::chrono::steady_clock;

GameHoldings::GameHoldings(boost::asio::any_io_executor logic, GameHolders& holders,
                           Cluster& cluster, HoldingsHost& host,
                           std::chrono::milliseconds dead_after)
    : logic_(std::move(logic)),
      holders_(holders),
      cluster_(cluster),
      host_(host),
      dead_after_(dead_after) {}

// --- adoption ---------------------------------------------------------------------

void GameHoldings::adopt_games_of(AccountId account, Adopted done) {
  adopt_games_of(account, std::move(done), false);
}

void GameHoldings::adopt_games_of(AccountId account, Adopted done, bool again) {
  holders_.games_of(
      account, [this, account, done, again](std::optional<std::vector<HeldGame>> games) {
        if (!games) {
          spdlog::warn("cluster: a player's games in progress could not be read; none taken over");
          done(std::nullopt);
          return;
        }
        std::vector<std::pair<RecordId, std::string>> claims;
        std::optional<NodeInfo> elsewhere;
        for (const HeldGame& held : *games) {
          const GameRecord& g = held.game;
          // Held here already: never claimed again (the claim would re-label
          // it, and the room here is the game).
          if (host_.has_room(static_cast<GameId>(g.room_id))) continue;
          if (!g.node.empty() && g.node != cluster_.self().id) {
            // Held by a live node: its player is sent there, not here. A node
            // Redis calls dead but that still beats in the database (cut from
            // Redis alone) keeps its games too, and its players go there.
            if (auto live = cluster_.node(g.node)) {
              elsewhere = live;
              continue;
            }
            if (held.holder) {
              elsewhere = held.holder;
              continue;
            }
          }
          claims.emplace_back(RecordId{g.id}, g.node);
        }
        if (claims.empty() || again) {
          done(elsewhere);  // (a second look after a lost claim claims nothing more)
          return;
        }
        auto remaining = std::make_shared<std::size_t>(claims.size());
        for (const auto& [id, from] : claims) {
          holders_.claim(
              id, from,
              [this, account, remaining, done, from = from](std::optional<ClaimedGame> claimed) {
                if (claimed) {
                  adopt(*claimed, from);
                  if (--*remaining == 0) done(std::nullopt);
                  return;
                }
                if (--*remaining > 0) return;
                // Another node won it: the player goes where it is now.
                adopt_games_of(account, done, true);
              });
        }
      });
}

void GameHoldings::sweep_orphans() {
  if (draining_ || !cluster_.available()) return;
  holders_.orphans(cluster_.live_nodes(), [this](auto games) {
    std::unordered_set<RecordId> now;
    const std::vector<RecordId> records = host_.records_here(false);
    const std::unordered_set<RecordId> here(records.begin(), records.end());
    for (const auto& [id, from] : games) {
      if (here.contains(id)) {
        // A game of a room held here that the database gives to another
        // node: this node lost it. Never claimed again from here while
        // that room stands (the check drops it; a later sweep may claim).
        check();
        continue;
      }
      now.insert(id);
      // Orphaned at the last sweep too: nobody came back for it meanwhile.
      if (!orphans_seen_.contains(id)) continue;
      holders_.claim(id, from, [this, from = from](std::optional<ClaimedGame> claimed) {
        if (claimed) adopt(*claimed, from);
      });
    }
    orphans_seen_ = std::move(now);
  });
}

void GameHoldings::adopt(const ClaimedGame& claimed, const std::string& from) {
  const GameRecord& g = claimed.game;
  if (host_.has_room(static_cast<GameId>(g.room_id))) {
    spdlog::error("cluster: game {} was claimed while its room {} is held here already", g.id,
                  g.room_id);
    check();
    return;
  }
  if (host_.take_over(claimed, from)) ++adopted_;
}

// --- draining --------------------------------------------------------------------

void GameHoldings::drain() {
  draining_ = true;
  cluster_.set_draining(true);
}

// --- fencing ----------------------------------------------------------------------

void GameHoldings::keep_fence() {
  stalled();
  const auto now = steady_clock::now();
  tick_ = now;
  if (!frozen_ && !db_beat_pending_) {
    db_beat_pending_ = true;
    holders_.beat(cluster_.self(), [this](bool ok, steady_clock::time_point ran) {
      db_beat_pending_ = false;
      if (!ok) return;
      // The database may have judged this node dead meanwhile: a beat that
      // comes after a gap past the dead limit has the holdings checked.
      if (ran - db_beat_ > dead_after_) check();
      db_beat_ = std::max(db_beat_, ran);
    });
  }
  // Both heartbeats stale: the others may take this node's games now.
  if (now - db_beat_ > dead_after_ && now - cluster_.last_beat() > dead_after_) check();
}

bool GameHoldings::stalled() {
  if (!tick_) return false;
  const auto now = steady_clock::now();
  if (now - *tick_ <= dead_after_) return false;
  spdlog::warn(
      "cluster: this node did not run for {} ms (stopped, or overloaded): other nodes "
      "may have taken its games; checking which are still its own",
      std::chrono::duration_cast<std::chrono::milliseconds>(now - *tick_).count());
  tick_ = now;
  check();
  return true;
}

void GameHoldings::check() {
  if (checking_) {
    check_again_ = true;
    return;
  }
  checking_ = true;
  // The games in progress here as they are now: a game that starts later
  // is written after this read and is not judged by it.
  std::vector<RecordId> records = host_.records_here(true);
  std::erase(records, RecordId{});
  holders_.holders_of(records, [this, records](auto holders) { checked(records, holders); });
}

void GameHoldings::checked(const std::vector<RecordId>& records,
                           const std::optional<std::map<RecordId, std::string>>& holders) {
  checking_ = false;
  if (!holders) {
    // Not answered (the database is away): asked again; what waits, waits on.
    check_again_ = true;
  } else {
    std::size_t gone = 0;
    for (RecordId record : records) {
      const auto it = holders->find(record);
      if (it == holders->end() || it->second == cluster_.self().id) continue;
      lost(record, it->second);
      ++gone;
    }
    spdlog::info("cluster: checked the {} games in progress here: {} held by other nodes now",
                 records.size(), gone);
  }
  if (check_again_) {
    check_again_ = false;
    // Not at once when the database did not answer: the writer retries.
    boost::asio::post(logic_, [this] { check(); });
    return;
  }
  auto waiting = std::move(after_check_);
  after_check_.clear();
  for (auto& then : waiting) then();
}

void GameHoldings::after_check(std::function<void()> then) {
  after_check_.push_back(std::move(then));
}

void GameHoldings::lost(RecordId record, const std::string& holder) {
  if (host_.drop_game(record, holder)) ++lost_;
}

}  // namespace ttt::server
