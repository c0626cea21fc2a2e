#include "ai/ai_weak_levels.hpp"

#include <vector>

#include "ai/ai_heuristic.hpp"
#include "ai/ai_heuristic_search.hpp"

namespace ttt::internal::ai {
namespace {

// Noise added to Medium's scores: up to four single-mark lines' worth.
constexpr int kMediumNoise = 4 * 4;

int random_cell(const LineBoard& board, Rng& rng) {
  std::vector<int> empty;
  for (int cell = 0; cell < board.cells(); ++cell) {
    if (board.is_empty(cell)) empty.push_back(cell);
  }
  return empty[rng.below(empty.size())];
}

// An immediate win, else the block of an immediate loss, or -1.
int win_or_block(const LineBoard& board) {
  const ThreatCells wins = board.threats(board.to_move());
  if (wins.count > 0) return wins.cells[0];
  const ThreatCells losses = board.threats(opponent(board.to_move()));
  return losses.count > 0 ? losses.cells[0] : -1;
}

}  // namespace

Move random_move(Turn& turn) {
  return to_move(turn.board, random_cell(LineBoard(turn.board), turn.rng));
}

Move easy_move(Turn& turn) {
  const LineBoard board(turn.board);
  const int forced = win_or_block(board);
  return to_move(turn.board, forced >= 0 ? forced : random_cell(board, turn.rng));
}

Move medium_move(Turn& turn) {
  const LineBoard board(turn.board);
  const int forced = win_or_block(board);
  if (forced >= 0) return to_move(turn.board, forced);
  const std::vector<int> moves = useful_moves(board);
  SearchLimits limits = heuristic_limits(turn);
  const SearchResult result = iterative_deepening(
      board, moves, limits, SearchTable::for_this_thread(), {.max_depth = 2, .exact_top = 1 << 10});
  if (result.moves.empty()) return to_move(turn.board, ordered_by_value(board, moves).front());
  int best_cell = -1;
  long best_score = 0;
  for (const RootScore& s : result.moves) {
    const long noise = is_proven(s.score) ? 0 : static_cast<long>(turn.rng.below(kMediumNoise));
    if (best_cell < 0 || s.score + noise > best_score) {
      best_cell = s.cell;
      best_score = s.score + noise;
    }
  }
  return to_move(turn.board, best_cell);
}

}  // namespace ttt::internal::ai
