// Internal: threat-space search for k in a row (k < N), the side to move
// attacking.
// - VCF (victory by continuous fours): every attacking move makes a four, so
//   the one defence is forced; the attack wins on an open four, two fours at
//   once, or a five. The defender's fours made by its blocks are answered.
// - VCT (victory by continuous threats): attacking moves make fours or open
//   threes; against a three the defender may block any cell where the
//   attacker would make a four, or counter with a four of its own, and each
//   such defence must lose to a continued attack (VCF included).
// Both are sound: a win they report is a forced win against every defence.
// Both search the shortest attack first (iterative deepening on the number
// of attacking moves) and remember refuted positions in the thread's table.
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

// A VCT for the side to move with at most max_threats threats before the
// winning move, trying at each attacker node a VCF of at most vcf_fours
// fours; nullopt when none is found within the limits.
std::optional<ThreatWin> find_vct(const RunBoard& board, SearchLimits& limits, SearchTable& table,
                                  int max_threats, int vcf_fours);

}  // namespace ttt::internal::ai
