#include "ai/ai_pairing_strategy.hpp"

#include <algorithm>

#include "ai/ai_pairing.hpp"

namespace ttt::internal::ai {
namespace {

constexpr int kNoCell = -1;

bool on_line(const LineGeometry& g, int line, int cell) {
  for (int i = 0; i < g.size; ++i) {
    if (g.line_cells[line][i] == cell) return true;
  }
  return false;
}

// Tries to pair every line open to the opponent of the side to move, after
// the side to move marks `cell` (or now, for kNoCell).
PairingResult pair_after(const LineBoard& board, int cell) {
  const LineGeometry& g = board.geometry();
  const Player them = opponent(board.to_move());
  CellSet available;
  for (int c = 0; c < g.cells; ++c) available[c] = board.is_empty(c) && c != cell;
  std::vector<int> lines;
  for (int line = 0; line < g.line_count; ++line) {
    if (board.open_for(them, line) && !on_line(g, line, cell)) lines.push_back(line);
  }
  return pair_lines(g, lines, available);
}

// The candidates in the order to check them: the pairing's answer, then the
// cells of the line that blocks a pairing now, then the rest.
std::vector<int> check_order(const LineBoard& board, const std::vector<int>& candidates,
                             std::optional<int> answer, int stuck_line) {
  std::vector<int> order;
  if (answer) order.push_back(*answer);
  for (int cell : candidates) {
    if (stuck_line >= 0 && on_line(board.geometry(), stuck_line, cell) && cell != answer) {
      order.push_back(cell);
    }
  }
  for (int cell : candidates) {
    if (std::find(order.begin(), order.end(), cell) == order.end()) order.push_back(cell);
  }
  return order;
}

}  // namespace

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
  return pair_after(board, cell).pairs.has_value();
}

std::vector<int> safe_moves(const LineBoard& board, const std::vector<int>& candidates,
                            SearchLimits& limits) {
  const PairingAdvice advice = pairing_advice(board);
  if (advice.intact && !advice.answer) return candidates;
  // A pairing of the position as it stands makes every move safe.
  const PairingResult now = pair_after(board, kNoCell);
  if (now.pairs) return candidates;
  std::vector<int> safe;
  for (int cell : check_order(board, candidates, advice.answer, now.stuck_line)) {
    if (cell == advice.answer) {
      safe.push_back(cell);
      continue;
    }
    // Out of budget, stop at the first safe move: never give up the promise.
    if (limits.tick() && !safe.empty()) break;
    if (is_safe_move(board, cell)) safe.push_back(cell);
  }
  return safe;
}

}  // namespace ttt::internal::ai
