// The board: an N×N grid of X, O and empty cells, stored row-major as in the
// origin documents ('(E E E E X E E E E) is a 3×3 board with X in the centre),
// and the win length k of the game played on it: k = N is the origin's rule
// (a whole row, column or main diagonal wins); with 3 <= k < N any k
// consecutive marks in a row, column or diagonal win (five in a row on 15×15).
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ttt {

// The two players. X always moves first.
enum class Player { X, O };

// What a cell holds.
enum class Cell { Empty, X, O };

// A cell position: row and column from 0, (0, 0) top left.
struct Move {
  int row;
  int col;
  friend bool operator==(const Move&, const Move&) = default;
};

// The other player.
constexpr Player opponent(Player p) noexcept { return p == Player::X ? Player::O : Player::X; }

// The cell a player's mark fills.
constexpr Cell cell_of(Player p) noexcept { return p == Player::X ? Cell::X : Cell::O; }

// "X" or "O".
std::string_view to_string(Player p) noexcept;

// An N×N board with win length k, 0 <= N <= Board::kMaxSize. A value type:
// cheap to copy (no heap), comparable (cells and k), and every query is O(1)
// or O(lines).
class Board {
 public:
  static constexpr int kMaxSize = 20;
  static constexpr int kMaxCells = kMaxSize * kMaxSize;
  // The shortest win length other than the board size.
  static constexpr int kMinWinLength = 3;
  using Bits = std::bitset<kMaxCells>;

  // True iff a size×size board can be played with win length k: k = size, or
  // kMinWinLength <= k < size. (0 is not a win length; constructors read it as
  // "the size".)
  static bool valid_win_length(int size, int win_length) noexcept;

  // An empty size×size board whose games are won by win_length marks in a
  // line; 0 means size (the origin's whole-line rule). Throws
  // std::invalid_argument unless 0 <= size <= kMaxSize and the win length is
  // 0 or valid_win_length(size, win_length).
  explicit Board(int size, int win_length = 0);

  // The board a row-major X/O/E string describes, or nullopt unless
  // is_board(cells) holds and the size is at most kMaxSize. The origin's
  // board?: win length 0 (the size) unless another is given; an invalid win
  // length for the size gives nullopt.
  static std::optional<Board> parse(std::string_view cells, int win_length = 0);

  // Any arrangement of marks: a square X/O/E string of side <= kMaxSize,
  // without the turn-order check of is_board (for positions that can't arise
  // in play, such as the origin's 4×4 winner? example). nullopt otherwise, as
  // for parse.
  static std::optional<Board> from_cells(std::string_view cells, int win_length = 0);

  int size() const noexcept { return size_; }
  int cell_count() const noexcept { return size_ * size_; }

  // How many marks in a line win: the size for the origin's rule, else k.
  int win_length() const noexcept { return win_length_; }

  // True iff the game is the origin's: only whole lines win (k = N).
  bool whole_lines() const noexcept { return win_length_ == size_; }

  // True iff (row, col) lies on the board. Any int is answered.
  bool contains(int row, int col) const noexcept {
    return row >= 0 && col >= 0 && row < size_ && col < size_;
  }

  // The cell at (row, col). Throws std::out_of_range unless contains(row, col).
  Cell at(int row, int col) const;

  // The cell at a row-major index; precondition 0 <= index < cell_count().
  Cell at_index(int index) const noexcept {
    return x_.test(index) ? Cell::X : o_.test(index) ? Cell::O : Cell::Empty;
  }

  // How many marks a player has on the board.
  int count(Player p) const noexcept { return p == Player::X ? count_x_ : count_o_; }

  // True iff no cell is empty.
  bool full() const noexcept { return count_x_ + count_o_ == cell_count(); }

  // The cells a player holds, bit i = row-major index i.
  const Bits& marks(Player p) const noexcept { return p == Player::X ? x_ : o_; }

  // The row-major X/O/E string, e.g. "EEEEXEEEE".
  std::string to_string() const;

  // Puts p's mark on the empty cell at index. Precondition: the cell is on the
  // board and empty (unchecked; use make_move or Game for checked moves).
  void place(int index, Player p) noexcept;

  friend bool operator==(const Board&, const Board&) = default;

 private:
  Bits x_;
  Bits o_;
  std::int16_t size_ = 0;
  std::int16_t win_length_ = 0;
  std::int16_t count_x_ = 0;
  std::int16_t count_o_ = 0;
};

}  // namespace ttt
