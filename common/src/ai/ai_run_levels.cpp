#include "ai/ai_run_levels.hpp"

#include <vector>

#include "ai/ai_heuristic.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_run_search.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai/ai_small_board.hpp"
#include "ai/ai_strong_levels.hpp"

namespace ttt::internal::ai {
namespace {

// Noise on Medium's scores: about an open two's worth of windows.
constexpr int kMediumNoise = 24;
// The opponent's VCF a defence must stop, in fours before the winning move.
constexpr int kDefenceFours = 8;
// Candidates checked against the opponent's VCF and VCT, best first.
constexpr std::size_t kMaxDefenceChecks = 24;
constexpr std::size_t kMaxVctDefenceChecks = 12;
// The opponent's VCT a defence must stop, in threats before the win.
constexpr int kDefenceThreats = 3;
// Perfect's VCT: threats before the win, and the VCF tried at each step.
constexpr int kVctThreats = 5;
constexpr int kVctFours = 4;

struct Style {
  bool vct;        // look for wins by continuous threats, and stop the opponent's
  int max_depth;   // plies of the alpha-beta search
  int width;       // moves searched at each node below the root
  int root_width;  // moves searched at the root
};

constexpr Style kPerfect{true, 64, 12, 24};
constexpr Style kHard{false, 4, 8, 16};

// The cell of a set, uniformly at random; precondition: not empty.
int random_member(const std::vector<int>& cells, Rng& rng) {
  return cells[rng.below(cells.size())];
}

int random_cell(const RunBoard& board, Rng& rng, bool near_only) {
  std::vector<int> empty;
  std::vector<int> near;
  for (int cell = 0; cell < board.cells(); ++cell) {
    if (!board.is_empty(cell)) continue;
    empty.push_back(cell);
    if (board.near(cell) > 0) near.push_back(cell);
  }
  return random_member(near_only && !near.empty() ? near : empty, rng);
}

// An immediate win, else the block of an immediate loss, or -1.
int forced_cell(const RunBoard& board) {
  const Player me = board.to_move();
  if (board.wins(me).any()) return board.wins(me).first();
  if (board.wins(opponent(me)).any()) return board.wins(opponent(me)).first();
  return -1;
}

int medium_cell(Turn& turn, const RunBoard& board) {
  const int forced = forced_cell(board);
  if (forced >= 0) return forced;
  const std::vector<int> moves = run_candidates(board);
  SearchLimits limits = run_limits(turn);
  const SearchResult result =
      run_iterative_deepening(board, moves, limits, SearchTable::for_this_thread(),
                              {.max_depth = 2, .width = 12, .exact_top = 1 << 10});
  if (result.moves.empty()) return moves.front();
  int best_cell = -1;
  long best_score = 0;
  for (const RootScore& s : result.moves) {
    const long noise = is_proven(s.score) ? 0 : static_cast<long>(turn.rng.below(kMediumNoise));
    if (best_cell < 0 || s.score + noise > best_score) {
      best_cell = s.cell;
      best_score = s.score + noise;
    }
  }
  return best_cell;
}

// Runs a search on a share of the limits' nodes (a fraction 1/divisor of
// what is left) and hands the count back.
template <typename Search>
auto with_share(SearchLimits& limits, std::uint64_t divisor, Search&& search) {
  SearchLimits share = limits.share(limits.remaining() / divisor);
  auto result = search(share);
  limits.absorb(share);
  return result;
}

// The opponent's forced win by `search` if we passed, or nullopt.
template <typename Search>
auto threat_if_passed(RunBoard& board, Search&& search) {
  board.pass();
  auto threat = search(board);
  board.pass();
  return threat;
}

// When the opponent has a forced win by `search` (as if we passed), the
// candidates after which it has none (checking at most max_checks, best
// first); else, or when none is found, all of them.
template <typename Search>
std::vector<int> stop_threat(RunBoard& board, const std::vector<int>& moves, SearchLimits& limits,
                             std::size_t max_checks, Search&& search) {
  const auto threat = threat_if_passed(board, [&](RunBoard& b) {
    return with_share(limits, 8, [&](SearchLimits& share) { return search(b, share); });
  });
  if (!threat) return moves;
  std::vector<int> safe;
  for (std::size_t i = 0; i < moves.size() && i < max_checks; ++i) {
    if (limits.stopped()) break;
    board.play(moves[i]);
    const auto still =
        with_share(limits, 16, [&](SearchLimits& share) { return search(board, share); });
    board.undo(moves[i]);
    if (!still) safe.push_back(moves[i]);
  }
  return safe.empty() ? moves : safe;
}

int strong_cell(Turn& turn, RunBoard& board, Style style) {
  const int forced = forced_cell(board);
  if (forced >= 0) return forced;
  const Player me = board.to_move();
  if (board.open_fours(me).any()) return board.open_fours(me).first();
  SearchLimits limits = run_limits(turn);
  SearchTable& table = SearchTable::for_this_thread();
  const auto vcf = with_share(
      limits, 3, [&](SearchLimits& share) { return find_vcf(board, share, table, kMaxVcfFours); });
  if (vcf) return vcf->first;
  std::vector<int> moves = run_candidates(board);
  if (moves.size() > 1) {
    moves = stop_threat(board, moves, limits, kMaxDefenceChecks,
                        [&](const RunBoard& b, SearchLimits& share) {
                          return find_vcf(b, share, table, kDefenceFours);
                        });
  }
  if (style.vct) {
    const auto vct = with_share(limits, 4, [&](SearchLimits& share) {
      return find_vct(board, share, table, kVctThreats, kVctFours);
    });
    if (vct) return vct->first;
    if (moves.size() > 1) {
      moves = stop_threat(board, moves, limits, kMaxVctDefenceChecks,
                          [&](const RunBoard& b, SearchLimits& share) {
                            return find_vct(b, share, table, kDefenceThreats, kVctFours);
                          });
    }
  }
  if (moves.size() == 1) return moves.front();
  if (static_cast<int>(moves.size()) > style.root_width) moves.resize(style.root_width);
  const SearchResult result = run_iterative_deepening(
      board, moves, limits, table, {.max_depth = style.max_depth, .width = style.width});
  return result.moves.empty() ? moves.front() : result.moves.front().cell;
}

// Exact play on boards of at most 4×4 when the budget allows, else nullopt.
std::optional<int> small_exact_cell(Turn& turn, const RunBoard& board) {
  if (board.size() > SmallGeometry::kMaxSize) return std::nullopt;
  const auto choices = exact_choices(turn);
  if (!choices) return std::nullopt;
  // Among equal moves, the pattern score's favourites, then a seeded choice.
  std::vector<int> best;
  int best_value = 0;
  for (int cell : *choices) {
    const int value = run_move_value(board, cell);
    if (best.empty() || value > best_value) best.clear(), best_value = value;
    if (value == best_value) best.push_back(cell);
  }
  return random_member(best, turn.rng);
}

int level_cell(Turn& turn, RunBoard& board) {
  switch (turn.options.level) {
    case Level::Random:
      return random_cell(board, turn.rng, false);
    case Level::Easy: {
      const int forced = forced_cell(board);
      return forced >= 0 ? forced : random_cell(board, turn.rng, true);
    }
    case Level::Medium:
      return medium_cell(turn, board);
    case Level::Hard:
      if (turn.rng.chance(1, kHardSlipOdds)) return medium_cell(turn, board);
      if (forced_cell(board) < 0) {
        if (const auto cell = small_exact_cell(turn, board)) return *cell;
      }
      return strong_cell(turn, board, kHard);
    case Level::Perfect:
      break;
  }
  if (forced_cell(board) < 0) {
    if (const auto cell = small_exact_cell(turn, board)) return *cell;
  }
  return strong_cell(turn, board, kPerfect);
}

}  // namespace

Move run_level_move(Turn& turn) {
  RunBoard board(turn.board);
  return to_move(turn.board, level_cell(turn, board));
}

}  // namespace ttt::internal::ai
