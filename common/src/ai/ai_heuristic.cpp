#include "ai/ai_heuristic.hpp"

#include <algorithm>

namespace ttt::internal::ai {

int line_weight(int marks) noexcept { return marks <= 0 ? 0 : 1 << (2 * std::min(marks, 11)); }

int evaluate(const LineBoard& board, Player p) noexcept {
  const Player q = opponent(p);
  int score = 0;
  for (int line = 0; line < board.geometry().line_count; ++line) {
    if (board.open_for(p, line)) score += line_weight(board.count(p, line));
    if (board.open_for(q, line)) score -= line_weight(board.count(q, line));
  }
  return score;
}

int move_value(const LineBoard& board, int cell, Player p) noexcept {
  const LineGeometry& g = board.geometry();
  const Player q = opponent(p);
  int value = 0;
  for (int i = 0; i < g.through_count[cell]; ++i) {
    const int line = g.lines_through[cell][i];
    if (board.open_for(p, line)) {
      const int mine = board.count(p, line);
      value += line_weight(mine + 1) - line_weight(mine);
    }
    if (board.open_for(q, line)) value += 1 + line_weight(board.count(q, line));
  }
  return value;
}

}  // namespace ttt::internal::ai
