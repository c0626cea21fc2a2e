#include "ai/ai_run_levels.hpp"

#include <algorithm>
#include <vector>

#include "ai/ai_heuristic.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_run_prover.hpp"
#include "ai/ai_run_search.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai/ai_small_board.hpp"
#include "ai/ai_strong_levels.hpp"

namespace ttt::internal::ai {
namespace {

using Clock = SearchLimits::Clock;

// Noise on Medium's scores: about the worth of the move.
constexpr int kMediumNoise = 80;
// The opponent's VCF a defence must stop, in fours before the winning move.
constexpr int kDefenceFours = 8;
// Perfect's last look at the search's choice: the share of the turn kept for
// checking its moves against the opponent's threat wins, and the part of it
// the best move's check may use (the others share the rest).
constexpr double kVerifyShare = 0.08;
constexpr double kVerifyBestPart = 0.5;

struct Style {
  bool vct;            // look for its own wins by continuous threats
  bool verify;         // check the search's best moves against the opponent's threat wins
  int max_depth;       // plies of the alpha-beta search
  int width;           // moves searched at each node below the root; 0: all
  int root_width;      // moves searched at the root; 0: all
  bool selective;      // late move reductions and pruning (else full width)
  int quiescence;      // fours in a row at the horizon
  std::size_t checks;  // candidates checked against the opponent's VCF
};

// Perfect does not narrow its moves to those that stop the opponent's VCT:
// with the prover's unfinished checks counted as safe, that filter cost
// more than it saved (4-16 against Hard at 200 ms a move, 12-8 without).
constexpr Style kPerfect{true, true, 64, 0, 0, true, 8, 64};
// Hard: Perfect's selective search to the clock, but at most eight plies deep,
// fewer moves checked against the opponent's VCF, and no VCT of its own.
constexpr Style kHard{false, false, 8, 0, 0, true, 8, 24};

// The search table's salt for searches to the clock: one per variant of the
// game and level, kept from move to move so that what a search learnt is
// reused by the next one.
std::uint64_t variant_salt(const RunBoard& board, Level level) {
  return mix64(0xC10CCull ^ static_cast<std::uint64_t>(board.size()) << 8 ^
               static_cast<std::uint64_t>(board.win_length()) << 16 ^
               static_cast<std::uint64_t>(board.exact()) << 24 ^
               static_cast<std::uint64_t>(level) << 32);
}

// The table size for a search of this budget: bigger tables pay off only
// when a search can fill them.
int table_log2(std::chrono::milliseconds budget) {
  if (budget.count() >= 1000) return 21;  // 32 MiB
  if (budget.count() >= 250) return 20;   // 16 MiB
  return SearchTable::kDefaultLog2Entries;
}

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
    if (board.candidates().test(cell)) near.push_back(cell);
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
  RunSearchSettings settings;
  settings.max_depth = turn.options.max_depth > 0 ? std::min(2, turn.options.max_depth) : 2;
  settings.width = 12;
  settings.selective = false;
  settings.exact_top = 1 << 10;
  settings.quiescence = 0;
  settings.narrow_defences = false;
  settings.threat_terms = false;
  const SearchResult result =
      run_iterative_deepening(board, moves, limits, SearchTable::for_this_thread(), settings);
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

// How a strong level spends its turn. With a node cap in the options each
// step gets a share of the nodes left, so the move depends on the inputs
// alone; without one, a share of the time left, and the search uses the
// budget.
class Spending {
 public:
  Spending(const Turn& turn, SearchLimits& limits)
      : limits_(limits), capped_(turn.options.max_nodes != 0) {}

  bool capped() const noexcept { return capped_; }

  // Runs search on `fraction` of what is left and counts what it spent.
  template <typename Search>
  auto with_share(double fraction, Search&& search) {
    SearchLimits share =
        capped_ ? limits_.share(static_cast<std::uint64_t>(limits_.remaining() * fraction))
                : limits_.share(SearchLimits::kNoNodeCap, time_share(fraction));
    auto result = search(share);
    limits_.absorb(share);
    return result;
  }

 private:
  Clock::time_point time_share(double fraction) const {
    const Clock::time_point now = Clock::now();
    const Clock::time_point end = limits_.deadline();
    if (end <= now) return now;
    return now + std::chrono::duration_cast<Clock::duration>((end - now) * fraction);
  }

