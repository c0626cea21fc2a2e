// RoomOwner: what a room tells whoever keeps it (the lobby): who left, that
// its listing changed, and that it closed. Separate from the journal, which
// is about the game's record, not about the room's place in the lobby.
#pragma once

#include "ttt.pb.h"

#include "ids.hpp"

namespace ttt::server {

class GameRoom;

class RoomOwner {
 public:
  virtual ~RoomOwner() = default;
  // The seat-holder no longer sits in or watches the room.
  virtual void left_room(GameRoom& room, SeatId who) = 0;
  // What the game list shows of the room changed (seats, status, watchers).
  virtual void room_changed(GameRoom& room) = 0;
  // A finished game's end is stored (or nothing is kept).
  virtual void game_recorded(GameRoom& room) = 0;
  // The last human player left: the room is empty and may be dropped.
  virtual void room_closed(GameRoom& room) = 0;
  // A game of this account ended (and is stored) while its player was away:
  // kept to tell them when they come back.
  virtual void decided_while_away(AccountId account, wire::AwayResult result) = 0;
};

}  // namespace ttt::server
