// The AI: the origin calculate-next-move (minimax), done as well as it can be
// done. Bots, the server's "play against the computer" and the client's
// offline mode all use this one engine.
//
// Perfect play is exact wherever the game can be solved: 3×3 always, 4×4
// whenever the budget covers the solve (about 14 ms for the opening on a cold
// table, microseconds once warm), and any position whose rest fits in the
// budget. It never loses a position it can still not lose up to 4×4 (by
// exact play), and from 5×5 up never loses any game it plays from the start
// or any position where a pairing certificate exists (a pairing strategy that
// blocks every line, kept whatever the budget), searching within the budget
// for the wins the opponent's mistakes allow.
//
// Boards whose win length k is less than their size (k in a row, such as
// five in a row on 15×15) have an engine of their own: threat-space search
// (VCF and VCT) and principal variation search over a pattern evaluation,
// to the end of the budget; on 4×4 with k = 3 (a first-player win) Perfect
// plays exactly, converting the win as X. See docs/ai.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "ttt/board.hpp"

namespace ttt {

// How strong the engine plays, weakest first (each level beats the one
// below it; docs/ai.md has the figures):
// - Random: a uniformly random empty cell.
// - Easy: wins at once if it can, else blocks an immediate loss, else random
//   (with k < N: a random cell next to the marks).
// - Medium: a two-ply search with random noise on the scores.
// - Hard: Perfect's search, but now and then (seeded, 1 move in 8) it plays
//   Medium's move, and from 5×5 up it does not hold to the never-lose pairing
//   (with k < N: no VCT, and a full-width search of at most three plies).
// - Perfect: as described above.
enum class Level { Random, Easy, Medium, Hard, Perfect };

// "random", "easy", "medium", "hard" or "perfect".
std::string_view to_string(Level level) noexcept;

// The level named by one of to_string's names, in any letter case; nullopt for
// anything else.
std::optional<Level> parse_level(std::string_view name) noexcept;

// Which lines of k marks win on a board with k < N (k in a row):
// - Freestyle: k or more in a row (ttt's games; gomoku's freestyle rule);
// - Standard: exactly k; a line of k + 1 or more (an overline) does not win
//   (gomoku's standard rule, the Gomocup's rule 1).
// Boards won by their whole line (k = N) ignore it.
enum class GomokuRule { Freestyle, Standard };

// How calculate_next_move plays and how long it may think.
struct AiOptions {
  Level level = Level::Perfect;
  // Wall-clock time one call may take; a call overruns it by at most 10% plus
  // a few milliseconds. Zero or less answers at once with the engine's quick
  // choice (an immediate win, a block, the pairing's answer, else the most
  // promising cell).
  std::chrono::milliseconds budget{200};
  // Chooses among equally good moves and drives the weaker levels' mistakes:
  // the same board, player and options give the same move.
  std::uint64_t seed = 0;
  // Caps the positions searched per call; 0 derives a cap from the budget and
  // board size. The move depends on the cap, not on the machine's speed, unless
  // the budget runs out first (a slow or loaded machine): the exact solver of
  // 3×3 and 4×4 is bounded by the budget alone, and its moves do not depend on
  // how far it got, once it finishes. With k < N, Hard and Perfect given no cap
  // search to the clock instead, using the budget (and what their earlier
  // calls on the thread learnt), so their moves depend on the machine's speed.
  std::uint64_t max_nodes = 0;
  // The rule of k in a row (k < N).
  GomokuRule rule = GomokuRule::Freestyle;
  // With k < N: the most plies the alpha-beta search of Medium, Hard and
  // Perfect looks ahead; 0: as far as the budget allows (Medium: 2). Medium
  // with max_depth 1 is a depth-1 search: an immediate win or block, else
  // the move after which the evaluation (with Medium's noise) likes the
  // position best.
  int max_depth = 0;
};

// A legal move for `player` (the one to move) on `board`, chosen at
// options.level within options.budget. Always takes an immediate win at Easy
// and up, and always blocks an immediate loss at Easy and up when it cannot
// win at once. Safe to call from several threads at once.
//
// Throws std::invalid_argument when there is no move to choose: the board is
// full or already won (by options.rule: under the standard rule an overline
// has not won), or not a position of play (X's count minus O's count is not
// 0 or 1), or it is not `player`'s turn.
Move calculate_next_move(const Board& board, Player player, const AiOptions& options = {});

}  // namespace ttt
