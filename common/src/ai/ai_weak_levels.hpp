// Internal: the Random, Easy and Medium levels.
#pragma once

#include "ai/ai_turn.hpp"

namespace ttt::internal::ai {

// A uniformly random empty cell.
Move random_move(Turn& turn);

// An immediate win, else a block of an immediate loss, else a random cell.
Move easy_move(Turn& turn);

// A two-ply search whose scores get seeded noise; proven wins and losses
// within the two plies are never blurred.
Move medium_move(Turn& turn);

}  // namespace ttt::internal::ai
