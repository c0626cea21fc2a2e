// Internal: one call of the engine, as the levels see it: the position, the
// options, the seeded generator, and the search limits its budget allows.
#pragma once

#include "ai/ai_rng.hpp"
#include "ai/ai_search_limits.hpp"
#include "ttt/ai.hpp"

namespace ttt::internal::ai {

struct Turn {
  // The position; the player to move is next_player(board). Precondition: it
  // has an empty cell and no winner.
  const Board& board;
  const AiOptions& options;
  SearchLimits::Clock::time_point start;
  // Seeded from the options' seed, the position and the level.
  Rng rng;
};

// A Turn for the call, its generator seeded from seed, board, player and level.
// The budget's clock starts here.
Turn start_turn(const Board& board, const AiOptions& options);

// Allocates the tables the call will use, if this process (exact table) or
// thread (search table) has not yet: a one-time cost kept off the budget's
// clock, so that the first move is as good as the later ones.
void prepare_tables(int size);

// Limits for the exact solver: `share` of the budget from the start, and no
// node cap: its table is shared by all threads, so the nodes a solve needs
// depend on what ran before, while the moves it finds do not.
SearchLimits exact_limits(const Turn& turn, double share);

// Limits for the heuristic searches: the whole budget from the start, and the
// options' node cap, or one derived from the budget and the board size.
SearchLimits heuristic_limits(const Turn& turn);

// The node cap derived from a budget on a size×size board: positions the
// heuristic search visits in roughly half the budget on the reference machine.
std::uint64_t derived_node_cap(std::chrono::milliseconds budget, int size) noexcept;

// Limits for the searches of win lengths k < N: the whole budget from the
// start, and the options' node cap or derived_run_node_cap.
SearchLimits run_limits(const Turn& turn);

// As derived_node_cap, for the k-in-a-row engine (whose nodes cost more).
std::uint64_t derived_run_node_cap(std::chrono::milliseconds budget, int size) noexcept;

// The cell index as a Move.
inline Move to_move(const Board& board, int cell) {
  return {cell / board.size(), cell % board.size()};
}

}  // namespace ttt::internal::ai
