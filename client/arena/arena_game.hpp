// One game of ttt-arena between two brains: from an opening, X and O ask
// their brain in turn, each within its time per move and, when set, its time
// for the whole game. A brain that fails (an engine that crashes, prints
// garbage, answers a bad cell or runs out of time) forfeits the game.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/brain.hpp"
#include "ttt/rules.hpp"

namespace ttt::client {

struct ArenaClock {
  std::chrono::milliseconds per_move{1000};
  std::chrono::milliseconds per_game{0};  // each side's time for the game; 0 = no limit
};

struct ArenaGame {
  std::optional<Player> winner;     // nullopt: a draw (a full board) or interrupted
  std::optional<Line> line;         // the winning line, for a win on the board
  std::optional<Player> forfeited;  // the side whose brain failed
  std::string failure;              // why it failed
  std::vector<Move> moves;          // the opening included
  bool interrupted = false;         // stop was set before the game ended
};

// Plays the game from `opening` (legal moves, X first) with x and o.
// `variation` varies the brains' choices between games; `stop`, when set,
// ends the game after the move in progress.
ArenaGame play_arena_game(Brain& x, Brain& o, int size, int win_length,
                          const std::vector<Move>& opening, const ArenaClock& clock,
                          std::uint64_t variation, const std::atomic<bool>& stop);

}  // namespace ttt::client
