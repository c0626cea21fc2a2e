#include "ai/ai_exact_root.hpp"

#include <bit>

namespace ttt::internal::ai {
namespace {

std::vector<int> cells_of(Mask16 mask) {
  std::vector<int> cells;
  for (; mask; mask &= static_cast<Mask16>(mask - 1)) cells.push_back(std::countr_zero(mask));
  return cells;
}

// The number of replies to `cell` after which the side to move is worth more
// than `value`; nullopt when stopped.
std::optional<int> count_mistakes(ExactSolver& solver, const SmallPosition& pos, int cell,
                                  int value) {
  const SmallPosition reply_to = pos.after(cell);
  const Mask16 wins = winning_cells(*pos.geometry, reply_to.me, reply_to.opp);
  int mistakes = 0;
  for (int reply : cells_of(reply_to.empty())) {
    if (wins >> reply & 1) continue;
    const auto better = solver.at_least(reply_to.after(reply), value + 1);
    if (!better) return std::nullopt;
    mistakes += *better ? 1 : 0;
  }
  return mistakes;
}

}  // namespace

std::optional<OptimalMoves> optimal_moves(ExactSolver& solver, const SmallPosition& pos) {
  const Mask16 wins = winning_cells(*pos.geometry, pos.me, pos.opp);
  if (wins) return OptimalMoves{std::popcount(pos.empty()), cells_of(wins)};
  const auto value = solver.value(pos);
  if (!value) return std::nullopt;
  OptimalMoves optimal{*value, {}};
  for (int cell : cells_of(pos.empty())) {
    // Our score -child >= value  <=>  child < 1 - value.
    const auto child_reaches = solver.at_least(pos.after(cell), 1 - *value);
    if (!child_reaches) return std::nullopt;
    if (!*child_reaches) optimal.cells.push_back(cell);
  }
  return optimal;
}

std::optional<std::vector<int>> mistake_counts(ExactSolver& solver, const SmallPosition& pos,
                                               const OptimalMoves& optimal) {
  if (winning_cells(*pos.geometry, pos.me, pos.opp)) {
    return std::vector<int>(optimal.cells.size(), 0);
  }
  std::vector<int> counts;
  for (int cell : optimal.cells) {
    const auto n = count_mistakes(solver, pos, cell, optimal.value);
    if (!n) return std::nullopt;
    counts.push_back(*n);
  }
  return counts;
}

}  // namespace ttt::internal::ai
