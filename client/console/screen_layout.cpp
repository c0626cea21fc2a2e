#include "console/screen_layout.hpp"

#include <algorithm>
#include <utility>

namespace ttt::client {
namespace {

constexpr int kPanelMinWidth = 30;  // the players' names, ratings and clocks
constexpr int kPanelLines = 10;
constexpr int kLogMinLines = 3;
constexpr int kLobbyPanelLines = 12;

}  // namespace

int BoardGeometry::lines() const noexcept {
  if (size == 0) return 0;
  return bordered ? 2 * size + 2 : size + 1;
}

int BoardGeometry::columns() const noexcept {
  if (size == 0) return 0;
  return label_width + 1 + (bordered ? 4 * size + 1 : 2 * size);
}

std::pair<int, int> BoardGeometry::mark_at(int row, int col) const noexcept {
  if (bordered) return {top + 2 + 2 * row, left + label_width + 1 + 4 * col + 2};
  return {top + 1 + row, left + label_width + 1 + 2 * col};
}

std::optional<Move> BoardGeometry::cell_at(int line, int column) const noexcept {
  if (size == 0) return std::nullopt;
  int row = 0;
  int col = 0;
  const int x = column - (left + label_width + 1);
  if (bordered) {
    const int y = line - (top + 2);
    if (y < 0 || y % 2 != 0 || x < 0 || x % 4 == 0) return std::nullopt;
    row = y / 2;
    col = x / 4;
  } else {
    row = line - (top + 1);
    if (x < 0) return std::nullopt;
    col = x / 2;
  }
  if (row < 0 || row >= size || col < 0 || col >= size) return std::nullopt;
  return Move{row, col};
}

ScreenLayout layout_screen(int lines, int columns, int board_size) {
  ScreenLayout layout;
  layout.width = columns;
  layout.input_line = lines - 1;
  auto too_small = [&](int need_lines, int need_columns) {
    layout.fits = false;
    layout.why = "The terminal is too small: make it at least " + std::to_string(need_columns) +
                 "x" + std::to_string(need_lines) + " (or run with --plain).";
    return layout;
  };
  if (board_size == 0) {
    layout.panel_height = std::clamp(lines - kLogMinLines - 2, 0, kLobbyPanelLines);
    if (columns < 40 || layout.panel_height < 4) return too_small(kLogMinLines + 6, 40);
    layout.panel_width = columns;
    layout.log_top = layout.panel_height + 1;
    layout.log_height = lines - 1 - layout.log_top;
    return layout;
  }
  BoardGeometry board;
  board.size = board_size;
  board.label_width = board_size > 9 ? 2 : 1;
  board.top = 0;
  board.left = 1;
  // Bordered cells with a blank line above the log if they fit, else
  // compact cells, and on a short screen without the blank line (a 19x19
  // board fits 80x24 so).
  for (const auto& [bordered, gap] :
       {std::pair{true, 1}, std::pair{false, 1}, std::pair{false, 0}}) {
    board.bordered = bordered;
    const int used_lines = std::max(board.lines(), kPanelLines) + gap + kLogMinLines + 1;
    const int used_columns = board.left + board.columns() + 3 + kPanelMinWidth;
    if (used_lines <= lines && used_columns <= columns) {
      layout.board = board;
      layout.panel_top = 0;
      layout.panel_left = board.left + board.columns() + 3;
      layout.panel_width = columns - layout.panel_left;
      layout.panel_height = kPanelLines;
      layout.log_top = std::max(board.lines(), kPanelLines) + gap;
      layout.log_height = lines - 1 - layout.log_top;
      return layout;
    }
  }
  return too_small(board.lines() + kLogMinLines + 1,
                   board.left + board.columns() + 3 + kPanelMinWidth);
}

}  // namespace ttt::client
