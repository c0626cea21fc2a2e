// PresenceList: the players online as /who lists them, one page at a time
// in the order of their names, each with what it is doing now: this node's
// players, read from the PlayerTable in that order (never stale), merged
// with the other nodes' as they last shared them (none on a node alone),
// and this node's shared with the others. Nothing here walks every player
// per request. Runs on the logic executor.
#pragma once

#include <cstdint>
#include <functional>

#include "lobby/account_store.hpp"
#include "lobby/cluster.hpp"
#include "lobby/list_paging.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/player_table.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class PresenceList {
 public:
  // The quick match a player waits for (QuickMatch::wish_of), or null.
  using WishOf = std::function<const MatchRequest*(SeatId)>;

  PresenceList(const PlayerTable& players, WishOf wish_of, AccountStore& accounts, Cluster& cluster,
               PlayerReplies& replies, ListPaging paging)
      : players_(players),
        wish_of_(std::move(wish_of)),
        accounts_(accounts),
        cluster_(cluster),
        replies_(replies),
        paging_(paging) {}

  PresenceList(const PresenceList&) = delete;
  PresenceList& operator=(const PresenceList&) = delete;

  // Answers a ListPlayers request with one page.
  void list(LobbyPlayer& player, const wire::ListPlayers& request, std::uint32_t request_id);
  // Shares this node's players as /who shows them with the other nodes.
  void share();
  // What the player is doing, as /who shows it.
  wire::PlayerPresence presence_of(const LobbyPlayer& player) const;

 private:
  const PlayerTable& players_;
  WishOf wish_of_;
  AccountStore& accounts_;
  Cluster& cluster_;
  PlayerReplies& replies_;
  ListPaging paging_;
};

}  // namespace ttt::server
