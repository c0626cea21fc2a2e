#include "arena/opening.hpp"

#include <algorithm>

#include "ttt/rules.hpp"

namespace ttt::client {
namespace {

constexpr int kAttempts = 1000;

}  // namespace

int default_opening_plies(int size) { return size >= 9 ? 3 : 1; }

bool balanced(const Board& board) {
  const int n = board.size();
  const int k = board.win_length();
  const int threshold = std::max(2, k - 2);
  static constexpr int kDirections[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (const auto& [dr, dc] : kDirections) {
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < n; ++col) {
        const int end_row = row + dr * (k - 1);
        const int end_col = col + dc * (k - 1);
        if (end_row < 0 || end_row >= n || end_col < 0 || end_col >= n) continue;
        int x = 0;
        int o = 0;
        for (int i = 0; i < k; ++i) {
          const Cell cell = board.at(row + dr * i, col + dc * i);
          x += cell == Cell::X;
          o += cell == Cell::O;
        }
        if ((x >= threshold && o == 0) || (o >= threshold && x == 0)) return false;
      }
    }
  }
  return true;
}

std::vector<Move> random_opening(int size, int win_length, int plies, std::mt19937_64& rng) {
  const int side = std::min(size, std::max(3, size / 2));
  const int first = (size - side) / 2;
  plies = std::clamp(plies, 0, side * side);
  std::vector<Move> best;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Board board(size, win_length);
    std::vector<Move> moves;
    std::uniform_int_distribution<int> cell(0, side - 1);
    while (static_cast<int>(moves.size()) < plies) {
      const Move m{first + cell(rng), first + cell(rng)};
      if (board.at(m.row, m.col) != Cell::Empty) continue;
      board = make_move(board, m.row, m.col, next_player(board));
      moves.push_back(m);
    }
    if (!winner(board) && balanced(board)) return moves;
    if (!winner(board)) best = moves;
  }
  return best;  // every try leaned one way: the last that is not won
}

}  // namespace ttt::client