  SearchLimits& limits_;
  bool capped_;
};

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
std::vector<int> stop_threat(RunBoard& board, const std::vector<int>& moves, Spending& spending,
                             SearchLimits& limits, std::size_t max_checks, double share,
                             Search&& search) {
  const auto threat = threat_if_passed(board, [&](RunBoard& b) {
    return spending.with_share(spending.capped() ? 1.0 / 8 : share / 2,
                               [&](SearchLimits& s) { return search(b, s); });
  });
  if (!threat) return moves;
  std::vector<int> safe;
  const std::size_t checks = std::min(moves.size(), max_checks);
  for (std::size_t i = 0; i < checks; ++i) {
    if (limits.stopped()) break;
    board.play(moves[i]);
    // Capped: a sixteenth of the nodes left each; to the clock: an equal part
    // of the time left for the checks still to come.
    const double each = spending.capped() ? 1.0 / 16 : share / 2 / static_cast<double>(checks - i);
    const auto still = spending.with_share(each, [&](SearchLimits& s) { return search(board, s); });
    board.undo(moves[i]);
    if (!still) safe.push_back(moves[i]);
  }
  return safe.empty() ? moves : safe;
}

// Of the search's moves (best first), the first after which the opponent has
// no win by threats that the prover finds in its share of what is left; the
// best when every one checked loses, when the best already wins, or when no
// time is left. The search alone misses wins of many plies by threes and
// fours; the prover sees them, but checking every candidate before the search
// cost the search too much of its time. When the best move loses, the next
// ones often lose to the same attack: the check goes on down the list (a
// game lost to a depth-1 engine had 3 safe moves of 100, none of them among
// the search's best three).
int verified_cell(RunBoard& board, const std::vector<RootScore>& best, Spending& spending,
                  SearchLimits& limits, ProofTable& proofs) {
  const int first = best.front().cell;
  if (best.front().score >= kWinThreshold) return first;
  // When the search found every move lost, the order among them is an
  // accident: a move that leaves no win by threats still resists best.
  const bool all_lost = best.front().score <= -kWinThreshold;
  const std::size_t checks = best.size();
  for (std::size_t i = 0; i < checks; ++i) {
    if (limits.stopped() || (!all_lost && best[i].score <= -kWinThreshold)) break;
    const int cell = best[i].cell;
    board.play(cell);
    const double each = i == 0 ? kVerifyBestPart : 1.0 / static_cast<double>(checks - i);
    const auto threat = spending.with_share(each, [&](SearchLimits& share) {
      return prove_threat_win(board, share, proofs, ProverSettings{});
    });
    board.undo(cell);
    if (!threat) return cell;
  }
  return first;
}

int strong_cell(Turn& turn, RunBoard& board, Style style) {
  const int forced = forced_cell(board);
  if (forced >= 0) return forced;
  // The first move of a game: the centre, the cell with the most lines.
  if (board.empties() == board.cells()) return board.size() / 2 * board.size() + board.size() / 2;
  const Player me = board.to_move();
  if (board.open_fours(me).any()) return board.open_fours(me).first();
  SearchLimits limits = turn.options.max_nodes != 0
                            ? run_limits(turn)
                            : SearchLimits(run_limits(turn).deadline(), SearchLimits::kNoNodeCap);
  Spending spending(turn, limits);
  SearchTable& table = SearchTable::for_this_thread();
  ProofTable& proofs = ProofTable::for_this_thread();
  if (!spending.capped()) {
    table.reserve(table_log2(turn.options.budget));
    proofs.reserve(table_log2(turn.options.budget) - 1);
  }
  const auto vcf = spending.with_share(
      spending.capped() ? 1.0 / 3 : 0.08,
      [&](SearchLimits& share) { return find_vcf(board, share, table, kMaxVcfFours); });
  if (vcf) return vcf->first;
  std::vector<int> moves = run_candidates(board);
  if (moves.size() > 1) {
    moves =
        stop_threat(board, moves, spending, limits, style.checks, spending.capped() ? 0.25 : 0.12,
                    [&](const RunBoard& b, SearchLimits& share) {
                      return find_vcf(b, share, table, kDefenceFours);
                    });
  }
  if (style.vct) {
    const auto vct = spending.with_share(spending.capped() ? 0.25 : 0.12, [&](SearchLimits& share) {
      return prove_threat_win(board, share, proofs, ProverSettings{});
    });
    if (vct) return vct->first;
  }
  if (moves.size() == 1) return moves.front();
  if (style.root_width > 0 && static_cast<int>(moves.size()) > style.root_width) {
    moves.resize(style.root_width);
  }
  RunSearchSettings settings;
  settings.max_depth = turn.options.max_depth > 0
                           ? std::min(style.max_depth, turn.options.max_depth)
                           : style.max_depth;
  settings.width = style.width;
  settings.selective = style.selective;
  settings.quiescence = style.quiescence;
  settings.narrow_defences = style.selective;
  settings.threat_terms = style.selective;
  const double search_share = style.verify ? 1.0 - kVerifyShare : 1.0;
  if (!spending.capped()) {
    settings.table_salt = variant_salt(board, turn.options.level);
    table.new_age();
  }
  const SearchResult result = spending.with_share(search_share, [&](SearchLimits& share) {
    return run_iterative_deepening(board, moves, share, table, settings);
  });
  if (result.moves.empty()) return moves.front();
  if (!style.verify) return result.moves.front().cell;
  return verified_cell(board, result.moves, spending, limits, proofs);
}

// Exact play on boards of at most 4×4 when the budget allows, else nullopt.
std::optional<int> small_exact_cell(Turn& turn, const RunBoard& board) {
  if (board.size() > SmallGeometry::kMaxSize || board.exact()) return std::nullopt;
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
  RunBoard board(turn.board, turn.options.rule == GomokuRule::Standard);
  return to_move(turn.board, level_cell(turn, board));
}

}  // namespace ttt::internal::ai
