#include "ai/ai_turn.hpp"

#include <algorithm>

#include "ai/ai_exact_table.hpp"
#include "ai/ai_search_table.hpp"
#include "ai/ai_small_board.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

std::uint64_t position_hash(const Board& board) {
  std::uint64_t h = mix64(static_cast<std::uint64_t>(board.size()));
  for (int cell = 0; cell < board.cell_count(); ++cell) {
    h = mix64(h ^ static_cast<std::uint64_t>(board.at_index(cell)) << 9 ^ cell);
  }
  return h;
}

SearchLimits::Clock::time_point deadline(const Turn& turn, double share) {
  const auto budget = std::max(turn.options.budget, std::chrono::milliseconds{0});
  return turn.start + std::chrono::duration_cast<SearchLimits::Clock::duration>(budget * share);
}

}  // namespace

Turn start_turn(const Board& board, const AiOptions& options) {
  const std::uint64_t seed = mix64(options.seed) ^ position_hash(board) ^
                             mix64(static_cast<std::uint64_t>(options.level) + 17);
  return {board, options, SearchLimits::Clock::now(), Rng(seed)};
}

void prepare_tables(int size) {
  if (size <= SmallGeometry::kMaxSize) ExactTable::shared();
  SearchTable::for_this_thread();
}

SearchLimits exact_limits(const Turn& turn, double share) {
  return {deadline(turn, share), SearchLimits::kNoNodeCap};
}

SearchLimits heuristic_limits(const Turn& turn) {
  const std::uint64_t cap = turn.options.max_nodes
                                ? turn.options.max_nodes
                                : derived_node_cap(turn.options.budget, turn.board.size());
  return {deadline(turn, 1.0), cap};
}

std::uint64_t derived_node_cap(std::chrono::milliseconds budget, int size) noexcept {
  if (budget.count() <= 0) return 0;
  // Measured on the reference machine (docs/ai.md): a node costs about
  // 0.28 + 0.0028 * size^2 microseconds; allow half the budget's worth.
  const double micros_per_node = 0.28 + 0.0028 * size * size;
  const double nodes = 0.5 * static_cast<double>(budget.count()) * 1000.0 / micros_per_node;
  return static_cast<std::uint64_t>(std::max(1.0, nodes));
}

SearchLimits run_limits(const Turn& turn) {
  const std::uint64_t cap = turn.options.max_nodes
                                ? turn.options.max_nodes
                                : derived_run_node_cap(turn.options.budget, turn.board.size());
  return {deadline(turn, 1.0), cap};
}

std::uint64_t derived_run_node_cap(std::chrono::milliseconds budget, int size) noexcept {
  if (budget.count() <= 0) return 0;
  // Measured on the reference machine (docs/ai.md): a node of the k-in-a-row
  // searches costs about 0.6 + 0.005 * size^2 microseconds; allow half the
  // budget's worth.
  const double micros_per_node = 0.6 + 0.005 * size * size;
  const double nodes = 0.5 * static_cast<double>(budget.count()) * 1000.0 / micros_per_node;
  return static_cast<std::uint64_t>(std::max(1.0, nodes));
}

}  // namespace ttt::internal::ai
