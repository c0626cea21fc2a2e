#include "ai/ai_strong_levels.hpp"

#include <bit>
#include <vector>

#include "ai/ai_exact_root.hpp"
#include "ai/ai_heuristic.hpp"
#include "ai/ai_heuristic_search.hpp"
#include "ai/ai_pairing_strategy.hpp"
#include "ai/ai_threat_search.hpp"
#include "ai/ai_weak_levels.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

// Share of the budget the exact solver may use before the heuristic search
// takes over for the rest.
constexpr double kExactShare = 0.85;
// Share of the node cap the threat search may use.
constexpr int kThreatShareDivisor = 4;
// Up to this many empty cells, Perfect on 4×4 also sets traps among equal
// moves (a full count of mistakes is cheap from there on).
constexpr int kTrapCountEmpties = 12;

struct Style {
  bool safe_only;  // hold to the pairing strategy (Perfect)
};

// An immediate win, else the block of an immediate loss, or -1.
int forced_cell(const LineBoard& board) {
  const ThreatCells wins = board.threats(board.to_move());
  if (wins.count > 0) return wins.cells[0];
  const ThreatCells losses = board.threats(opponent(board.to_move()));
  return losses.count > 0 ? losses.cells[0] : -1;
}

// Of the cells, one of those the heuristic likes best (seeded choice).
int pick(const LineBoard& board, const std::vector<int>& cells, Rng& rng) {
  std::vector<int> best;
  int best_value = 0;
  for (int cell : cells) {
    const int value = move_value(board, cell, board.to_move());
    if (best.empty() || value > best_value) best.clear(), best_value = value;
    if (value == best_value) best.push_back(cell);
  }
  return best[rng.below(best.size())];
}

// Of the optimal moves, those that leave the opponent the most ways to go
// wrong (counted where that is cheap: 3×3, and 4×4 from kTrapCountEmpties on).
std::vector<int> best_traps(ExactSolver& solver, const SmallPosition& pos,
                            const OptimalMoves& optimal) {
  const int empties = std::popcount(pos.empty());
  if (optimal.cells.size() < 2 || (pos.geometry->size > 3 && empties > kTrapCountEmpties)) {
    return optimal.cells;
  }
  const auto counts = mistake_counts(solver, pos, optimal);
  if (!counts) return optimal.cells;
  int most = 0;
  for (int c : *counts) most = std::max(most, c);
  std::vector<int> best;
  for (std::size_t i = 0; i < counts->size(); ++i) {
    if ((*counts)[i] == most) best.push_back(optimal.cells[i]);
  }
  return best;
}

std::optional<int> exact_cell(Turn& turn, const LineBoard& board) {
  const auto choices = exact_choices(turn);
  if (!choices) return std::nullopt;
  return pick(board, *choices, turn.rng);
}

// The heuristic search's choice among `moves`, searching at most max_depth plies.
int searched_cell(const LineBoard& board, const std::vector<int>& moves, SearchLimits& limits,
                  int max_depth) {
  const SearchResult result =
      iterative_deepening(board, moves, limits, SearchTable::for_this_thread(),
                          {.max_depth = max_depth, .exact_top = 1});
  if (result.moves.empty()) return ordered_by_value(board, moves).front();
  return result.moves.front().cell;
}

int large_cell(Turn& turn, const LineBoard& board, Style style) {
  SearchLimits limits = heuristic_limits(turn);
  const std::vector<int> useful = useful_moves(board);
  std::vector<int> moves = style.safe_only ? safe_moves(board, useful, limits) : useful;
  if (moves.empty()) moves = useful;
  SearchLimits threat_limits = limits.share(limits.remaining() / kThreatShareDivisor);
  const auto win = find_threat_win(board, threat_limits, board.empties());
  limits.absorb(threat_limits);
  if (win) return *win;
  if (moves.size() == 1) return moves.front();
  return searched_cell(board, moves, limits, board.empties());
}

Move strong_move(Turn& turn, Style style) {
  const LineBoard board(turn.board);
  const int forced = forced_cell(board);
  if (forced >= 0) return to_move(turn.board, forced);
  if (board.size() <= SmallGeometry::kMaxSize) {
    if (const auto cell = exact_cell(turn, board)) return to_move(turn.board, *cell);
  }
  // Too big to solve, or out of time: the pairing certificate and the search.
  return to_move(turn.board, large_cell(turn, board, style));
}

}  // namespace

std::optional<std::vector<int>> exact_choices(Turn& turn) {
  SearchLimits limits = exact_limits(turn, kExactShare);
  ExactSolver solver(ExactTable::shared(), limits);
  const Player me = next_player(turn.board);
  const auto& g = small_geometry(turn.board.size(), turn.board.win_length());
  const auto bits = [&](Player p) {
    return static_cast<Mask16>(turn.board.marks(p).to_ulong() & g.full);
  };
  const SmallPosition pos{&g, bits(me), bits(opponent(me))};
  const auto optimal = optimal_moves(solver, pos);
  if (!optimal) return std::nullopt;
  return best_traps(solver, pos, *optimal);
}

Move perfect_move(Turn& turn) { return strong_move(turn, {.safe_only = true}); }

Move hard_move(Turn& turn) {
  if (turn.rng.chance(1, kHardSlipOdds)) return medium_move(turn);
  return strong_move(turn, {.safe_only = false});
}

}  // namespace ttt::internal::ai
