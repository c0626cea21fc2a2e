#include "pairing_strategy.hpp"

#include "pairing.hpp"

namespace ttt::internal::ai {

PairingAdvice pairing_advice(const LineBoard& board) {
  const Player me = board.to_move();
  const Player them = opponent(me);
  PairingAdvice advice{true, std::nullopt};
  int owed = 0;
  for (const CellPair& pair : board_pairing(board.size())) {
    if (!board.open_for(them, pair.line)) continue;
    const bool first = board.holds(them, pair.first);
    const bool second = board.holds(them, pair.second);
    if (first && second) return {};
    if (first || second) {
      ++owed;
      advice.answer = first ? pair.second : pair.first;
    }
  }
  if (board_pairing(board.size()).empty() || owed > 1) return {};
  return advice;
}

bool is_safe_move(const LineBoard& board, int cell) {
  const LineGeometry& g = board.geometry();
  const Player me = board.to_move();
  const Player them = opponent(me);
  CellSet available;
  for (int c = 0; c < g.cells; ++c) available[c] = board.is_empty(c) && c != cell;
  std::vector<int> lines;
  int empty[Board::kMaxSize];
  for (int line = 0; line < g.line_count; ++line) {
    if (!board.open_for(them, line)) continue;
    bool through_cell = false;
    for (int i = 0; i < g.size; ++i) through_cell = through_cell || g.line_cells[line][i] == cell;
    if (through_cell) continue;
    if (board.empty_cells(line, empty) < 2) return false;
    lines.push_back(line);
  }
  return pair_lines(g, lines, available).has_value();
}

std::vector<int> safe_moves(const LineBoard& board, const std::vector<int>& candidates,
                            SearchLimits& limits) {
  const PairingAdvice advice = pairing_advice(board);
  if (advice.intact && !advice.answer) return candidates;
  std::vector<int> safe;
  if (advice.answer) safe.push_back(*advice.answer);
  for (int cell : candidates) {
    if (cell == advice.answer) continue;
    if (limits.tick()) break;
    if (is_safe_move(board, cell)) safe.push_back(cell);
  }
  return safe;
}

}  // namespace ttt::internal::ai
