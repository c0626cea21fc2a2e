#include "ttt/rules.hpp"

#include <cassert>
#include <stdexcept>

#include "line_table.hpp"

namespace ttt {
namespace {

// The owner of a complete line, or nullopt.
std::optional<Player> owner(const Board& board, const Board::Bits& mask) noexcept {
  if ((board.marks(Player::X) & mask) == mask) return Player::X;
  if ((board.marks(Player::O) & mask) == mask) return Player::O;
  return std::nullopt;
}

// The first complete line held by p.
std::optional<Line> line_held_by(const Board& board, Player p) noexcept {
  const Board::Bits& marks = board.marks(p);
  for (const internal::LineMask& l : internal::lines_of(board.size())) {
    if ((marks & l.mask) == l.mask) return l.line;
  }
  return std::nullopt;
}

}  // namespace

bool is_board(std::string_view cells) noexcept {
  std::size_t side = 0;
  while (side * side < cells.size()) ++side;
  if (side * side != cells.size()) return false;
  long xs = 0;
  long os = 0;
  for (char c : cells) {
    if (c == 'X') {
      ++xs;
    } else if (c == 'O') {
      ++os;
    } else if (c != 'E') {
      return false;
    }
  }
  return xs - os == 0 || xs - os == 1;
}

Player next_player(const Board& board) noexcept {
  return board.count(Player::X) == board.count(Player::O) ? Player::X : Player::O;
}

bool is_valid_move(const Board& board, int row, int col, Player p) noexcept {
  return next_player(board) == p && board.contains(row, col) &&
         board.at_index(row * board.size() + col) == Cell::Empty;
}

Board make_move(const Board& board, int row, int col, Player p) {
  const bool valid = is_valid_move(board, row, col, p);
  assert(valid && "make_move: precondition is_valid_move violated");
  if (!valid) {
    throw std::invalid_argument("make_move: " + std::string(to_string(p)) + " may not move at (" +
                                std::to_string(row) + ", " + std::to_string(col) + ") on " +
                                board.to_string());
  }
  Board next = board;
  next.place(row * board.size() + col, p);
  return next;
}

std::vector<Move> line_cells(Line line, int size) {
  std::vector<Move> cells;
  cells.reserve(size > 0 ? size : 0);
  for (int i = 0; i < size; ++i) {
    switch (line.kind) {
      case LineKind::Row: cells.push_back({line.index, i}); break;
      case LineKind::Column: cells.push_back({i, line.index}); break;
      case LineKind::Diagonal: cells.push_back({i, i}); break;
      case LineKind::AntiDiagonal: cells.push_back({i, size - 1 - i}); break;
    }
  }
  return cells;
}

std::string line_name(Line line) {
  switch (line.kind) {
    case LineKind::Row: return "row " + std::to_string(line.index + 1);
    case LineKind::Column: return std::string("column ") + static_cast<char>('a' + line.index);
    case LineKind::Diagonal: return "diagonal";
    case LineKind::AntiDiagonal: return "anti-diagonal";
  }
  return "line";
}

std::optional<Player> winner(const Board& board) noexcept {
  if (line_held_by(board, Player::X)) return Player::X;
  if (line_held_by(board, Player::O)) return Player::O;
  return std::nullopt;
}

std::optional<Player> winner_at(const Board& board, int row, int col) noexcept {
  if (!board.contains(row, col)) return std::nullopt;
  const int n = board.size();
  const auto& lines = internal::lines_of(n);
  // Layout of lines_of: rows [0, n), columns [n, 2n), diagonal 2n, anti 2n+1.
  if (auto p = owner(board, lines[row].mask)) return p;
  if (auto p = owner(board, lines[n + col].mask)) return p;
  if (row == col) {
    if (auto p = owner(board, lines[2 * n].mask)) return p;
  }
  if (row + col == n - 1) {
    if (auto p = owner(board, lines[2 * n + 1].mask)) return p;
  }
  return std::nullopt;
}

std::optional<Line> winning_line(const Board& board) noexcept {
  if (auto line = line_held_by(board, Player::X)) return line;
  return line_held_by(board, Player::O);
}

bool is_draw(const Board& board) noexcept { return board.full() && !winner(board); }

}  // namespace ttt
