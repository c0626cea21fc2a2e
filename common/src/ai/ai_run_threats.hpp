// Internal: threat-space search for k in a row (k < N), the side to move
// attacking: VCF (victory by continuous fours). Every attacking move makes a
// four, so the one defence is forced; the attack wins on an open four, two
// fours at once, or a five. The defender's fours made by its blocks are
// answered. Sound: a win it reports is a forced win against every defence.
// It searches the shortest attack first (iterative deepening on the number
// of fours) and remembers refuted positions in the thread's table. Wins by
// threes as well (VCT) are the threat prover's (ai_run_prover.hpp).
#pragma once

#include <optional>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ai/ai_search_limits.hpp"
#include "ai/ai_search_table.hpp"

namespace ttt::internal::ai {

// A forced win found by a threat search: its first move, and how many
// attacking moves it needs at most (the winning move included).
struct ThreatWin {
  int first;
  int attacks;
};

// A VCF for the side to move with at most max_fours fours before the
// winning move, or nullopt (none, or the limits stopped the search).
std::optional<ThreatWin> find_vcf(const RunBoard& board, SearchLimits& limits, SearchTable& table,
                                  int max_fours);

}  // namespace ttt::internal::ai
