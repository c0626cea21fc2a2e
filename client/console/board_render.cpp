#include "console/board_render.hpp"

#include <algorithm>
#include <vector>

#include "view/move_input.hpp"

namespace ttt::client {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kXColor = "\x1b[1;31m";        // bold red
constexpr std::string_view kOColor = "\x1b[1;36m";        // bold cyan
constexpr std::string_view kLineColor = "\x1b[1;42;30m";  // black on green
constexpr std::string_view kLastColor = "\x1b[1;7m";      // bold reverse
constexpr std::string_view kLabelColor = "\x1b[2m";       // dim

char mark_of(Cell cell) noexcept { return cell == Cell::X ? 'X' : cell == Cell::O ? 'O' : ' '; }

std::string paint(std::string_view text, std::string_view color, RenderStyle style) {
  if (!style.color) return std::string(text);
  return std::string(color) + std::string(text) + std::string(kReset);
}

// The three characters of one cell: " X ", "[X]" for the last move, "*X*" on
// the winning line.
std::string cell_text(Cell cell, bool last, bool on_line, RenderStyle style) {
  const char mark = style.compact && cell == Cell::Empty ? '.' : mark_of(cell);
  std::string body(1, mark);
  if (cell == Cell::X) body = paint(body, kXColor, style);
  if (cell == Cell::O) body = paint(body, kOColor, style);
  if (on_line) return paint("*", kLineColor, style) + body + paint("*", kLineColor, style);
  if (last) return paint("[", kLastColor, style) + body + paint("]", kLastColor, style);
  return " " + body + " ";
}

std::string column_header(int size, int row_label_width, RenderStyle style) {
  std::string header(static_cast<std::size_t>(row_label_width) + 1, ' ');
  for (int col = 0; col < size; ++col) {
    header += "  " + paint(std::string(1, column_label(col)), kLabelColor, style) +
              (col + 1 < size ? " " : "");
  }
  return header + "\n";
}

std::string separator(int size, int row_label_width) {
  std::string line(static_cast<std::size_t>(row_label_width) + 1, ' ');
  line += "+";
  for (int col = 0; col < size; ++col) line += "---+";
  return line + "\n";
}

std::vector<bool> line_mask(const BoardView& view) {
  const int size = view.board.size();
  std::vector<bool> mask(static_cast<std::size_t>(size * size), false);
  if (!view.winning_line) return mask;
  for (const Move& m : line_cells(*view.winning_line, size)) {
    // A whole line from a peer names its row or column unchecked.
    if (view.board.contains(m.row, m.col)) {
      mask[static_cast<std::size_t>(m.row * size + m.col)] = true;
    }
  }
  return mask;
}

}  // namespace

std::string render_board(const BoardView& view, RenderStyle style) {
  const int size = view.board.size();
  const int label_width = size >= 10 ? 2 : 1;
  const std::vector<bool> on_line = line_mask(view);
  std::string out = column_header(size, label_width, style);
  if (style.compact) {
    for (int row = 0; row < size; ++row) {
      std::string label = std::to_string(row + 1);
      label.insert(0, static_cast<std::size_t>(label_width) - label.size(), ' ');
      out += paint(label, kLabelColor, style) + "  ";  // each mark under its letter
      for (int col = 0; col < size; ++col) {
        const bool last = view.last_move && *view.last_move == Move{row, col};
        out += cell_text(view.board.at(row, col), last,
                         on_line[static_cast<std::size_t>(row * size + col)], style);
        if (col + 1 < size) out += " ";
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += "\n";
    }
    return out;
  }
  out += separator(size, label_width);
  for (int row = 0; row < size; ++row) {
    std::string label = std::to_string(row + 1);
    label.insert(0, static_cast<std::size_t>(label_width) - label.size(), ' ');
    out += paint(label, kLabelColor, style) + " |";
    for (int col = 0; col < size; ++col) {
      const bool last = view.last_move && *view.last_move == Move{row, col};
      out += cell_text(view.board.at(row, col), last,
                       on_line[static_cast<std::size_t>(row * size + col)], style);
      out += "|";
    }
    out += "\n" + separator(size, label_width);
  }
  return out;
}

std::string board_as_list(const Board& board) {
  std::string out = "(";
  const std::string cells = board.to_string();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ' ';
    out += cells[i];
  }
  return out + ")";
}

}  // namespace ttt::client
