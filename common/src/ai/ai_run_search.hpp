// Internal: the alpha-beta search for k in a row (k < N): principal variation
// search with iterative deepening, the per-thread transposition table, killer
// moves and a history table for ordering, and threat-based pruning:
// - a five wins at once, two fives of the opponent lose, one is blocked
//   (without using up depth), an open four or double four wins;
// - against an opponent's open three (a cell where it makes an open four)
//   only our fours and the cells of its fours are searched: any other move
//   loses to the open four;
// - elsewhere the moves near the marks, best first by a pattern score, and
//   below the root only the `width` best of them.
// Scores are for the side to move: the window scores (RunBoard) at the
// horizon, and for wins and losses kWinScore minus the plies to the end.
#pragma once

#include <vector>

#include "ai/ai_heuristic_search.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_search_limits.hpp"
#include "ai/ai_search_table.hpp"

namespace ttt::internal::ai {

struct RunSearchSettings {
  int max_depth = 64;  // plies
  int width = 12;      // moves searched at each node below the root
  int exact_top = 1;   // how many of the best root moves get exact scores
};

// Searches the given root moves (empty cells of board) deeper and deeper until
// the limits stop it, max_depth is reached, or a result is proven. The result
// is that of the last completed iteration (as SearchResult describes).
SearchResult run_iterative_deepening(const RunBoard& board, const std::vector<int>& root_moves,
                                     SearchLimits& limits, SearchTable& table,
                                     const RunSearchSettings& settings);

// What marking the empty cell is worth to the side to move before any
// search: the shapes it makes for itself plus those it spoils for the
// opponent, fives and open fours far above everything else.
int run_move_value(const RunBoard& board, int cell) noexcept;

// The static evaluation for the side to move (well inside ±kWinThreshold).
int run_evaluate(const RunBoard& board) noexcept;

// The moves worth a look, best first by run_move_value: when the opponent
// threatens an open four, our fours and the cells of its fours; else every
// empty cell near a mark (the centre on an empty board).
std::vector<int> run_candidates(const RunBoard& board);

}  // namespace ttt::internal::ai
