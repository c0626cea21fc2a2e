#include "console/board_cursor.hpp"

#include <algorithm>

#include "view/state_view.hpp"

namespace ttt::client {

void BoardCursor::follow(const wire::GameState& game, bool new_board) {
  if (!new_board && game_id_ == game.game_id()) return;
  game_id_ = game.game_id();
  const int n = std::max(game.size(), 1);
  at_ = {n / 2, n / 2};
  if (const auto board = board_of(game); board && board->at(n / 2, n / 2) != Cell::Empty) {
    for (int i = 0; i < n * n; ++i) {
      if (board->at(i / n, i % n) == Cell::Empty) {
        at_ = {i / n, i % n};
        break;
      }
    }
  }
}

void BoardCursor::move(int rows, int cols, int size) noexcept {
  at_.row = std::clamp(at_.row + rows, 0, size - 1);
  at_.col = std::clamp(at_.col + cols, 0, size - 1);
}

}  // namespace ttt::client
