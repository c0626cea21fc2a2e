// InstantJournal: a game journal whose writes complete at once, numbering
// the rounds it starts (1, 2, ...), for tests of the parts that open and
// play rooms without a database.
#pragma once

#include <optional>

#include "game/game_room.hpp"

namespace ttt::testing {

class InstantJournal : public server::GameJournal {
 public:
  server::RecordId start(const server::GameStart&, Done done) override {
    done(true);
    records_ = server::RecordId{number(records_) + 1};
    return records_;
  }
  void move(server::RecordId, const server::MoveEntry&, const std::optional<server::GameEnding>&,
            Done done) override {
    done(true);
  }
  void end(server::RecordId, const server::GameEnding&, Done done) override { done(true); }

 private:
  server::RecordId records_{};
};

}  // namespace ttt::testing
