// Draws a board as text: column letters above, row numbers beside (the move
// syntax's labels), the last move in brackets and a winning line's cells
// starred. With colour, marks and highlights also get ANSI colours; the
// layout is the same either way. Compact, the borders are left out: a row
// a line, an empty cell a '.'.
#pragma once

#include <optional>
#include <string>

#include "ttt/rules.hpp"

namespace ttt::client {

struct BoardView {
  Board board{3};
  std::optional<Move> last_move;
  std::optional<Line> winning_line;
};

struct RenderStyle {
  bool color = false;    // ANSI escape codes
  bool compact = false;  // a row a line, no borders ("1  X [O]  . "): for short screens
};

// The board as lines of text, each ending in '\n'.
std::string render_board(const BoardView& view, RenderStyle style = {});

// The origin's list form of a board: "(E E E E X E E E E)".
std::string board_as_list(const Board& board);

}  // namespace ttt::client
