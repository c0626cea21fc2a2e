// Internal: the Hard and Perfect levels. Up to 4×4 they solve the position
// exactly; from 5×5 up, Perfect plays only moves its pairing strategy proves
// safe (or that a search proves win), choosing among them by threat search and
// iterative-deepening search within the budget.
#pragma once

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

}  // namespace ttt::internal::ai
