#include "ai_test_support.hpp"

#include <random>

namespace ttt::testing {
namespace {

struct LineState {
  std::vector<Move> empty;
  int mine = 0;
  int theirs = 0;
};

LineState state_of(const Board& board, const std::vector<Move>& cells, Player p) {
  LineState s;
  for (Move m : cells) {
    const Cell c = board.at(m.row, m.col);
    if (c == Cell::Empty) s.empty.push_back(m);
    if (c == cell_of(p)) ++s.mine;
    if (c == cell_of(opponent(p))) ++s.theirs;
  }
  return s;
}

// A cell completing a line for `who`, if any.
std::optional<Move> completing(const Board& board, Player who) {
  const int n = board.size();
  for (int l = 0; l < 2 * n + 2; ++l) {
    const LineState s = state_of(board, nth_line(n, l), who);
    if (s.theirs == 0 && s.empty.size() == 1) return s.empty.front();
  }
  return std::nullopt;
}

Move random_empty(const Board& board, std::mt19937_64& rng) {
  std::vector<Move> empty;
  for (int r = 0; r < board.size(); ++r) {
    for (int c = 0; c < board.size(); ++c) {
      if (board.at(r, c) == Cell::Empty) empty.push_back({r, c});
    }
  }
  return empty[rng() % empty.size()];
}

}  // namespace

Policy line_builder(std::uint64_t seed) {
  return [seed](const Board& board, Player p) {
    std::mt19937_64 rng(seed ^ std::hash<std::string>{}(board.to_string()));
    if (auto win = completing(board, p)) return *win;
    if (auto block = completing(board, opponent(p))) return *block;
    const int n = board.size();
    std::vector<Move> best;
    int most = -1;
    for (int l = 0; l < 2 * n + 2; ++l) {
      const LineState s = state_of(board, nth_line(n, l), p);
      if (s.theirs > 0 || s.empty.empty() || s.mine < most) continue;
      if (s.mine > most) best.clear();
      most = s.mine;
      best.insert(best.end(), s.empty.begin(), s.empty.end());
    }
    return best.empty() ? random_empty(board, rng) : best[rng() % best.size()];
  };
}

}  // namespace ttt::testing
