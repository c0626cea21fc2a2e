// Internal: the static judgement used where the game cannot be searched to the
// end: lines a player can still complete are worth more the fuller they are.
#pragma once

#include "ai/ai_line_board.hpp"

namespace ttt::internal::ai {

// A won game is worth kWinScore minus the plies it took; any score at least
// kWinThreshold in size is a proven result, never a guess.
inline constexpr int kWinScore = 1 << 30;
inline constexpr int kWinThreshold = kWinScore - 1024;

// True iff a search score is a proven win or loss.
constexpr bool is_proven(int score) noexcept {
  return score >= kWinThreshold || score <= -kWinThreshold;
}

// The worth of an open line holding `marks` marks: 4^marks, capped, 0 for none.
int line_weight(int marks) noexcept;

// The position for p: the weights of p's open lines minus the opponent's.
// Always well inside (-kWinThreshold, kWinThreshold).
int evaluate(const LineBoard& board, Player p) noexcept;

// How much marking an empty cell does for p before any search: what it adds
// to p's open lines plus what it takes from the opponent's.
int move_value(const LineBoard& board, int cell, Player p) noexcept;

}  // namespace ttt::internal::ai
