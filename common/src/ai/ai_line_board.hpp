// Internal: a board of any size up to Board::kMaxSize (20×20) as the heuristic search, the
// threat search and the pairing strategy see it: how many marks each player
// has on each of the 2N+2 lines, kept up to date in O(1) per move, and a
// Zobrist hash of the position.
#pragma once

#include <array>
#include <cstdint>

#include "ttt/board.hpp"

namespace ttt::internal::ai {

// The fixed facts of one board size: which cells each line holds (rows,
// columns, diagonal, anti-diagonal, as in the rules) and which lines pass
// through each cell.
struct LineGeometry {
  static constexpr int kMaxLines = 2 * Board::kMaxSize + 2;

  int size = 0;
  int cells = 0;
  int line_count = 0;
  std::array<std::array<std::uint16_t, Board::kMaxSize>, kMaxLines> line_cells{};
  std::array<std::array<std::uint8_t, 4>, Board::kMaxCells> lines_through{};
  std::array<std::uint8_t, Board::kMaxCells> through_count{};
};

// The geometry of the size×size board, 1 <= size <= Board::kMaxSize. Built
// once; thread-safe.
const LineGeometry& line_geometry(int size);

// Up to one cell per line: the answer of LineBoard::threats().
struct ThreatCells {
  std::array<int, LineGeometry::kMaxLines> cells{};
  int count = 0;
};

class LineBoard {
 public:
  // The position of `board` with next_player(board) to move. Preconditions:
  // 1 <= board.size(), and nobody has completed a line.
  explicit LineBoard(const Board& board);

  const LineGeometry& geometry() const noexcept { return *g_; }
  int size() const noexcept { return g_->size; }
  int cells() const noexcept { return g_->cells; }
  int empties() const noexcept { return empties_; }
  Player to_move() const noexcept { return to_move_; }
  std::uint64_t hash() const noexcept { return hash_; }

  bool is_empty(int cell) const noexcept { return owner_[cell] == kNobody; }
  bool holds(Player p, int cell) const noexcept { return owner_[cell] == index(p); }

  // How many marks p has on a line.
  int count(Player p, int line) const noexcept { return count_[index(p)][line]; }

  // True iff p can still complete the line: it holds no mark of p's opponent.
  bool open_for(Player p, int line) const noexcept { return count_[1 - index(p)][line] == 0; }

  // True iff some line through the empty cell is still open to either player.
  bool live(int cell) const noexcept;

  // True iff some line is still open to either player.
  bool any_line_open() const noexcept;

  // Marks an empty cell for the side to move and passes the turn. True iff the
  // move completes a line (the game is then over; undo it before going on).
  bool play(int cell) noexcept;

  // Takes back the last move, which was at `cell`.
  void undo(int cell) noexcept;

  // The distinct cells where p would complete a line at once, ascending.
  ThreatCells threats(Player p) const noexcept;

  // Writes the empty cells of a line to out; returns how many.
  int empty_cells(int line, int* out) const noexcept;

 private:
  static constexpr std::uint8_t kNobody = 2;
  static constexpr int index(Player p) noexcept { return p == Player::X ? 0 : 1; }

  const LineGeometry* g_;
  std::array<std::uint8_t, Board::kMaxCells> owner_{};
  std::array<std::array<std::uint8_t, LineGeometry::kMaxLines>, 2> count_{};
  std::uint64_t hash_ = 0;
  int empties_ = 0;
  Player to_move_ = Player::X;
};

}  // namespace ttt::internal::ai
