// The Lobby taking over games from a node that is gone: when a player of a
// dead node's game (or of a game a drained node let go) comes to this node,
// the game is claimed in the database (exactly one node wins each claim:
// store/stored_holders) and comes back here as after a restart, its players
// away until they reconnect, their resume tokens held here.
#include <spdlog/spdlog.h>

#include <memory>
#include <unordered_set>

#include "executor_check.hpp"
#include "lobby/lobby.hpp"
#include "ttt/count_text.hpp"

namespace ttt::server {

void Lobby::adopt_games_of(AccountId account, Adopted done, bool again) {
  if (links_.holders == nullptr) {
    done(std::nullopt);
    return;
  }
  links_.holders->games_of(
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
          if (find_room(static_cast<GameId>(g.room_id))) continue;
          if (!g.node.empty() && g.node != cluster().self().id) {
            // Held by a live node: its player is sent there, not here. A node
            // Redis calls dead but that still beats in the database (cut from
            // Redis alone) keeps its games too, and its players go there.
            if (auto live = cluster().node(g.node)) {
              elsewhere = live;
              continue;
            }
            if (held.holder) {
              elsewhere = held.holder;
              continue;
            }
          }
          claims.emplace_back(g.id, g.node);
        }
        if (claims.empty() || again) {
          done(elsewhere);  // (a second look after a lost claim claims nothing more)
          return;
        }
        auto remaining = std::make_shared<std::size_t>(claims.size());
        for (const auto& [id, from] : claims) {
          links_.holders->claim(
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

void Lobby::sweep_orphans() {
  check_executor(links_.logic, "Lobby::sweep_orphans");
  if (links_.holders == nullptr || !cluster().shared() || draining_ || !cluster().available()) {
    return;
  }
  links_.holders->orphans(cluster().live_nodes(), [this](auto games) {
    std::unordered_set<RecordId> now;
    std::unordered_set<RecordId> here;
    for (const auto& [id, room] : rooms_) here.insert(room->record_id());
    for (const auto& [id, from] : games) {
      if (here.contains(id)) {
        // A game of a room held here that the database gives to another
        // node: this node lost it. Never claimed again from here while
        // that room stands (the check drops it; a later sweep may claim).
        check_holdings();
        continue;
      }
      now.insert(id);
      // Orphaned at the last sweep too: nobody came back for it meanwhile.
      if (!orphans_seen_.contains(id)) continue;
      links_.holders->claim(id, from, [this, from = from](std::optional<ClaimedGame> claimed) {
        if (claimed) adopt(*claimed, from);
      });
    }
    orphans_seen_ = std::move(now);
  });
}

void Lobby::adopt(const ClaimedGame& claimed, const std::string& from) {
  const GameRecord& g = claimed.game;
  if (find_room(static_cast<GameId>(g.room_id))) {
    spdlog::error("cluster: game {} was claimed while its room {} is held here already", g.id,
                  g.room_id);
    check_holdings();
    return;
  }
  for (const auto& player : claimed.players) {
    if (player) links_.accounts.keep(*player);
  }
  try {
    restore_game(g);
  } catch (const std::exception& e) {
    spdlog::error("cluster: game {} could not be taken over: {}", g.id, e.what());
    return;
  }
  ++games_adopted_;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& player = claimed.players[i];
    if (!player || player->is_bot || claimed.token_hashes[i].empty()) continue;
    const AccountId id = account_id(*player);
    tokens_.restore(seat_of(id), claimed.token_hashes[i]);
    cluster().hold(id, claimed.token_hashes[i], config_.token_lifetime, "",
                   [id](const std::string& elsewhere) {
                     // Its player is at another live node (out of this
                     // game): it finds the game here when it comes back.
                     if (!elsewhere.empty()) {
                       spdlog::info("cluster: player {} of an adopted game is at node {}",
                                    number(id), elsewhere.substr(0, 64));
                     }
                   });
  }
  spdlog::info("cluster: took over game {} (room {}, {} vs {}, {}) from {}", g.id, g.room_id,
               g.x_name, g.o_name, count_text(g.moves.size(), "move", "moves"),
               from.empty() ? std::string("a drained node") : "node " + from);
}

}  // namespace ttt::server
