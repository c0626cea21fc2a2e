// ScreenLayout: where the full-screen client puts things on a terminal of a
// given size — the board (bordered cells like the line mode's "| X |" when
// they fit, else compact "X " cells), the side panel with the players and
// their clocks, the log of messages and chat, and the input line — and
// which board cell a screen position falls on (a mouse click). Pure: the
// drawing code and the tests read it alike.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "ttt/board.hpp"

namespace ttt::client {

struct BoardGeometry {
  int size = 0;          // 0: no board on screen
  bool bordered = true;  // "| X |" cells between "+---+" lines, else "X " cells
  int top = 0;           // the line of the column labels
  int left = 0;          // the first column of the row labels
  int label_width = 1;   // row labels' width: 1 up to 9 rows, then 2

  // Screen lines and columns the board takes, labels included.
  int lines() const noexcept;
  int columns() const noexcept;
  // The screen position (line, column) of a cell's mark.
  std::pair<int, int> mark_at(int row, int col) const noexcept;
  // The cell whose box holds the screen position, if any (borders are not
  // cells).
  std::optional<Move> cell_at(int line, int column) const noexcept;
};

struct ScreenLayout {
  bool fits = true;
  std::string why;  // when it doesn't: what size it needs
  BoardGeometry board;
  int panel_top = 0, panel_left = 0, panel_width = 0, panel_height = 0;
  int log_top = 0, log_height = 0;
  int input_line = 0;
  int width = 0;
};

// The layout on a terminal of `lines`×`columns` for a game on a
// board_size×board_size board (0: no game, the lobby's lists in the panel).
ScreenLayout layout_screen(int lines, int columns, int board_size);

}  // namespace ttt::client
