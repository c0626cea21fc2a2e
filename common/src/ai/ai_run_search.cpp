#include "ai/ai_run_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <utility>

#include "ai/ai_heuristic.hpp"
#include "ai/ai_rng.hpp"
#include "ai/ai_run_worths.hpp"

namespace ttt::internal::ai {
namespace {

constexpr int kInfinity = kWinScore + 1;
// Plies a search line may reach (the forced blocks and the quiescence
// search add to the nominal depth).
constexpr int kMaxPly = 160;

// History scores are kept below this, so that they order the quiet moves
// without outranking a threat.
constexpr int kHistoryCap = 400;
constexpr int kKillerBonus = 300;
// The TT move's order key: above every pattern score.
constexpr int kFirst = 1 << 24;

// The selective search's numbers, chosen by self-play at 150 ms a move.
// Reverse futility pruning: margin per ply of depth left, and below which depth.
constexpr int kFutilityMargin = 70;
constexpr int kFutilityDepth = 6;
// Razoring: margin per ply, and below which depth.
constexpr int kRazorMargin = 120;
constexpr int kRazorDepth = 3;
// The move count limit: kMoveCountBase + depth^kMoveCountPower moves.
constexpr double kMoveCountBase = 3;
constexpr double kMoveCountPower = 1.32;
// Late move reductions: log(depth)·log(n)/kReductionDivisor plies.
constexpr double kReductionDivisor = 2.1;
// Below this depth, moves that make and stop nothing are pruned.
constexpr int kTrivialDepth = 4;

constexpr int win_in(int plies) noexcept { return kWinScore - plies; }

// Mate scores are stored relative to the node, not the root.
int to_table(int score, int ply) noexcept {
  if (score >= kWinThreshold) return score + ply;
  if (score <= -kWinThreshold) return score - ply;
  return score;
}

int from_table(int score, int ply) noexcept {
  if (score >= kWinThreshold) return score - ply;
  if (score <= -kWinThreshold) return score + ply;
  return score;
}

// Late move reductions: plies taken off the n-th move (from 0) at `depth`.
struct ReductionTable {
  std::array<std::array<std::uint8_t, 64>, 65> plies{};
  ReductionTable() {
    for (int d = 1; d <= 64; ++d) {
      for (int n = 1; n < 64; ++n) {
        plies[d][n] =
            static_cast<std::uint8_t>(0.5 + std::log(d) * std::log(n + 1) / kReductionDivisor);
      }
    }
  }
  int operator()(int depth, int n) const noexcept {
    return plies[std::min(depth, 64)][std::min(n, 63)];
  }
};

const ReductionTable& reductions() {
  static const ReductionTable table;
  return table;
}

// Whether two cells lie on one line within `reach` cells of each other.
bool in_line(int a, int b, int size, int reach) noexcept {
  const int dr = std::abs(a / size - b / size);
  const int dc = std::abs(a % size - b % size);
  if (dr > reach || dc > reach) return false;
  return dr == 0 || dc == 0 || dr == dc;
}

struct MoveEntry {
  int key;
  int cell;
};

// Depth in fractions of a ply, so that extensions and reductions can be
// finer than a ply.
constexpr int kPly = 8;

// Moves searched at a node before the rest are pruned, by depth in plies.
struct MoveCountTable {
  std::array<int, 65> count{};
  MoveCountTable() {
    for (int d = 0; d <= 64; ++d) {
      count[d] = static_cast<int>(kMoveCountBase + std::pow(d, kMoveCountPower));
    }
  }
};
int move_count_limit(int depth, bool improving) {
  static const MoveCountTable table;
  return table.count[std::clamp(depth / kPly, 0, 64)] / (improving ? 1 : 2) + 1;
}

// What the search keeps for each ply of the line it is on.
struct Frame {
  int static_eval = 0;
  int move = -1;
  std::array<int, 2> killers{-1, -1};
  Threat move_threat = Threat::None;  // the class of the move for its player
};

class RunSearcher {
 public:
  RunSearcher(const RunBoard& board, SearchLimits& limits, SearchTable& table,
              const RunSearchSettings& settings)
      : board_(board),
        limits_(limits),
        table_(table),
        settings_(settings),
        salt_(settings.table_salt != 0 ? settings.table_salt : table.new_generation()),
        buffer_(static_cast<std::size_t>(kMaxPly) * board.cells()) {}

