// Internal: the five levels on boards whose win length k is less than their
// size (k in a row: gomoku is 15×15 with k = 5). Weakest first:
// - Random: a uniformly random empty cell.
// - Easy: an immediate win, else the block of an immediate loss, else a
//   random cell next to the marks.
// - Medium: win or block, else a two-ply search of the pattern evaluation
//   with seeded noise on the scores.
// - Hard: Perfect without the VCT and with a shallower search; now and then
//   (1 move in kHardSlipOdds) Medium's move instead.
// - Perfect: win or block; an open four; its own VCF; against the opponent's
//   VCF only the moves that stop it; its own VCT; else the principal
//   variation search to the end of the budget. On 4×4 (k = 3) Hard and
//   Perfect play exactly, as on the other small boards.
#pragma once

#include "ai/ai_run_search.hpp"
#include "ai/ai_turn.hpp"

namespace ttt::internal::ai {

// The move at turn.options.level. Precondition: the board's win length is
// less than its size, nobody has won and a cell is empty.
Move run_level_move(Turn& turn);

// Most fours a VCF may use before its winning move (8 fours and their 7
// blocks make the 15 plies docs/ai.md promises, with room to spare).
inline constexpr int kMaxVcfFours = 12;

}  // namespace ttt::internal::ai
