#include "ai/ai_exact_solver.hpp"

#include <algorithm>
#include <bit>

namespace ttt::internal::ai {
namespace {

// A game ending with e empty cells is worth 1 + e; with m cells empty now:
// - winning at once (m - 1 left) is worth m;
// - the earliest later win (we move, they move, we win) is worth m - 2;
// - the earliest loss after a move that leaves the opponent no immediate win
//   is worth -(m - 3).
constexpr int win_now(int m) { return m; }
constexpr int lose_next(int m) { return -(m - 1); }

// Which bound a fail-soft result is, given the window it was searched with.
Bound bound_of(int best, int alpha, int beta) {
  if (best <= alpha) return Bound::Upper;
  if (best >= beta) return Bound::Lower;
  return Bound::Exact;
}

}  // namespace

std::optional<int> ExactSolver::score(const SmallPosition& pos, int alpha, int beta) {
  g_ = pos.geometry;
  aborted_ = false;
  const int result = search(pos.me, pos.opp, alpha, beta);
  if (aborted_) return std::nullopt;
  return result;
}

std::optional<bool> ExactSolver::at_least(const SmallPosition& pos, int threshold) {
  const auto s = score(pos, threshold - 1, threshold);
  if (!s) return std::nullopt;
  return *s >= threshold;
}

int ExactSolver::search(Mask16 me, Mask16 opp, int alpha, int beta) {
  if (limits_.tick()) {
    aborted_ = true;
    return 0;
  }
  const int m = std::popcount(static_cast<Mask16>(g_->full & ~(me | opp)));
  if (m == 0) return 0;
  if (winning_cells(*g_, me, opp)) return win_now(m);
  const Mask16 threats = winning_cells(*g_, opp, me);
  if (std::popcount(threats) >= 2) return lose_next(m);
  if (m == 1) return 0;  // the last cell: a block, or a move that cannot win

  // Bounds from the clock of the game and from lines still open to each side.
  const int high = (m >= 3 && can_still_win(*g_, opp)) ? m - 2 : 0;
  const int low = (m >= 4 && can_still_win(*g_, me)) ? -(m - 3) : 0;
  if (low >= beta) return low;
  if (high <= alpha) return high;
  if (low == high) return low;
  alpha = std::max(alpha, low);
  beta = std::min(beta, high);

  const CanonicalKey key = canonical_key(*g_, me, opp);
  int tt_move = -1;
  if (const auto hit = table_.probe(key.key)) {
    const ExactEntry& e = *hit;
    if (e.bound == Bound::Exact) return e.score;
    if (e.bound == Bound::Lower && e.score >= beta) return e.score;
    if (e.bound == Bound::Upper && e.score <= alpha) return e.score;
    if (e.bound == Bound::Lower) alpha = std::max(alpha, e.score);
    if (e.bound == Bound::Upper) beta = std::min(beta, e.score);
    if (e.move >= 0) tt_move = g_->preimage[key.symmetry][e.move];
  }

  int best_move = -1;
  const int best = search_moves(me, opp, {alpha, beta}, threats, tt_move, best_move);
  if (aborted_) return 0;
  const int canonical_move = best_move >= 0 ? g_->image[key.symmetry][best_move] : -1;
  table_.store(key.key, {best, bound_of(best, alpha, beta), canonical_move, m});
  return best;
}

int ExactSolver::search_moves(Mask16 me, Mask16 opp, Window window, Mask16 forced, int tt_move,
                              int& best_move) {
  std::uint8_t moves[SmallGeometry::kMaxCells];
  const Mask16 candidates = forced ? forced : static_cast<Mask16>(g_->full & ~(me | opp));
  const int count = order_moves(me, opp, candidates, tt_move, moves);
  int best = -kExactInfinity;
  for (int i = 0; i < count; ++i) {
    const int cell = moves[i];
    const int s = -search(opp, static_cast<Mask16>(me | (1u << cell)), -window.beta, -window.alpha);
    if (aborted_) return 0;
    if (s > best) {
      best = s;
      best_move = cell;
    }
    window.alpha = std::max(window.alpha, s);
    if (window.alpha >= window.beta) break;
  }
  return best;
}

// Orders candidates: the table's move, then by how much each cell does for
// the side to move on lines still open to it and against lines open to the
// opponent. Returns how many moves were written.
int ExactSolver::order_moves(Mask16 me, Mask16 opp, Mask16 candidates, int tt_move,
                             std::uint8_t* moves) const {
  int weight[SmallGeometry::kMaxCells] = {};
  for (int i = 0; i < g_->line_count; ++i) {
    const Mask16 line = g_->lines[i];
    int gain = 0;
    if ((line & opp) == 0) gain += 1 + 4 * std::popcount(static_cast<Mask16>(line & me));
    if ((line & me) == 0) gain += 1 + 3 * std::popcount(static_cast<Mask16>(line & opp));
    for (Mask16 c = line & candidates; c; c &= static_cast<Mask16>(c - 1)) {
      weight[std::countr_zero(c)] += gain;
    }
  }
  if (tt_move >= 0 && (candidates >> tt_move & 1)) weight[tt_move] += 1000;
  int count = 0;
  for (Mask16 c = candidates; c; c &= static_cast<Mask16>(c - 1)) {
    moves[count++] = static_cast<std::uint8_t>(std::countr_zero(c));
  }
  std::stable_sort(moves, moves + count,
                   [&weight](std::uint8_t a, std::uint8_t b) { return weight[a] > weight[b]; });
  return count;
}

}  // namespace ttt::internal::ai
