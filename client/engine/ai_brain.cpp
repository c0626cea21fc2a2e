#include "engine/ai_brain.hpp"

#include <algorithm>
#include <exception>

namespace ttt::client {

BrainMove AiBrain::choose(const Turn& turn) {
  AiOptions ai = options_;
  ai.budget = std::min(options_.budget, turn.time);
  ai.seed = options_.seed ^ turn.variation;
  try {
    return BrainMove{calculate_next_move(turn.board, turn.me, ai), {}};
  } catch (const std::exception& e) {
    return BrainMove{std::nullopt, std::string("the search failed: ") + e.what()};
  }
}

bool AiBrain::plays(int size, int win_length, std::string& why) {
  if (size >= 0 && size <= Board::kMaxSize &&
      (win_length == 0 || Board::valid_win_length(size, win_length))) {
    return true;
  }
  why = "no " + std::to_string(size) + "x" + std::to_string(size) + " board is won by " +
        std::to_string(win_length) + " in a row";
  return false;
}

std::string AiBrain::name() const { return std::string(to_string(options_.level)); }

}  // namespace ttt::client
