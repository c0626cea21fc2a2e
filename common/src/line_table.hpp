// Internal: the winning lines of each board size as bit masks, built once.
#pragma once

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

}  // namespace ttt::internal
