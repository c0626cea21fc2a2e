// Internal: pairings of lines with cells. A pairing gives each line two empty
// cells of its own, no cell serving two lines. Whoever answers the opponent's
// move in one cell of a pair with the other cell can never lose a paired line:
// the opponent never holds both of its cells.
//
// On an empty N×N board with N >= 5 every one of the 2N+2 lines can be paired
// (2N+2 pairs need 4N+4 <= N*N cells, and bipartite matching finds them); for
// N <= 4 there are too few cells.
#pragma once

#include <bitset>
#include <optional>
#include <vector>

#include "ai/ai_line_board.hpp"

namespace ttt::internal::ai {

// A line (index as in LineGeometry) and the two cells it owns.
struct CellPair {
  int line;
  int first;
  int second;
  friend bool operator==(const CellPair&, const CellPair&) = default;
};

using CellSet = std::bitset<Board::kMaxCells>;

// What pair_lines found.
struct PairingResult {
  std::optional<std::vector<CellPair>> pairs;  // one per line, in the lines' order
  int stuck_line = -1;  // when there is none: a line that could not get two cells
};

// Two cells from `available` for each of `lines`, no cell used twice, found by
// bipartite matching (augmenting paths), or a line that blocks every pairing.
PairingResult pair_lines(const LineGeometry& g, const std::vector<int>& lines,
                         const CellSet& available);

// The pairing of the empty size×size board, one pair per line in line order:
// built once per size on first use, thread-safe. Empty for size < 5.
const std::vector<CellPair>& board_pairing(int size);

}  // namespace ttt::internal::ai
