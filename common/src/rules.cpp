#include "ttt/rules.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <stdexcept>

#include "line_table.hpp"

namespace ttt {
namespace {

// The client's label of a column: a, b, ... (any int answered).
std::string column_label(int col) { return std::string(1, static_cast<char>('a' + col)); }

// The client's label of a cell: column letter, then row from 1 ("c3").
std::string cell_label(long long row, long long col) {
  return column_label(static_cast<int>(col)) + std::to_string(row + 1);
}

// The owner of a complete line, or nullopt.
std::optional<Player> owner(const Board& board, const Board::Bits& mask) noexcept {
  if ((board.marks(Player::X) & mask) == mask) return Player::X;
  if ((board.marks(Player::O) & mask) == mask) return Player::O;
  return std::nullopt;
}

constexpr std::array<LineKind, 4> kKinds = {LineKind::Row, LineKind::Column, LineKind::Diagonal,
                                            LineKind::AntiDiagonal};

// Which line of its kind holds a run starting at (row, col) (see Line).
int run_index(LineKind kind, int row, int col, int size) noexcept {
  switch (kind) {
    case LineKind::Row:
      return row;
    case LineKind::Column:
      return col;
    case LineKind::Diagonal:
      return col - row;
    case LineKind::AntiDiagonal:
      return row + col - (size - 1);
  }
  return 0;
}

// The first run of k marks of p (k < N), in the order of winning_line.
std::optional<Line> run_held_by(const Board& board, Player p) noexcept {
  const int n = board.size();
  const int k = board.win_length();
  for (LineKind kind : kKinds) {
    const Board::Bits runs = internal::runs_of(board.marks(p), n, k, kind);
    if (runs.none()) continue;
    int first = 0;
    while (!runs.test(first)) ++first;
    const int row = first / n;
    const int col = first % n;
    return Line{kind, run_index(kind, row, col, n), {row, col}, k};
  }
  return std::nullopt;
}

// The first complete line held by p.
std::optional<Line> line_held_by(const Board& board, Player p) noexcept {
  if (!board.whole_lines()) return run_held_by(board, p);
  const Board::Bits& marks = board.marks(p);
  for (const internal::LineMask& l : internal::lines_of(board.size())) {
    if ((marks & l.mask) == l.mask) return l.line;
  }
  return std::nullopt;
}

// How many cells next to (row, col) in direction (dr, dc), up to limit,
// hold the same mark as it, one after another.
int same_marks(const Board& board, int row, int col, int dr, int dc, int limit) noexcept {
  const Cell mark = board.at_index(row * board.size() + col);
  int count = 0;
  for (int r = row + dr, c = col + dc; count < limit && board.contains(r, c); r += dr, c += dc) {
    if (board.at_index(r * board.size() + c) != mark) break;
    ++count;
  }
  return count;
}

// winner_at for k < N: a run of k through (row, col), O(k).
std::optional<Player> run_winner_at(const Board& board, int row, int col) noexcept {
  const Cell mark = board.at_index(row * board.size() + col);
  if (mark == Cell::Empty) return std::nullopt;
  const int k = board.win_length();
  for (const auto& [dr, dc] : internal::kDirections) {
    const int ahead = same_marks(board, row, col, dr, dc, k - 1);
    const int behind = same_marks(board, row, col, -dr, -dc, k - 1 - ahead);
    if (1 + ahead + behind >= k) return mark == Cell::X ? Player::X : Player::O;
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
  if (line.length > 0) {
    const auto [dr, dc] = internal::kDirections[static_cast<int>(line.kind)];
    const auto on_board = [size](long v) { return v >= 0 && v < size; };
    for (long i = 0; i < std::min(line.length, size); ++i) {
      const long row = line.start.row + dr * i;
      const long col = line.start.col + dc * i;
      if (on_board(row) && on_board(col))
        cells.push_back({static_cast<int>(row), static_cast<int>(col)});
    }
    return cells;
  }
  for (int i = 0; i < size; ++i) {
    switch (line.kind) {
      case LineKind::Row:
        cells.push_back({line.index, i});
        break;
      case LineKind::Column:
        cells.push_back({i, line.index});
        break;
      case LineKind::Diagonal:
        cells.push_back({i, i});
        break;
      case LineKind::AntiDiagonal:
        cells.push_back({i, size - 1 - i});
        break;
    }
  }
  return cells;
}

std::string line_name(Line line) {
  if (line.length > 0) {
    const auto [dr, dc] = internal::kDirections[static_cast<int>(line.kind)];
    const long long last = line.length - 1LL;
    const std::string span = " from " + cell_label(line.start.row, line.start.col) + " to " +
                             cell_label(line.start.row + dr * last, line.start.col + dc * last);
    switch (line.kind) {
      case LineKind::Row:
        return "row " + std::to_string(line.start.row + 1LL) + span;
      case LineKind::Column:
        return "column " + column_label(line.start.col) + span;
      case LineKind::Diagonal:
        return "diagonal" + span;
      case LineKind::AntiDiagonal:
        return "anti-diagonal" + span;
    }
  }
  switch (line.kind) {
    case LineKind::Row:
      return "row " + std::to_string(line.index + 1);
    case LineKind::Column:
      return "column " + column_label(line.index);
    case LineKind::Diagonal:
      return "diagonal";
    case LineKind::AntiDiagonal:
      return "anti-diagonal";
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
  if (!board.whole_lines()) return run_winner_at(board, row, col);
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

bool can_still_win(const Board& board, Player p) noexcept {
  const Board::Bits& blocked = board.marks(opponent(p));
  const int n = board.size();
  if (board.whole_lines()) {
    return std::any_of(
        internal::lines_of(n).begin(), internal::lines_of(n).end(),
        [&blocked](const internal::LineMask& line) { return (blocked & line.mask).none(); });
  }
  const Board::Bits open = ~blocked;
  return std::any_of(kKinds.begin(), kKinds.end(), [&](LineKind kind) {
    return internal::runs_of(open, n, board.win_length(), kind).any();
  });
}

}  // namespace ttt
