// AiBrain: ttt's own AI (ttt::calculate_next_move) as a Brain, at a level,
// with a budget per move that the turn's time caps.
#pragma once

#include "engine/brain.hpp"
#include "ttt/ai.hpp"

namespace ttt::client {

class AiBrain final : public Brain {
 public:
  explicit AiBrain(AiOptions options) : options_(options) {}

  // The move within min(options.budget, turn.time); the seed is options.seed
  // varied by turn.variation. Never fails on a position of play.
  BrainMove choose(const Turn& turn) override;
  // Every size and win length a Board takes.
  bool plays(int size, int win_length, std::string& why) override;
  // The level's name: "hard".
  std::string name() const override;

 private:
  AiOptions options_;
};

}  // namespace ttt::client
