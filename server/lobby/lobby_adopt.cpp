// The Lobby taking over games from a node that is gone: when a player of a
// dead node's game (or of a game a drained node let go) comes to this node,
// the game is claimed in the database (exactly one node wins each claim:
// store/stored_holders) and comes back here as after a restart, its players
// away until they reconnect, their resume tokens held here.
#include <spdlog/spdlog.h>

#include <memory>
#include <unordered_set>

#include "lobby/lobby.hpp"
#include "ttt/count_text.hpp"

namespace ttt::server {

void Lobby::adopt_games_of(AccountId account, Adopted done, bool again) {
  if (links_.holders == nullptr) {
    done("");
    return;
  }
  links_.holders->games_of(account, [this, account, done, again](std::optional<std::vector<GameRecord>> games) {
    if (!games) {
      spdlog::warn("cluster: a player's games in progress could not be read; none taken over");
      done("");
      return;
    }
    std::vector<std::pair<RecordId, std::string>> claims;
    std::string elsewhere;
    for (const GameRecord& g : *games) {
      if (find_room(static_cast<GameId>(g.room_id))) continue;  // held here already
      // Held by a live node: its player is sent there, not here.
      if (!g.node.empty() && g.node != cluster().self().id && cluster().node(g.node)) {
        elsewhere = g.node;
        continue;
      }
      claims.emplace_back(g.id, g.node);
    }
    if (claims.empty() || again) {
      done(elsewhere);  // (a second look after a lost claim claims nothing more)
      return;
    }
    auto remaining = std::make_shared<std::size_t>(claims.size());
    for (const auto& [id, from] : claims) {
      links_.holders->claim(id, from,
                            [this, account, remaining, done, from = from](
                                std::optional<ClaimedGame> claimed) {
                              if (claimed) {
                                adopt(*claimed, from);
                                if (--*remaining == 0) done("");
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
  if (links_.holders == nullptr || !cluster().shared() || draining_ || !cluster().available()) {
    return;
  }
  links_.holders->orphans(cluster().live_nodes(), [this](auto games) {
    std::unordered_set<RecordId> now;
    for (const auto& [id, from] : games) {
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
  if (find_room(static_cast<GameId>(g.room_id))) return;
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
    cluster().hold(id, claimed.token_hashes[i], config_.token_lifetime);
  }
  spdlog::info("cluster: took over game {} (room {}, {} vs {}, {}) from {}", g.id, g.room_id,
               g.x_name, g.o_name, count_text(g.moves.size(), "move", "moves"),
               from.empty() ? std::string("a drained node") : "node " + from);
}

}  // namespace ttt::server