  struct Outcome {
    bool complete;  // every root move was searched
    int searched;   // how many were (their scores are this iteration's)
  };

  // Searches the root moves in their order at `depth`, setting their scores:
  // exact for the best exact_top of them, upper bounds for the others.
  Outcome iteration(std::vector<RootScore>& moves, int depth, int alpha, int beta);

 private:
  int evaluate() const noexcept { return run_evaluate(board_, settings_.threat_terms); }
  template <bool Pv>
  int search(int depth, int ply, int alpha, int beta, bool cut);
  int quiesce(int ply, int alpha, int beta, int fours, int last_four);
  int generate(int ply, int tt_move, bool threatened, MoveEntry* moves) const;
  void reward(int ply, int cell, int depth, const MoveEntry* tried, int tried_count);
  int quick_result(int ply) const noexcept;

  RunBoard board_;
  SearchLimits& limits_;
  SearchTable& table_;
  const RunSearchSettings& settings_;
  std::uint64_t salt_;
  std::vector<MoveEntry> buffer_;  // kMaxPly move lists of up to cells() moves
  bool aborted_ = false;
  std::array<Frame, kMaxPly + 4> frames_{};
  std::array<std::array<int, Board::kMaxCells>, 2> history_{};
  std::array<std::array<int, Board::kMaxCells>, 2> counter_{};
};

RunSearcher::Outcome RunSearcher::iteration(std::vector<RootScore>& moves, int depth, int alpha,
                                            int beta) {
  std::vector<int> best;  // the exact_top best scores so far, descending
  const int d = depth * kPly;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int cell = moves[i].cell;
    const bool open = static_cast<int>(best.size()) < settings_.exact_top;
    const int floor = open ? alpha : std::max(alpha, best.back());
    int score = win_in(1);
    frames_[0].move = cell;
    frames_[0].move_threat = board_.threat(board_.to_move(), cell);
    if (!board_.play(cell)) {
      if (open) {
        score = -search<true>(d - kPly, 1, -beta, -floor, false);
      } else {
        score = -search<false>(d - kPly, 1, -floor - 1, -floor, true);
        if (score > floor && !aborted_) score = -search<true>(d - kPly, 1, -beta, -floor, false);
      }
    }
    board_.undo(cell);
    if (aborted_) return {false, static_cast<int>(i)};
    moves[i].score = score;
    // Above the window: the caller widens it and searches again.
    if (score >= beta) return {true, static_cast<int>(i) + 1};
    best.insert(std::upper_bound(best.begin(), best.end(), score, std::greater<>()), score);
    if (static_cast<int>(best.size()) > settings_.exact_top) best.pop_back();
  }
  return {true, static_cast<int>(moves.size())};
}

// Wins the patterns alone prove, for the side to move (no five of the
// opponent to block): an open four next move; a four-three or a double
// three against an opponent who cannot make a four. 0 when none.
int RunSearcher::quick_result(int ply) const noexcept {
  const Player me = board_.to_move();
  const Player them = opponent(me);
  if (board_.threat_count(me, Threat::OpenFour) > 0) return win_in(ply + 3);
  if (!settings_.selective) return 0;
  if (board_.fours(them).any()) return 0;
  if (board_.threat_count(me, Threat::FourThree) > 0) return win_in(ply + 5);
  if (board_.threat_count(me, Threat::DoubleThree) > 0) return win_in(ply + 5);
  return 0;
}

template <bool Pv>
int RunSearcher::search(int depth, int ply, int alpha, int beta, bool cut) {
  if (limits_.tick()) {
    aborted_ = true;
    return 0;
  }
  const Player me = board_.to_move();
  const Player them = opponent(me);
  if (board_.threat_count(me, Threat::Five) > 0) return win_in(ply + 1);
  const int against = board_.threat_count(them, Threat::Five);
  if (against >= 2) return -win_in(ply + 2);
  if (board_.empties() == 0) return 0;
  if (ply >= kMaxPly - 4) return evaluate();
  Frame& frame = frames_[ply];
  if (against == 1) {  // the block is forced and costs no depth
    const int block = board_.wins(them).first();
    frame.move = block;
    frame.move_threat = board_.threat(me, block);
    frame.static_eval = ply > 0 ? -frames_[ply - 1].static_eval : evaluate();
    board_.play(block);
    const int score = -search<Pv>(depth, ply + 1, -beta, -alpha, !cut);
    board_.undo(block);
    return score;
  }
  if (const int quick = quick_result(ply); quick != 0) return quick;
  if (depth < kPly) return quiesce(ply, alpha, beta, settings_.quiescence, -1);

  // No line from here is shorter than a win next move or longer than a loss now.
  alpha = std::max(alpha, -win_in(ply));
  beta = std::min(beta, win_in(ply + 1));
  if (alpha >= beta) return alpha;

  const std::uint64_t key = board_.hash() ^ salt_;
  int tt_move = -1;
  int tt_score = 0;
  int tt_depth = -1;
  Bound tt_bound = Bound::None;
  if (const SearchTable::Entry* e = table_.probe(key)) {
    if (e->has_move() && board_.is_empty(e->move())) tt_move = e->move();
    tt_score = from_table(e->score, ply);
    tt_depth = e->depth * 2;
    tt_bound = e->bound;
    if (!Pv && tt_depth >= depth) {
      if (e->bound == Bound::Exact) return tt_score;
      if (e->bound == Bound::Lower && tt_score >= beta) return tt_score;
      if (e->bound == Bound::Upper && tt_score <= alpha) return tt_score;
    }
  }

  // Against an open three (a cell where the opponent makes an open four)
  // only fours and the blocks of the opponent's fours help.
  const bool threatened = board_.threat_count(them, Threat::OpenFour) > 0;
  int eval = evaluate();
  frame.static_eval = eval;
  const bool improving = ply < 2 || eval > frames_[ply - 2].static_eval;
  if (tt_bound != Bound::None && std::abs(tt_score) < kWinThreshold) {
    if ((tt_score > eval && tt_bound != Bound::Upper) ||
        (tt_score < eval && tt_bound != Bound::Lower)) {
      eval = tt_score;
    }
  }
  if (!Pv && !threatened && settings_.selective) {
    if (depth < kRazorDepth * kPly && eval + kRazorMargin * depth / kPly < alpha) {
      const int q = quiesce(ply, alpha, alpha + 1, settings_.quiescence, -1);
      if (aborted_) return 0;
      if (q <= alpha) return q;
    }
    if (depth < kFutilityDepth * kPly &&
        eval - kFutilityMargin * (depth / kPly - (improving ? 1 : 0)) >= beta &&
        eval < kWinThreshold) {
      return eval;
    }
  }
  if (Pv && tt_move < 0 && depth >= 4 * kPly && settings_.selective) depth -= kPly;

  MoveEntry* moves = &buffer_[static_cast<std::size_t>(ply) * board_.cells()];
  const int count = generate(ply, tt_move, threatened, moves);
  // No move stops the opponent's open four: it makes it, and five after.
  if (count == 0) return threatened ? -win_in(ply + 4) : evaluate();
  const int alpha_in = alpha;
  int best = -kInfinity;
  int best_move = -1;
  int searched = 0;
  const int most = settings_.selective && !threatened ? move_count_limit(depth, improving) : count;
  frames_[ply + 2].killers = {-1, -1};
  for (int i = 0; i < count; ++i) {
    // Selection sort, one step at a time: most nodes cut off early.
    std::swap(moves[i], *std::max_element(moves + i, moves + count,
                                          [](auto& a, auto& b) { return a.key < b.key; }));
    const int cell = moves[i].cell;
    const Threat mine = board_.threat(me, cell);
    const Threat theirs = board_.threat(them, cell);
    const bool is_quiet = !threatened && mine < Threat::OpenThree && theirs < Threat::OpenThree;
    // Prune late moves once a move that does not lose is in hand.
    if (settings_.selective && best > -kWinThreshold && searched > 0) {
      if (searched >= most) break;
      if (!threatened && depth < kTrivialDepth * kPly && mine == Threat::None &&
          theirs == Threat::None) {
        continue;
      }
    }
    const int next = depth - kPly;
    frame.move = cell;
    frame.move_threat = mine;
    board_.play(cell);  // cannot complete a line: there was no five to make
    int score;
    if (searched == 0) {
      score = -search<Pv>(next, ply + 1, -beta, -alpha, !cut);
    } else {
      int r = 0;
      if (settings_.selective && depth >= 2 * kPly && searched >= 1) {
        r = reductions()(depth / kPly, searched) * kPly;
        if (!is_quiet) r -= kPly;
        if (Pv) r -= kPly;
        if (cut) r += kPly / 2;
        r -= std::clamp(history_[me == Player::X ? 0 : 1][cell] * kPly / 200, -kPly, kPly);
        r = std::clamp(r, 0, std::max(0, next - kPly));
      }
      score = -search<false>(next - r, ply + 1, -alpha - 1, -alpha, true);
      if (score > alpha && r > 0 && !aborted_) {
        score = -search<false>(next, ply + 1, -alpha - 1, -alpha, !cut);
      }
      if (Pv && score > alpha && score < beta && !aborted_) {
        score = -search<true>(next, ply + 1, -beta, -alpha, false);
      }
    }
    board_.undo(cell);
    if (aborted_) return 0;
    ++searched;
    if (score > best) {
      best = score;
      best_move = cell;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) {
          reward(ply, cell, depth, moves, i);
          break;
        }
      }
    }
  }
  if (searched == 0) return evaluate();
  const Bound bound = best <= alpha_in ? Bound::Upper : best >= beta ? Bound::Lower : Bound::Exact;
  table_.store({key, to_table(best, ply), static_cast<std::uint8_t>(std::clamp(depth / 2, 0, 255)),
                bound, static_cast<std::uint16_t>(best_move + 1)});
  return best;
}

