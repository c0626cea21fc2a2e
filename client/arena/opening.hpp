// Random balanced openings for ttt-arena: a few moves on random empty cells
// near the centre, so that games differ, kept only if neither side is close
// to a win (no window of k cells where one side has max(2, k - 2) marks and
// the other none). Each opening is played twice, once with each player as X,
// so whatever advantage it gives cancels out.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
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

// The opening one line of an openings file names, X first: cells as ttt
// names them ("h8 i9 g7", spaces between), or the Gomocup managers' form,
// offsets from the centre cell (size / 2) in pairs x,y with x to the right
// and y down ("0,0, 1,-1, -1,1"). nullopt with why for anything else, a cell
// off the board or named twice, or a finished game.
std::optional<std::vector<Move>> parse_opening(std::string_view line, int size, int win_length,
                                               std::string& why);

// The openings of a file, one a line; '#' starts a comment to the end of its
// line, and lines with nothing else are skipped. nullopt with why (the file, and the line with its
// number) when the file can't be read, a line is no opening, or there is none.
std::optional<std::vector<std::vector<Move>>> load_openings(const std::string& path, int size,
                                                            int win_length, std::string& why);

}  // namespace ttt::client
