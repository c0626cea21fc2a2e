// Internal: a search for a win by continuous threats (the tic-tac-toe version
// of gomoku's VCF). The attacker only plays moves that leave a line one mark
// short of complete, so each defence is forced; the attack wins when a move
// leaves two such lines at once. Narrow enough to look many moves deep on any
// board size, and sound: a win it reports is a forced win against every
// defence (the defender's counter-threats and immediate wins are accounted for).
#pragma once

#include <optional>

#include "ai/ai_line_board.hpp"
#include "ai/ai_search_limits.hpp"

namespace ttt::internal::ai {

// The first move of a forced win by continuous threats for the side to move,
// found with at most max_threats threats, or nullopt (none found before the
// limits stopped it).
std::optional<int> find_threat_win(const LineBoard& board, SearchLimits& limits, int max_threats);

}  // namespace ttt::internal::ai
