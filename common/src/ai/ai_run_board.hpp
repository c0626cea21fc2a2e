// Internal: a board for the engine of win lengths k < N (k in a row, up to
// 19×19): for each empty cell, player and direction the Shape one more mark
// would make, kept up to date in O(k) per move, the cells where each player
// wins, makes a four, an open four or an open three, the windows of k cells
// each player can still complete (scored for the evaluation), how many marks
// lie near each cell, and a Zobrist hash of the position.
#pragma once

#include <array>
#include <cstdint>

#include "ai/ai_cell_set.hpp"
#include "ai/ai_run_shape.hpp"
#include "ttt/board.hpp"

namespace ttt::internal::ai {

// The lines of one board size in the four directions of LineKind: rows,
// columns, diagonals (top left to bottom right) and anti-diagonals, each
// listed from its top (for rows: left) end.
struct RunGeometry {
  static constexpr int kMaxLines = 6 * Board::kMaxSize - 2;
  // Line masks keep cell i of a line at bit i + kPad, so that a span of
  // 2(k-1) cells around any cell lies inside 64 bits.
  static constexpr int kPad = 20;

  int size = 0;
  int cells = 0;
  int line_count = 0;
  // The line through a cell in each direction, and the cell's place on it.
  std::array<std::array<std::uint8_t, 4>, Board::kMaxCells> line{};
  std::array<std::array<std::uint8_t, 4>, Board::kMaxCells> place{};
  std::array<std::uint8_t, kMaxLines> length{};
  std::array<std::array<std::uint16_t, Board::kMaxSize>, kMaxLines> line_cells{};
  // The bits of a line mask that are not cells of the line (off the board).
  std::array<std::uint64_t, kMaxLines> outside{};
};

// The geometry of the size×size board, 1 <= size <= Board::kMaxSize. Built
// once; thread-safe.
const RunGeometry& run_geometry(int size);

class RunBoard {
 public:
  // The position of `board` with next_player(board) to move. Preconditions:
  // 3 <= board.win_length(), board.size() >= 1, and nobody has won.
  explicit RunBoard(const Board& board);

  const RunGeometry& geometry() const noexcept { return *g_; }
  int size() const noexcept { return g_->size; }
  int cells() const noexcept { return g_->cells; }
  int win_length() const noexcept { return k_; }
  int empties() const noexcept { return empties_; }
  Player to_move() const noexcept { return to_move_; }
  std::uint64_t hash() const noexcept { return hash_; }

  bool is_empty(int cell) const noexcept { return owner_[cell] == kNobody; }
  bool holds(Player p, int cell) const noexcept { return owner_[cell] == index(p); }

  // What p marking the empty cell makes in direction d (0..3, LineKind order).
  Shape shape(Player p, int cell, int d) const noexcept { return shape_[index(p)][cell][d]; }

  // Empty cells where p completes k in a row at once.
  const CellSet& wins(Player p) const noexcept { return wins_[index(p)]; }
  // Empty cells where p makes at least one win cell (a four; wins excluded).
  const CellSet& fours(Player p) const noexcept { return fours_[index(p)]; }
  // Empty cells where p makes two win cells or more (an open four, or fours
  // in two directions): a win unless the opponent completes a line first.
  const CellSet& open_fours(Player p) const noexcept { return open_fours_[index(p)]; }
  // Empty cells where p makes an open three (one more mark: an open four).
  const CellSet& threes(Player p) const noexcept { return threes_[index(p)]; }

  // How many marks lie within two cells of `cell` (in a 5×5 square).
  int near(int cell) const noexcept { return near_[cell]; }

  // Sum over the windows of k cells still open to p of a weight growing
  // with p's marks in them (see docs/ai.md).
  int window_score(Player p) const noexcept { return score_[index(p)]; }

  // Marks an empty cell for the side to move and passes the turn. True iff
  // the move completes k in a row (undo it before going on).
  bool play(int cell) noexcept;

  // Takes back the last move, which was at `cell`.
  void undo(int cell) noexcept;

  // Gives the turn to the other player without a move (threat analysis:
  // "what if I did nothing"); pass again to take it back.
  void pass() noexcept;

 private:
  static constexpr std::uint8_t kNobody = 2;
  static constexpr int index(Player p) noexcept { return p == Player::X ? 0 : 1; }

  void update_windows(int cell, int p, int sign) noexcept;
  void update_near(int cell, int delta) noexcept;
  void refresh_around(int cell) noexcept;
  // Recomputes both players' shapes at the cell in direction d; true iff one changed.
  bool refresh_shape(int cell, int d) noexcept;
  void refresh_flags(int cell) noexcept;

  const RunGeometry* g_;
  const ShapeTable* table_;
  int k_;
  std::array<int, Board::kMaxSize + 1> weight_{};
  std::array<std::uint8_t, Board::kMaxCells> owner_{};
  std::array<std::uint8_t, Board::kMaxCells> near_{};
  std::array<std::array<std::uint64_t, RunGeometry::kMaxLines>, 2> lines_{};
  std::array<std::array<std::array<std::uint8_t, Board::kMaxSize>, RunGeometry::kMaxLines>, 2>
      window_marks_{};
  std::array<std::array<std::array<Shape, 4>, Board::kMaxCells>, 2> shape_{};
  std::array<CellSet, 2> wins_;
  std::array<CellSet, 2> fours_;
  std::array<CellSet, 2> open_fours_;
  std::array<CellSet, 2> threes_;
  std::array<int, 2> score_{};
  std::uint64_t hash_ = 0;
  int empties_ = 0;
  Player to_move_ = Player::X;
};

}  // namespace ttt::internal::ai
