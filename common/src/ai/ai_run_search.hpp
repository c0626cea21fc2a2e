// Internal: the alpha-beta search for k in a row (k < N): principal variation
// search with iterative deepening, the per-thread transposition table, killer
// moves and a history table for ordering, late move reductions and pruning of
// late quiet moves, and threat-based pruning:
// - a five wins at once, two fives of the opponent lose, one is blocked
//   (without using up depth), an open four or double four wins;
// - against an opponent's open three (a cell where it makes an open four)
//   only our fours and the cells of its fours are searched: any other move
//   loses to the open four;
// - elsewhere the empty cells near the marks, best first by their pattern
//   worth for both players;
// - at the horizon a quiescence search of the side to move's fours (each
//   answered by its forced block) over the pattern evaluation.
// Scores are for the side to move: the evaluation at the horizon, and for
// wins and losses kWinScore minus the plies to the end.
#pragma once

#include <cstdint>
#include <vector>

#include "ai/ai_heuristic_search.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_search_limits.hpp"
#include "ai/ai_search_table.hpp"

namespace ttt::internal::ai {

struct RunSearchSettings {
  int max_depth = 64;     // plies
  int width = 0;          // moves searched at each node below the root; 0: no limit
  bool selective = true;  // late move reductions, pruning of late quiet moves
  int exact_top = 1;      // how many of the best root moves get exact scores
  int quiescence = 8;     // fours the quiescence search may play in a row
  // Against an open three, only the moves that can stop it (RunBoard::
  // defences) rather than every four of either side.
  bool narrow_defences = true;
  // The evaluation's threat terms (run_evaluate).
  bool threat_terms = true;
  // The salt of the table's keys; 0: a fresh generation (nothing stored by
  // an earlier search is seen).
  std::uint64_t table_salt = 0;
};

// Searches the given root moves (empty cells of board) deeper and deeper until
// the limits stop it, max_depth is reached, or a result is proven. The result
// is that of the last iteration, or of the part of an interrupted one that
// searched the previous best move and any move found better than it.
SearchResult run_iterative_deepening(const RunBoard& board, const std::vector<int>& root_moves,
                                     SearchLimits& limits, SearchTable& table,
                                     const RunSearchSettings& settings);

// What marking the empty cell is worth to the side to move before any
// search: the patterns it makes for itself plus those it spoils for the
// opponent, fives and open fours far above everything else.
int run_move_value(const RunBoard& board, int cell) noexcept;

// Threats the sums of patterns understate, for the side to move: a
// four-three, or else a double three, of its own that the opponent cannot
// meet with a four (nearly always a win); an open three of the opponent's
// that it cannot answer with a four (it costs the move).
struct RunThreatTerms {
  bool four_three = false;
  bool double_three = false;
  bool open_three_against = false;
};
RunThreatTerms run_threat_terms(const RunBoard& board) noexcept;

// The static evaluation for the side to move (well inside ±kWinThreshold):
// the patterns' worth, and with threat_terms what the patterns understate
// (a four-three or double three the opponent can't meet, an open three of
// the opponent's).
int run_evaluate(const RunBoard& board, bool threat_terms = true) noexcept;

// The moves worth a look, best first by run_move_value: the block of the
// opponent's five; when the opponent threatens an open four, our fours and
// the cells of its fours; else every empty cell near a mark (the centre on
// an empty board).
std::vector<int> run_candidates(const RunBoard& board);

}  // namespace ttt::internal::ai
