#include "ttt/board.hpp"

#include <stdexcept>

#include "ttt/rules.hpp"

namespace ttt {

std::string_view to_string(Player p) noexcept { return p == Player::X ? "X" : "O"; }

bool Board::valid_win_length(int size, int win_length) noexcept {
  return win_length == size || (win_length >= kMinWinLength && win_length < size);
}

Board::Board(int size, int win_length) {
  if (size < 0 || size > kMaxSize) {
    throw std::invalid_argument("board size must be 0.." + std::to_string(kMaxSize) + ", got " +
                                std::to_string(size));
  }
  if (win_length != 0 && !valid_win_length(size, win_length)) {
    throw std::invalid_argument("win length on a " + std::to_string(size) + "x" +
                                std::to_string(size) + " board must be " +
                                (size > kMinWinLength ? std::to_string(kMinWinLength) + ".." : "") +
                                std::to_string(size) + ", got " + std::to_string(win_length));
  }
  size_ = static_cast<std::int16_t>(size);
  win_length_ = static_cast<std::int16_t>(win_length == 0 ? size : win_length);
}

std::optional<Board> Board::parse(std::string_view cells, int win_length) {
  if (!is_board(cells)) return std::nullopt;
  return from_cells(cells, win_length);
}

std::optional<Board> Board::from_cells(std::string_view cells, int win_length) {
  if (cells.size() > static_cast<std::size_t>(kMaxCells)) return std::nullopt;
  int size = 0;
  while (size * size < static_cast<int>(cells.size())) ++size;
  if (size * size != static_cast<int>(cells.size())) return std::nullopt;
  if (win_length != 0 && !valid_win_length(size, win_length)) return std::nullopt;
  Board board(size, win_length);
  for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
    switch (cells[i]) {
      case 'X':
        board.place(i, Player::X);
        break;
      case 'O':
        board.place(i, Player::O);
        break;
      case 'E':
        break;
      default:
        return std::nullopt;
    }
  }
  return board;
}

Cell Board::at(int row, int col) const {
  if (!contains(row, col)) {
    throw std::out_of_range("cell (" + std::to_string(row) + ", " + std::to_string(col) +
                            ") is not on a " + std::to_string(size_) + "x" + std::to_string(size_) +
                            " board");
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
