#include "ai/ai_run_search.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>

#include "ai/ai_heuristic.hpp"

namespace ttt::internal::ai {
namespace {

constexpr int kInfinity = kWinScore + 1;

// What each shape is worth to the player who makes it, before combinations.
constexpr std::array<int, 9> kShapeValue = {0, 1, 4, 12, 30, 150, 200, 10'000, 0};
constexpr int kFiveValue = 1'000'000;
constexpr int kOpenFourValue = 100'000;  // or two fours at once
constexpr int kFourThreeValue = 50'000;  // a four and an open three at once
constexpr int kDoubleThreeValue = 20'000;

int side_value(const RunBoard& board, Player p, int cell) noexcept {
  if (board.wins(p).test(cell)) return kFiveValue;
  int value = 0;
  int fours = 0;
  int threes = 0;
  for (int d = 0; d < 4; ++d) {
    const Shape s = board.shape(p, cell, d);
    value += kShapeValue[static_cast<int>(s)];
    fours += s == Shape::Four || s == Shape::OpenFour;
    threes += s == Shape::OpenThree;
  }
  if (board.open_fours(p).test(cell)) return value + kOpenFourValue;
  if (fours > 0 && threes > 0) return value + kFourThreeValue;
  if (threes >= 2) return value + kDoubleThreeValue;
  return value;
}

// Mate scores are stored relative to the node, not the root.
int to_table(int score, int ply) {
  if (score >= kWinThreshold) return score + ply;
  if (score <= -kWinThreshold) return score - ply;
  return score;
}

int from_table(int score, int ply) {
  if (score >= kWinThreshold) return score - ply;
  if (score <= -kWinThreshold) return score + ply;
  return score;
}

class RunSearcher {
 public:
  RunSearcher(const RunBoard& board, SearchLimits& limits, SearchTable& table, int width)
      : board_(board),
        limits_(limits),
        table_(table),
        salt_(table.new_generation()),
        width_(width) {}

  // Scores every root move at one depth; nullopt when the limits stopped it.
  std::optional<std::vector<RootScore>> iteration(const std::vector<int>& moves, int depth,
                                                  int exact_top);

 private:
  using MoveList = std::array<std::pair<int, int>, Board::kMaxCells>;  // (order key, cell)

  int pvs(int depth, int ply, int alpha, int beta);
  int search_moves(int depth, int ply, int alpha, int beta, int tt_move, int& best_move);
  int generate(int ply, int tt_move, MoveList& moves) const;
  void reward(int ply, int cell, int depth);

  RunBoard board_;
  SearchLimits& limits_;
  SearchTable& table_;
  std::uint64_t salt_;
  int width_;
  bool aborted_ = false;
  std::array<std::array<int, 2>, Board::kMaxCells + 2> killers_{};
  std::array<int, Board::kMaxCells> history_{};
};

std::optional<std::vector<RootScore>> RunSearcher::iteration(const std::vector<int>& moves,
                                                             int depth, int exact_top) {
  std::vector<RootScore> scores;
  std::vector<int> best;  // the exact_top best scores so far, descending
  for (int cell : moves) {
    const int alpha = static_cast<int>(best.size()) < exact_top ? -kInfinity : best.back();
    int score = kWinScore - 1;
    if (!board_.play(cell)) score = -pvs(depth - 1, 1, -kInfinity, -alpha);
    board_.undo(cell);
    if (aborted_) return std::nullopt;
    scores.push_back({cell, score});
    best.insert(std::upper_bound(best.begin(), best.end(), score, std::greater<>()), score);
    if (static_cast<int>(best.size()) > exact_top) best.pop_back();
  }
  std::stable_sort(scores.begin(), scores.end(),
                   [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
  return scores;
}

int RunSearcher::pvs(int depth, int ply, int alpha, int beta) {
  if (limits_.tick()) {
    aborted_ = true;
    return 0;
  }
  const Player me = board_.to_move();
  const Player them = opponent(me);
  if (board_.wins(me).any()) return kWinScore - (ply + 1);
  const int against = board_.wins(them).count();
  if (against >= 2) return -(kWinScore - (ply + 2));
  if (board_.empties() == 0) return 0;
  if (against == 1) {  // the block is forced and costs no depth
    const int block = board_.wins(them).first();
    board_.play(block);
    const int score = board_.empties() == 0 ? 0 : -pvs(depth, ply + 1, -beta, -alpha);
    board_.undo(block);
    return score;
  }
  if (board_.open_fours(me).any()) return kWinScore - (ply + 3);
  if (depth <= 0) return run_evaluate(board_);

  const std::uint64_t key = board_.hash() ^ salt_;
  int tt_move = -1;
  if (const SearchTable::Entry* e = table_.probe(key)) {
    const int score = from_table(e->score, ply);
    if (e->depth >= depth) {
      if (e->bound == Bound::Exact) return score;
      if (e->bound == Bound::Lower && score >= beta) return score;
      if (e->bound == Bound::Upper && score <= alpha) return score;
    }
    if (e->has_move()) tt_move = e->move();
  }
  const int alpha_in = alpha;
  int best_move = -1;
  const int best = search_moves(depth, ply, alpha, beta, tt_move, best_move);
  if (aborted_) return 0;
  const Bound bound = best <= alpha_in ? Bound::Upper : best >= beta ? Bound::Lower : Bound::Exact;
  table_.store({key, to_table(best, ply), static_cast<std::uint8_t>(std::min(depth, 255)), bound,
                static_cast<std::uint16_t>(best_move + 1)});
  return best;
}

int RunSearcher::search_moves(int depth, int ply, int alpha, int beta, int tt_move,
                              int& best_move) {
  MoveList moves;
  const int count = generate(ply, tt_move, moves);
  int best = -kInfinity;
  for (int i = 0; i < count; ++i) {
    const int cell = moves[i].second;
    board_.play(cell);  // cannot complete a line: there was no five to make
    int score;
    if (i == 0) {
      score = -pvs(depth - 1, ply + 1, -beta, -alpha);
    } else {
      score = -pvs(depth - 1, ply + 1, -alpha - 1, -alpha);
      if (score > alpha && score < beta && !aborted_) {
        score = -pvs(depth - 1, ply + 1, -beta, -alpha);
      }
    }
    board_.undo(cell);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      best_move = cell;
    }
    alpha = std::max(alpha, score);
    if (alpha >= beta) {
      reward(ply, cell, depth);
      break;
    }
  }
  return count == 0 ? 0 : best;
}

// The moves of a node in the order to search them, at most width_ of them
// unless the opponent's open three leaves only a few; returns how many.
int RunSearcher::generate(int ply, int tt_move, MoveList& moves) const {
  const Player them = opponent(board_.to_move());
  int count = 0;
  auto add = [&](int cell) {
    int key = run_move_value(board_, cell) + history_[cell];
    if (cell == tt_move)
      key = kInfinity;
    else if (cell == killers_[ply][0] || cell == killers_[ply][1])
      key += kDoubleThreeValue;
    moves[count++] = {key, cell};
  };
  if (board_.open_fours(them).any()) {
    (board_.fours(board_.to_move()) | board_.fours(them)).for_each(add);
  } else {
    for (int cell = 0; cell < board_.cells(); ++cell) {
      if (board_.is_empty(cell) && board_.near(cell) > 0) add(cell);
    }
  }
  const int keep = std::min(count, width_);
  std::partial_sort(moves.begin(), moves.begin() + keep, moves.begin() + count,
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  return keep;
}

void RunSearcher::reward(int ply, int cell, int depth) {
  if (killers_[ply][0] != cell) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = cell;
  }
  history_[cell] = std::min(history_[cell] + depth * depth, kShapeValue[5]);
}

bool decisive(const std::vector<RootScore>& scores) {
  if (scores.front().score >= kWinThreshold) return true;
  return std::all_of(scores.begin(), scores.end(),
                     [](const RootScore& s) { return s.score <= -kWinThreshold; });
}

}  // namespace

int run_move_value(const RunBoard& board, int cell) noexcept {
  const Player me = board.to_move();
  return side_value(board, me, cell) + side_value(board, opponent(me), cell) * 7 / 8;
}

int run_evaluate(const RunBoard& board) noexcept {
  const Player me = board.to_move();
  const int mine = board.window_score(me);
  // The side to move is a tempo ahead: its windows count a little more.
  return mine + mine / 8 - board.window_score(opponent(me));
}

std::vector<int> run_candidates(const RunBoard& board) {
  const Player me = board.to_move();
  const Player them = opponent(me);
  std::vector<int> cells;
  if (board.open_fours(them).any()) {
    (board.fours(me) | board.fours(them)).for_each([&](int cell) { cells.push_back(cell); });
  } else {
    for (int cell = 0; cell < board.cells(); ++cell) {
      if (board.is_empty(cell) && board.near(cell) > 0) cells.push_back(cell);
    }
  }
  if (cells.empty()) {
    const int centre = board.size() / 2 * board.size() + board.size() / 2;
    for (int cell = 0; cell < board.cells(); ++cell) {
      if (board.is_empty(cell)) cells.push_back(cell);
    }
    std::stable_partition(cells.begin(), cells.end(), [centre](int c) { return c == centre; });
  }
  std::vector<std::pair<int, int>> keyed;
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
  RunSearcher searcher(board, limits, table, settings.width);
  std::vector<int> order = root_moves;
  for (int depth = 1; depth <= settings.max_depth; ++depth) {
    auto scores = searcher.iteration(order, depth, settings.exact_top);
    if (!scores) break;
    result = {std::move(*scores), depth, depth >= board.empties()};
    if (result.exact || decisive(result.moves)) break;
    order.clear();
    for (const RootScore& s : result.moves) order.push_back(s.cell);
  }
  return result;
}

}  // namespace ttt::internal::ai
