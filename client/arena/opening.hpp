// Random balanced openings for ttt-arena: a few moves on random empty cells
// near the centre, so that games differ, kept only if neither side is close
// to a win (no window of k cells where one side has max(2, k - 2) marks and
// the other none). Each opening is played twice, once with each player as X,
// so whatever advantage it gives cancels out.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "ttt/board.hpp"

namespace ttt::client {

// The plies an opening has when not asked: 3 on boards of 9 and more, else 1.
int default_opening_plies(int size);

// An opening of `plies` moves (X first, alternating) on a size×size board won
// by win_length (0: the size), within the central square of side
// max(3, size / 2). Fewer moves when the square has no room.
std::vector<Move> random_opening(int size, int win_length, int plies, std::mt19937_64& rng);

// True when no window of k cells in a row, column or diagonal holds
// max(2, k - 2) marks of one side and none of the other's.
bool balanced(const Board& board);

}  // namespace ttt::client
