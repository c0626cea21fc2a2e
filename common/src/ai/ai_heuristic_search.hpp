// Internal: iterative-deepening negamax with alpha-beta for boards of any
// size, where the game is too big to solve: static evaluation at the horizon,
// exact scores for wins and losses it sees (the fastest win and the slowest
// loss score best), forced replies to a threat searched without using up
// depth, and the per-thread transposition table. Every move at every node is
// considered, so a proven score is a real proof.
#pragma once

#include <vector>

#include "ai/ai_line_board.hpp"
#include "ai/ai_search_limits.hpp"
#include "ai/ai_search_table.hpp"

namespace ttt::internal::ai {

// A root move and its score for the side to move.
struct RootScore {
  int cell;
  int score;
};

struct SearchSettings {
  int max_depth = 64;  // plies; the search also stops when it reaches the end
  int exact_top = 1;   // how many of the best root moves get exact scores
};

struct SearchResult {
  // The last completed iteration's moves, best first. The first exact_top
  // scores are exact for that depth; the rest are upper bounds.
  std::vector<RootScore> moves;
  int depth = 0;       // plies of the last completed iteration (0: none)
  bool exact = false;  // that iteration saw every line of play to its end
};

// Searches the given root moves (empty cells of board) deeper and deeper until
// the limits stop it, max_depth is reached, or the result is exact or proven.
SearchResult iterative_deepening(const LineBoard& board, const std::vector<int>& root_moves,
                                 SearchLimits& limits, SearchTable& table,
                                 const SearchSettings& settings);

// The empty cells where a move can still matter (on a line open to either
// player), or every empty cell when there are none.
std::vector<int> useful_moves(const LineBoard& board);

// The given cells sorted by move_value for the side to move, best first; ties
// keep their order.
std::vector<int> ordered_by_value(const LineBoard& board, std::vector<int> cells);

}  // namespace ttt::internal::ai
