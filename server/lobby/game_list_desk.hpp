// GameListDesk: answers ListGames with one page of the game directory,
// filtered as asked (private games shown to their own players only), and
// says how the directory lists a room. Runs on the logic executor.
#pragma once

#include <cstdint>

#include "game/game_room.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/list_paging.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"
#include "ttt.pb.h"

namespace ttt::server {

class GameListDesk {
 public:
  GameListDesk(const GameDirectory& directory, PlayerReplies& replies, ListPaging paging)
      : directory_(directory), replies_(replies), paging_(paging) {}

  GameListDesk(const GameListDesk&) = delete;
  GameListDesk& operator=(const GameListDesk&) = delete;

  void list(LobbyPlayer& player, const wire::ListGames& request, std::uint32_t request_id);
  // The room as the directory lists it.
  static Listing listing_of(const GameRoom& room);

 private:
  const GameDirectory& directory_;
  PlayerReplies& replies_;
  ListPaging paging_;
};

}  // namespace ttt::server