// The side to move stands on the evaluation or plays a four, whose block is
// forced; `fours` more fours may follow. Fours that do not make a second
// threat are tried only near the previous four (`last_four`) after the
// first two.
int RunSearcher::quiesce(int ply, int alpha, int beta, int fours, int last_four) {
  if (limits_.tick()) {
    aborted_ = true;
    return 0;
  }
  const Player me = board_.to_move();
  const Player them = opponent(me);
  if (board_.threat_count(me, Threat::Five) > 0) return win_in(ply + 1);
  const int against = board_.threat_count(them, Threat::Five);
  if (against >= 2) return -win_in(ply + 2);
  if (board_.empties() == 0) return 0;
  if (ply >= kMaxPly - 4) return evaluate();
  if (against == 1) {
    const int block = board_.wins(them).first();
    board_.play(block);
    const int score = -quiesce(ply + 1, -beta, -alpha, fours, last_four);
    board_.undo(block);
    return score;
  }
  if (board_.threat_count(me, Threat::OpenFour) > 0) return win_in(ply + 3);
  const int stand = evaluate();
  if (stand >= beta || fours <= 0) return stand;
  int best = stand;
  alpha = std::max(alpha, stand);
  MoveEntry* moves = &buffer_[static_cast<std::size_t>(ply) * board_.cells()];
  int count = 0;
  // Fours near the side's last move only (within two cells, or four along
  // a line); after the first, only fours that also make a three or two.
  const bool first = fours == settings_.quiescence;
  const int last = first ? (ply >= 2 ? frames_[ply - 2].move : -1) : last_four;
  const int n = board_.size();
  board_.fours(me).for_each([&](int cell) {
    if (last >= 0) {
      const int dr = std::abs(cell / n - last / n);
      const int dc = std::abs(cell % n - last % n);
      if (!(dr <= 2 && dc <= 2) && !in_line(cell, last, n, 4)) return;
    }
    if (!first && board_.threat(me, cell) < Threat::FourPlus) return;
    moves[count++] = {run_move_value(board_, cell), cell};
  });
  std::sort(moves, moves + count, [](auto& a, auto& b) { return a.key > b.key; });
  for (int i = 0; i < count; ++i) {
    const int cell = moves[i].cell;
    board_.play(cell);
    const int score = -quiesce(ply + 1, -beta, -alpha, fours - 1, cell);
    board_.undo(cell);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

// The moves of a node with their order keys (unsorted); returns how many,
// at most settings_.width when that is set.
int RunSearcher::generate(int ply, int tt_move, bool threatened, MoveEntry* moves) const {
  const Player me = board_.to_move();
  const int side = me == Player::X ? 0 : 1;
  const Frame& frame = frames_[ply];
  const int counter =
      ply > 0 && frames_[ply - 1].move >= 0 ? counter_[side][frames_[ply - 1].move] : -1;
  int count = 0;
  auto add = [&](int cell) {
    int key = run_move_value(board_, cell) + history_[side][cell] / 2;
    if (cell == tt_move) {
      key = kFirst;
    } else if (cell == frame.killers[0]) {
      key += kKillerBonus;
    } else if (cell == frame.killers[1]) {
      key += kKillerBonus / 2;
    } else if (cell == counter) {
      key += kKillerBonus / 3;
    }
    moves[count++] = {key, cell};
  };
  if (threatened) {
    if (settings_.narrow_defences) {
      board_.defences().for_each(add);
    } else {
      (board_.fours(me) | board_.fours(opponent(me))).for_each(add);
    }
  } else {
    board_.candidates().for_each(add);
  }
  if (settings_.width > 0 && count > settings_.width) {
    std::partial_sort(moves, moves + settings_.width, moves + count,
                      [](auto& a, auto& b) { return a.key > b.key; });
    count = settings_.width;
  }
  return count;
}

void RunSearcher::reward(int ply, int cell, int depth, const MoveEntry* tried, int tried_count) {
  Frame& frame = frames_[ply];
  if (frame.killers[0] != cell) {
    frame.killers[1] = frame.killers[0];
    frame.killers[0] = cell;
  }
  const int side = board_.to_move() == Player::X ? 0 : 1;
  const int d = depth / kPly;
  const int bonus = std::min(d * d, kHistoryCap / 4);
  auto update = [&](int c, int delta) {
    int& h = history_[side][c];
    h += delta - h * std::abs(delta) / kHistoryCap;
  };
  update(cell, bonus);
  for (int i = 0; i < tried_count; ++i) {
    if (tried[i].cell != cell) update(tried[i].cell, -bonus);
  }
  if (ply > 0 && frames_[ply - 1].move >= 0) counter_[side][frames_[ply - 1].move] = cell;
}

bool decisive(const std::vector<RootScore>& scores) {
  if (scores.front().score >= kWinThreshold) return true;
  return std::all_of(scores.begin(), scores.end(),
                     [](const RootScore& s) { return s.score <= -kWinThreshold; });
}

void sort_by_score(std::vector<RootScore>& moves) {
  std::stable_sort(moves.begin(), moves.end(),
                   [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
}

}  // namespace

int run_move_value(const RunBoard& board, int cell) noexcept {
  const PatternTables& t = pattern_tables();
  const Player me = board.to_move();
  return t.attack[board.code(me, cell)] + t.defence[board.code(opponent(me), cell)];
}

RunThreatTerms run_threat_terms(const RunBoard& board) noexcept {
  const Player me = board.to_move();
  const Player them = opponent(me);
  RunThreatTerms terms;
  if (!board.fours(them).any()) {
    terms.four_three = board.threat_count(me, Threat::FourThree) > 0;
    terms.double_three = !terms.four_three && board.threat_count(me, Threat::DoubleThree) > 0 &&
                         board.threat_count(them, Threat::OpenFour) == 0;
  }
  terms.open_three_against =
      board.threat_count(them, Threat::OpenFour) > 0 && !board.fours(me).any();
  return terms;
}

int run_evaluate(const RunBoard& board, bool threat_terms) noexcept {
  // The mean of the position now and before the last move, both for the side
  // to move: a pattern count swings with whoever moved last.
  const Player me = board.to_move();
  const Player them = opponent(me);
  const int now = board.mover_sum(me) - board.waiter_sum(them);
  const int before = board.previous_mover_sum(me) - board.previous_waiter_sum(them);
  const RunEvaluationTerms& worth = kEvaluationTerms;
  int eval = (now + before) / 2 + worth.tempo;
  if (!threat_terms) return eval;
  const RunThreatTerms terms = run_threat_terms(board);
  if (terms.four_three) eval += worth.four_three;
  if (terms.double_three) eval += worth.double_three;
  if (terms.open_three_against) eval -= worth.open_three_cost;
  return eval;
}

std::vector<int> run_candidates(const RunBoard& board) {
  const Player me = board.to_move();
  const Player them = opponent(me);
  std::vector<int> cells;
  if (board.wins(them).any()) {
    cells.push_back(board.wins(them).first());
    return cells;
  }
  if (board.open_fours(them).any()) {
    CellSet defences = board.defences();
    // Nothing stops the open four: delay it where the threats are.
    if (!defences.any()) defences = board.fours(me) | board.fours(them);
    defences.for_each([&](int cell) { cells.push_back(cell); });
  } else {
    board.candidates().for_each([&](int cell) { cells.push_back(cell); });
  }
  if (cells.empty()) {
    const int centre = board.size() / 2 * board.size() + board.size() / 2;
    for (int cell = 0; cell < board.cells(); ++cell) {
      if (board.is_empty(cell)) cells.push_back(cell);
    }
    std::stable_partition(cells.begin(), cells.end(), [centre](int c) { return c == centre; });
    return cells;
  }
  std::vector<std::pair<int, int>> keyed;
  keyed.reserve(cells.size());
  for (int cell : cells) keyed.push_back({run_move_value(board, cell), cell});
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < keyed.size(); ++i) cells[i] = keyed[i].second;
  return cells;
}

SearchResult run_iterative_deepening(const RunBoard& board, const std::vector<int>& root_moves,
                                     SearchLimits& limits, SearchTable& table,
                                     const RunSearchSettings& settings) {
  SearchResult result;
  if (root_moves.empty()) return result;
  RunSearcher searcher(board, limits, table, settings);
  std::vector<RootScore> order;
  for (int cell : root_moves) order.push_back({cell, -kInfinity});
  for (int depth = 1; depth <= settings.max_depth; ++depth) {
    const RunSearcher::Outcome outcome = searcher.iteration(order, depth, -kInfinity, kInfinity);
    if (!outcome.complete) {
      // The previous best was searched first: what this iteration found for
      // it and for the moves after it that did better stands.
      if (outcome.searched > 0 && !result.moves.empty()) {
        std::vector<RootScore> partial(order.begin(), order.begin() + outcome.searched);
        sort_by_score(partial);
        if (partial.front().cell != result.moves.front().cell &&
            partial.front().score > order.front().score) {
          for (const RootScore& s : result.moves) {
            if (std::none_of(partial.begin(), partial.end(),
                             [&](const RootScore& p) { return p.cell == s.cell; })) {
              partial.push_back(s);
            }
          }
          result.moves = std::move(partial);
        }
      }
      break;
    }
    sort_by_score(order);
    const bool to_the_end = depth >= board.empties();
    result = {order, depth, to_the_end && !settings.selective && settings.width == 0};
    if (to_the_end || decisive(result.moves)) break;
  }
  return result;
}

}  // namespace ttt::internal::ai
