// Internal: the exact solver for boards up to 4×4: negamax with alpha-beta,
// the shared transposition table keyed by canonical form under the 8
// symmetries of the square, and move ordering (table move, forced block,
// threats, then the most open lines).
//
// Scores are game values for the side to move that prefer the fastest win and
// the slowest loss: a game that ends with e empty cells left is worth 1 + e to
// the winner and -(1 + e) to the loser; a draw is worth 0. They depend only on
// the position, so every position has one exact value.
#pragma once

#include <cstdint>
#include <optional>

#include "ai/ai_exact_table.hpp"
#include "ai/ai_search_limits.hpp"
#include "ai/ai_small_board.hpp"

namespace ttt::internal::ai {

// A small-board position: `me` is the side to move. Precondition: nobody has
// completed a line.
struct SmallPosition {
  const SmallGeometry* geometry;
  Mask16 me;
  Mask16 opp;

  Mask16 empty() const noexcept { return static_cast<Mask16>(geometry->full & ~(me | opp)); }
  // The position after the side to move marks `cell`, with the turn passed.
  SmallPosition after(int cell) const noexcept {
    return {geometry, opp, static_cast<Mask16>(me | (1u << cell))};
  }
};

// Largest possible score magnitude (a win with every one of 16 cells empty).
inline constexpr int kExactInfinity = 32;

class ExactSolver {
 public:
  ExactSolver(ExactTable& table, SearchLimits& limits) noexcept : table_(table), limits_(limits) {}

  // A fail-soft alpha-beta score of pos: exact when strictly inside
  // (alpha, beta), else a bound on the correct side. nullopt when the limits
  // stopped the search first.
  std::optional<int> score(const SmallPosition& pos, int alpha, int beta);

  // The exact value of pos, or nullopt when the limits stopped the search.
  std::optional<int> value(const SmallPosition& pos) {
    return score(pos, -kExactInfinity, kExactInfinity);
  }

  // True iff the value of pos is at least `threshold`; nullopt when stopped.
  std::optional<bool> at_least(const SmallPosition& pos, int threshold);

  std::uint64_t nodes() const noexcept { return limits_.nodes(); }

 private:
  struct Window {
    int alpha;
    int beta;
  };

  int search(Mask16 me, Mask16 opp, int alpha, int beta);
  int search_moves(Mask16 me, Mask16 opp, Window window, Mask16 forced, int tt_move,
                   int& best_move);
  int order_moves(Mask16 me, Mask16 opp, Mask16 candidates, int tt_move, std::uint8_t* moves) const;

  ExactTable& table_;
  SearchLimits& limits_;
  const SmallGeometry* g_ = nullptr;
  bool aborted_ = false;
};

}  // namespace ttt::internal::ai
