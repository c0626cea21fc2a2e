// Internal: the Hard and Perfect levels. Up to 4×4 they solve the position
// exactly; from 5×5 up, Perfect plays only moves its pairing strategy proves
// safe (or that a search proves win), choosing among them by threat search and
// iterative-deepening search within the budget.
#pragma once

#include <optional>
#include <vector>

#include "ai/ai_turn.hpp"

namespace ttt::internal::ai {

// Perfect play (see ttt/ai.hpp).
Move perfect_move(Turn& turn);

// Perfect's search, except that with a seeded chance of 1 in kHardSlipOdds
// per move it plays Medium's move instead (a depth cap of 2 plies with noise:
// often a second-best move, never one that misses a win or a block); from 5×5
// up it also chooses among all moves, not only the safe ones.
Move hard_move(Turn& turn);

inline constexpr int kHardSlipOdds = 8;

// For a board of at most 4×4 (any win length): the moves that keep the exact
// game value, narrowed to those that set the opponent the most traps where
// that is cheap; nullopt when the solver ran out of budget. Precondition:
// nobody has won and a cell is empty.
std::optional<std::vector<int>> exact_choices(Turn& turn);

}  // namespace ttt::internal::ai
