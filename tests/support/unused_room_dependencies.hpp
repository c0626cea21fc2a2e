// UnusedRoomDependencies: what a GameRoom reports to, writes to and reads ratings from,
// for tests whose rooms are only opened or kept, never played: nothing
// reaches these, and each answers as if nothing were there.
#pragma once

#include <optional>

#include "game/game_room.hpp"

namespace ttt::testing {

class UnusedRoomDependencies : public server::RoomOwner,
                               public server::GameJournal,
                               public server::RatingBook {
 public:
  void left_room(server::GameRoom&, server::SeatId) override {}
  void room_changed(server::GameRoom&) override {}
  void game_recorded(server::GameRoom&) override {}
  void room_closed(server::GameRoom&) override {}
  void decided_while_away(server::AccountId, wire::AwayResult) override {}
  server::RecordId start(const server::GameStart&, server::GameJournal::Done) override {
    return server::RecordId{};
  }
  void move(server::RecordId, const server::MoveEntry&, const std::optional<server::GameEnding>&,
            server::GameJournal::Done) override {}
  void end(server::RecordId, const server::GameEnding&, server::GameJournal::Done) override {}
  double rating(server::AccountId) const override { return 1200.0; }
  std::optional<server::Settlement> settle(server::AccountId, server::AccountId,
                                           const server::GameResult&, bool, int) override {
    return std::nullopt;
  }
  void settled(const server::Settlement&, bool) override {}
};

}  // namespace ttt::testing
