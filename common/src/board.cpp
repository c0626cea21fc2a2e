#include "ttt/board.hpp"

#include <stdexcept>

#include "ttt/rules.hpp"

namespace ttt {

std::string_view to_string(Player p) noexcept { return p == Player::X ? "X" : "O"; }

Board::Board(int size) {
  if (size < 0 || size > kMaxSize) {
    throw std::invalid_argument("board size must be 0.." + std::to_string(kMaxSize) + ", got " +
                                std::to_string(size));
  }
  size_ = static_cast<std::int16_t>(size);
}

std::optional<Board> Board::parse(std::string_view cells) {
  if (!is_board(cells)) return std::nullopt;
  return from_cells(cells);
}

std::optional<Board> Board::from_cells(std::string_view cells) {
  if (cells.size() > static_cast<std::size_t>(kMaxCells)) return std::nullopt;
  int size = 0;
  while (size * size < static_cast<int>(cells.size())) ++size;
  if (size * size != static_cast<int>(cells.size())) return std::nullopt;
  Board board(size);
  for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
    switch (cells[i]) {
      case 'X': board.place(i, Player::X); break;
      case 'O': board.place(i, Player::O); break;
      case 'E': break;
      default: return std::nullopt;
    }
  }
  return board;
}

Cell Board::at(int row, int col) const {
  if (!contains(row, col)) {
    throw std::out_of_range("cell (" + std::to_string(row) + ", " + std::to_string(col) +
                            ") is not on a " + std::to_string(size_) + "x" +
                            std::to_string(size_) + " board");
  }
  return at_index(row * size_ + col);
}

std::string Board::to_string() const {
  std::string out(cell_count(), 'E');
  for (int i = 0; i < cell_count(); ++i) {
    if (x_.test(i)) out[i] = 'X';
    if (o_.test(i)) out[i] = 'O';
  }
  return out;
}

void Board::place(int index, Player p) noexcept {
  if (p == Player::X) {
    x_.set(index);
    ++count_x_;
  } else {
    o_.set(index);
    ++count_o_;
  }
}

}  // namespace ttt
