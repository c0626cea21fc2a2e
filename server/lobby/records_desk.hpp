// RecordsDesk: the answers about past games, read from the account store:
// the leaderboard, a player's profile and history, and the replay of one
// finished game. Reads that finish later answer the player if it is still
// there. Runs on the logic executor.
#pragma once

#include <cstdint>

#include "lobby/account_store.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class RecordsDesk {
 public:
  RecordsDesk(AccountStore& accounts, PlayerReplies& replies)
      : accounts_(accounts), replies_(replies) {}

  RecordsDesk(const RecordsDesk&) = delete;
  RecordsDesk& operator=(const RecordsDesk&) = delete;

  void leaderboard(LobbyPlayer& player, const wire::GetLeaderboard& request,
                   std::uint32_t request_id);
  // The asking player's own profile when no name is given.
  void profile(LobbyPlayer& player, const wire::GetProfile& request, std::uint32_t request_id);
  void history(LobbyPlayer& player, const wire::GetHistory& request, std::uint32_t request_id);
  // By record id, or the last finished round of a (public) room.
  void replay(LobbyPlayer& player, const wire::GetReplay& request, std::uint32_t request_id);

 private:
  // Whether game records are kept (not --db none); replies NO_DATABASE if not.
  bool has_records(LobbyPlayer& player, std::uint32_t request_id);

  AccountStore& accounts_;
  PlayerReplies& replies_;
};

}  // namespace ttt::server
