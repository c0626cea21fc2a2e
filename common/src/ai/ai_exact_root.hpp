// Internal: questions about the moves of a small-board position, answered
// exactly with the ExactSolver: which moves keep the game value, the best move
// that does not, and how many of the opponent's replies would be mistakes.
#pragma once

#include <optional>
#include <vector>

#include "ai/ai_exact_solver.hpp"

namespace ttt::internal::ai {

// The value of a position and every move that keeps it, in cell order.
struct OptimalMoves {
  int value;
  std::vector<int> cells;
};

// The optimal moves of pos (the winning cells when there are any). nullopt
// when the limits stopped the solver. Precondition: pos has an empty cell.
std::optional<OptimalMoves> optimal_moves(ExactSolver& solver, const SmallPosition& pos);

// For each optimal move, how many opponent replies would hand the side to move
// more than the game value (traps set for the opponent); all 0 when the side
// to move can win at once. nullopt when stopped.
std::optional<std::vector<int>> mistake_counts(ExactSolver& solver, const SmallPosition& pos,
                                               const OptimalMoves& optimal);

}  // namespace ttt::internal::ai
