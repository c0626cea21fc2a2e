// Internal: the winning lines of each board size as bit masks, built once;
// and, for win lengths k < N, where a run of k cells can start in each
// direction.
#pragma once

#include <array>
#include <vector>

#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal {

struct LineMask {
  Line line;
  Board::Bits mask;
};

// The 2N+2 lines of an N×N board (fewer distinct ones for N <= 1 are still
// listed), in the order rows, columns, diagonal, anti-diagonal. N = 0 has none.
// Precondition: 0 <= size <= Board::kMaxSize. Thread-safe.
const std::vector<LineMask>& lines_of(int size);

// The four directions in LineKind order, as row and column steps.
inline constexpr std::array<std::array<int, 2>, 4> kDirections = {
    {{0, 1}, {1, 0}, {1, 1}, {1, -1}}};

// The step between consecutive cells of a line of `kind`, in row-major index.
constexpr int index_step(LineKind kind, int size) noexcept {
  const auto [dr, dc] = kDirections[static_cast<int>(kind)];
  return dr * size + dc;
}

// The cells where a run of k cells in the direction of `kind` can start on a
// size×size board (its k cells all on the board). Preconditions:
// 1 <= k <= size <= Board::kMaxSize. Thread-safe.
const Board::Bits& run_starts(int size, int k, LineKind kind);

// The cells that start a run of k cells of `marks` in the direction of
// `kind`: O(k) operations on the bit set.
Board::Bits runs_of(const Board::Bits& marks, int size, int k, LineKind kind) noexcept;

}  // namespace ttt::internal
