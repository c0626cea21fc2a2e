// Internal: the never-lose strategy for boards of 5×5 and up. A move is safe
// when, after it, every line still open to the opponent can be given two empty
// cells of its own (a pairing, see pairing.hpp): from then on answering each
// paired cell with its partner blocks every line, so the mover cannot lose.
// After any opponent move a safe answer always exists again (the partner, or
// any move if the opponent played outside the pairs), so playing only safe
// moves never loses.
#pragma once

#include <optional>
#include <vector>

#include "ai/ai_line_board.hpp"
#include "ai/ai_search_limits.hpp"

namespace ttt::internal::ai {

// What the fixed pairing of the board size says for the side to move.
struct PairingAdvice {
  // No pair of a line open to the opponent is lost, and at most one needs an
  // answer now: the strategy holds from this position.
  bool intact = false;
  // The partner of the pair the opponent has just entered, if any.
  std::optional<int> answer;
};

// The fixed pairing's view of the position (never intact below 5×5).
PairingAdvice pairing_advice(const LineBoard& board);

// True iff marking the empty cell keeps a pairing for the side to move.
bool is_safe_move(const LineBoard& board, int cell);

// The candidates that are safe moves: all of them when the fixed pairing is
// intact and owes no answer, or when the position as it stands has a pairing;
// else the pairing's answer and whichever others a fresh pairing proves safe,
// checking first the cells of the line that blocks a pairing now. Each check
// counts as a node; when the limits stop it, the safe moves found so far, but
// never fewer than one if one exists (at most one check per candidate, about
// 10 µs each on 16×16).
std::vector<int> safe_moves(const LineBoard& board, const std::vector<int>& candidates,
                            SearchLimits& limits);

}  // namespace ttt::internal::ai
