// The rules alone, as an oracle for the tests of the k-in-a-row engine's
// threat searches: win cells and VCFs worked out by trying every cell.
#pragma once

#include <vector>

#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace ttt::testing {

// The empty cells where p completes k in a row, by the rules alone.
inline std::vector<int> win_cells(const Board& b, Player p) {
  std::vector<int> cells;
  for (int cell = 0; cell < b.cell_count(); ++cell) {
    if (b.at_index(cell) != Cell::Empty) continue;
    Board after = b;
    after.place(cell, p);
    if (winner_at(after, cell / b.size(), cell % b.size())) cells.push_back(cell);
  }
  return cells;
}

// The board with p's mark added at the empty cell.
inline Board with(const Board& b, int cell, Player p) {
  Board after = b;
  after.place(cell, p);
  return after;
}

// A VCF of at most `fours` fours before the five, by trying every cell.
inline bool brute_vcf(const Board& b, Player a, int fours) {
  if (!win_cells(b, a).empty()) return true;
  if (fours == 0) return false;
  const std::vector<int> against = win_cells(b, opponent(a));
  if (against.size() >= 2) return false;
  for (int cell = 0; cell < b.cell_count(); ++cell) {
    if (b.at_index(cell) != Cell::Empty) continue;
    if (!against.empty() && cell != against[0]) continue;
    const Board moved = with(b, cell, a);
    const std::vector<int> made = win_cells(moved, a);
    if (made.empty() || !win_cells(moved, opponent(a)).empty()) continue;
    if (made.size() >= 2) return true;
    if (brute_vcf(with(moved, made[0], opponent(a)), a, fours - 1)) return true;
  }
  return false;
}

}  // namespace ttt::testing
