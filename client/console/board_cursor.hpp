// BoardCursor: the full screen's cursor on the board, moved with the arrow
// keys (or hjkl) and placed on with Enter or a click. On a new board it
// starts on a free cell: the centre when that is free. Pure.
#pragma once

#include <cstdint>

#include "ttt.pb.h"
#include "ttt/board.hpp"

namespace ttt::client {

class BoardCursor {
 public:
  // The game shown now; new_board: another game, round or size than the
  // one shown before. A new board (or another game) puts the cursor on a
  // free cell.
  void follow(const wire::GameState& game, bool new_board);

  // Moves by rows and cols, staying on a size x size board.
  void move(int rows, int cols, int size) noexcept;

  // Puts the cursor on a cell (a click).
  void set(Move cell) noexcept { at_ = cell; }

  Move at() const noexcept { return at_; }

 private:
  Move at_{0, 0};
  std::uint64_t game_id_ = 0;  // the game the cursor was placed for
};

}  // namespace ttt::client
