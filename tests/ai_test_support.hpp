// Shared helpers of the AI tests: players as functions, a game runner, the
// adversaries Perfect is tested against, and how much to scale loops down
// under the sanitizers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "support/sanitizers.hpp"
#include "ttt/ai.hpp"
#include "ttt/game.hpp"
#include "ttt/rules.hpp"

namespace ttt::testing {

inline constexpr int kSlowdown = kSanitized ? 8 : 1;

// A loop count for a fast build, cut down under a sanitizer (at least `floor`).
constexpr int scaled(int count, int floor = 1) {
  return count / kSlowdown > floor ? count / kSlowdown : floor;
}

// Chooses a move for the player to move.
using Policy = std::function<Move(const Board&, Player)>;

// The engine at a level.
inline Policy engine(Level level, std::uint64_t seed, std::chrono::milliseconds budget,
                     std::uint64_t max_nodes = 0) {
  return [=](const Board& board, Player p) {
    const int marks = board.count(Player::X) + board.count(Player::O);
    return calculate_next_move(board, p, {level, budget, seed * 1000003 + marks, max_nodes});
  };
}

// Plays a game of size×size (win length k, 0: the size) to its end; every
// move must be legal.
inline Game play_game(int size, const Policy& x, const Policy& o, int win_length = 0) {
  Game game(size, win_length);
  while (!game.over()) {
    const Player p = game.to_move();
    const Move m = (p == Player::X ? x : o)(game.board(), p);
    if (game.play(p, m.row, m.col)) throw std::logic_error("illegal move by the policy");
  }
  return game;
}

// +1 when p won the game, -1 when p lost, 0 for a draw.
inline int result_for(const Game& game, Player p) {
  switch (game.status()) {
    case GameStatus::XWon:
      return p == Player::X ? 1 : -1;
    case GameStatus::OWon:
      return p == Player::O ? 1 : -1;
    default:
      return 0;
  }
}

// Cells of line l of an n×n board in rules order (rows, columns, diagonals).
inline std::vector<Move> nth_line(int n, int l) {
  if (l < n) return line_cells({LineKind::Row, l}, n);
  if (l < 2 * n) return line_cells({LineKind::Column, l - n}, n);
  return line_cells({l == 2 * n ? LineKind::Diagonal : LineKind::AntiDiagonal, 0}, n);
}

// An adversary that builds lines: wins at once if it can, blocks an immediate
// loss, else adds a mark to its fullest line still open to it (seeded choice
// among equals), else plays randomly.
Policy line_builder(std::uint64_t seed);

}  // namespace ttt::testing
