#include "ai/ai_heuristic_search.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>

#include "ai/ai_heuristic.hpp"

namespace ttt::internal::ai {
namespace {

constexpr int kInfinity = kWinScore + 1;

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

class Searcher {
 public:
  Searcher(const LineBoard& board, SearchLimits& limits, SearchTable& table)
      : board_(board), limits_(limits), table_(table), salt_(table.new_generation()) {}

  // Scores every root move at one depth; nullopt when the limits stopped it.
  std::optional<std::vector<RootScore>> iteration(const std::vector<int>& moves, int depth,
                                                  int exact_top);

 private:
  int negamax(int depth, int ply, int alpha, int beta);
  std::optional<int> decided(int ply, int& forced);
  int search_moves(int depth, int ply, int alpha, int beta, int tt_move, int& best_move);
  int root_move(int cell, int depth, int alpha);

  LineBoard board_;
  SearchLimits& limits_;
  SearchTable& table_;
  std::uint64_t salt_;
  bool aborted_ = false;
};

std::optional<std::vector<RootScore>> Searcher::iteration(const std::vector<int>& moves, int depth,
                                                          int exact_top) {
  std::vector<RootScore> scores;
  std::vector<int> best;  // the exact_top best scores so far, descending
  for (int cell : moves) {
    const int alpha = static_cast<int>(best.size()) < exact_top ? -kInfinity : best.back();
    const int score = root_move(cell, depth, alpha);
    if (aborted_) return std::nullopt;
    scores.push_back({cell, score});
    best.insert(std::upper_bound(best.begin(), best.end(), score, std::greater<>()), score);
    if (static_cast<int>(best.size()) > exact_top) best.pop_back();
  }
  std::stable_sort(scores.begin(), scores.end(),
                   [](const RootScore& a, const RootScore& b) { return a.score > b.score; });
  return scores;
}

int Searcher::root_move(int cell, int depth, int alpha) {
  if (board_.play(cell)) {
    board_.undo(cell);
    return kWinScore - 1;
  }
  const int score = -negamax(depth - 1, 1, -kInfinity, -alpha);
  board_.undo(cell);
  return score;
}

// The score of a node that needs no search, if any: a win at once, a double
// threat against us, a board where nobody can win any more. Sets `forced` to
// the one cell that blocks a single threat.
std::optional<int> Searcher::decided(int ply, int& forced) {
  const Player p = board_.to_move();
  if (board_.empties() == 0) return 0;
  if (board_.threats(p).count > 0) return kWinScore - (ply + 1);
  const ThreatCells against = board_.threats(opponent(p));
  if (against.count >= 2) return -(kWinScore - (ply + 2));
  if (!board_.any_line_open()) return 0;
  forced = against.count == 1 ? against.cells[0] : -1;
  return std::nullopt;
}

int Searcher::negamax(int depth, int ply, int alpha, int beta) {
  if (limits_.tick()) {
    aborted_ = true;
    return 0;
  }
  int forced = -1;
  if (const auto score = decided(ply, forced)) return *score;
  if (forced >= 0) {  // a forced reply costs no depth
    board_.play(forced);
    const int score = -negamax(depth, ply + 1, -beta, -alpha);
    board_.undo(forced);
    return score;
  }
  if (depth <= 0) return evaluate(board_, board_.to_move());

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
  int best_move = -1;
  const int best = search_moves(depth, ply, alpha, beta, tt_move, best_move);
  if (aborted_) return 0;
  const Bound bound = best <= alpha ? Bound::Upper : best >= beta ? Bound::Lower : Bound::Exact;
  table_.store({key, to_table(best, ply), static_cast<std::uint8_t>(std::min(depth, 255)), bound,
                static_cast<std::uint16_t>(best_move + 1)});
  return best;
}

int Searcher::search_moves(int depth, int ply, int alpha, int beta, int tt_move, int& best_move) {
  const Player p = board_.to_move();
  std::array<std::pair<int, int>, Board::kMaxCells> moves;  // (value, cell)
  int count = 0;
  for (int cell = 0; cell < board_.cells(); ++cell) {
    if (!board_.is_empty(cell) || !board_.live(cell)) continue;
    const int bonus = cell == tt_move ? kWinScore : 0;
    moves[count++] = {move_value(board_, cell, p) + bonus, cell};
  }
  std::stable_sort(moves.begin(), moves.begin() + count,
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  int best = -kInfinity;
  for (int i = 0; i < count; ++i) {
    const int cell = moves[i].second;
    board_.play(cell);  // cannot complete a line: decided() found no win
    const int score = -negamax(depth - 1, ply + 1, -beta, -alpha);
    board_.undo(cell);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      best_move = cell;
    }
    alpha = std::max(alpha, score);
    if (alpha >= beta) break;
  }
  return best;
}

bool decisive(const std::vector<RootScore>& scores) {
  if (scores.front().score >= kWinThreshold) return true;
  return std::all_of(scores.begin(), scores.end(),
                     [](const RootScore& s) { return s.score <= -kWinThreshold; });
}

// Root moves for the next iteration: the last one's order.
std::vector<int> cells_of(const std::vector<RootScore>& scores) {
  std::vector<int> cells;
  for (const RootScore& s : scores) cells.push_back(s.cell);
  return cells;
}

}  // namespace

SearchResult iterative_deepening(const LineBoard& board, const std::vector<int>& root_moves,
                                 SearchLimits& limits, SearchTable& table,
                                 const SearchSettings& settings) {
  SearchResult result;
  if (root_moves.empty()) return result;
  Searcher searcher(board, limits, table);
  std::vector<int> order = ordered_by_value(board, root_moves);
  for (int depth = 1; depth <= settings.max_depth; ++depth) {
    auto scores = searcher.iteration(order, depth, settings.exact_top);
    if (!scores) break;
    result = {std::move(*scores), depth, depth >= board.empties()};
    if (result.exact || decisive(result.moves)) break;
    order = cells_of(result.moves);
  }
  return result;
}

std::vector<int> useful_moves(const LineBoard& board) {
  std::vector<int> live;
  std::vector<int> empty;
  for (int cell = 0; cell < board.cells(); ++cell) {
    if (!board.is_empty(cell)) continue;
    empty.push_back(cell);
    if (board.live(cell)) live.push_back(cell);
  }
  return live.empty() ? empty : live;
}

std::vector<int> ordered_by_value(const LineBoard& board, std::vector<int> cells) {
  const Player p = board.to_move();
  std::vector<std::pair<int, int>> keyed;
  for (int cell : cells) keyed.push_back({move_value(board, cell, p), cell});
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < keyed.size(); ++i) cells[i] = keyed[i].second;
  return cells;
}

}  // namespace ttt::internal::ai
