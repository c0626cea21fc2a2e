// CountingJournal: a GameJournal in front of another, counting the moves the
// rooms accept (ttt_moves_total) on their way to it. The rooms don't know
// they are counted.
#pragma once

#include "game/game_journal.hpp"
#include "metrics/metric_types.hpp"

namespace ttt::server::metrics {

class CountingJournal final : public GameJournal {
 public:
  // moves may be null: nothing is counted.
  CountingJournal(GameJournal& inner, Counter* moves) : inner_(inner), moves_(moves) {}

  RecordId start(const GameStart& game, Done done) override {
    return inner_.start(game, std::move(done));
  }
  void move(RecordId record, const MoveEntry& entry, const std::optional<GameEnding>& end,
            Done done) override {
    if (moves_ != nullptr) moves_->add();
    inner_.move(record, entry, end, std::move(done));
  }
  void end(RecordId record, const GameEnding& ending, Done done) override {
    inner_.end(record, ending, std::move(done));
  }

 private:
  GameJournal& inner_;
  Counter* moves_;
};

}  // namespace ttt::server::metrics
