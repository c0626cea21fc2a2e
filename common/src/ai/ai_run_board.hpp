// Internal: a board for the engine of win lengths k < N (k in a row, up to
// Board::kMaxSize): for each empty cell, player and direction the Shape one
// more mark would make, kept up to date in O(k) per move, and from those the
// cell's pattern code and threat class (ai_run_pattern.hpp), how many cells
// of each class each player has, the cells where each player wins, makes a
// four, an open four or an open three, the evaluation's sums, the empty
// cells near the marks, and a Zobrist hash of the position. The rule is
// freestyle (k or more in a row win) or exact (exactly k win). A move saves
// what it changes, and its undo puts that back.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ai/ai_cell_set.hpp"
#include "ai/ai_run_pattern.hpp"
#include "ai/ai_run_shape.hpp"
#include "ttt/board.hpp"

namespace ttt::internal::ai {

// The lines of one board size in the four directions of LineKind: rows,
// columns, diagonals (top left to bottom right) and anti-diagonals, each
// listed from its top (for rows: left) end.
struct RunGeometry {
  static constexpr int kMaxLines = 6 * Board::kMaxSize - 2;
  // Line masks keep cell i of a line at bit i + kPad, so that the k cells on
  // each side of any cell lie inside 64 bits.
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
  // The cells within two of each cell (a 5×5 square), the cell included.
  std::array<CellSet, Board::kMaxCells> around{};
};

// The geometry of the size×size board, 1 <= size <= Board::kMaxSize. Built
// once; thread-safe.
const RunGeometry& run_geometry(int size);

class RunBoard {
 public:
  // The position of `board` with next_player(board) to move, under the
  // freestyle rule or (exact) the rule that exactly k in a row win.
  // Preconditions: 3 <= board.win_length(), board.size() >= 1, and nobody has
  // won (by the rule).
  explicit RunBoard(const Board& board, bool exact = false);

  const RunGeometry& geometry() const noexcept { return *g_; }
  int size() const noexcept { return g_->size; }
  int cells() const noexcept { return g_->cells; }
  int win_length() const noexcept { return k_; }
  bool exact() const noexcept { return table_->exact(); }
  int empties() const noexcept { return empties_; }
  Player to_move() const noexcept { return to_move_; }
  std::uint64_t hash() const noexcept { return hash_; }
  // The hash after the side to move marks the empty cell, without playing it.
  std::uint64_t hash_after(int cell) const noexcept;

  bool is_empty(int cell) const noexcept { return owner_[cell] == kNobody; }
  bool holds(Player p, int cell) const noexcept { return owner_[cell] == index(p); }

  // What p marking the empty cell makes in direction d (0..3, LineKind order).
  Shape shape(Player p, int cell, int d) const noexcept { return shape_[index(p)][cell][d]; }
  // The pattern code of p at the cell (0 for a taken cell).
  int code(Player p, int cell) const noexcept { return code_[index(p)][cell]; }
  // The threat class of p at the cell (None for a taken cell).
  Threat threat(Player p, int cell) const noexcept {
    return pattern_tables().threat[code_[index(p)][cell]];
  }
  // How many empty cells have threat class t for p.
  int threat_count(Player p, Threat t) const noexcept {
    return totals_.counts[index(p)][static_cast<int>(t)];
  }

  // Empty cells where p completes a win at once.
  const CellSet& wins(Player p) const noexcept { return totals_.wins[index(p)]; }
  // Empty cells where p makes at least one win cell (a four; wins excluded).
  const CellSet& fours(Player p) const noexcept { return totals_.fours[index(p)]; }
  // Empty cells where p makes two win cells or more (an open four, or fours
  // in two directions): a win unless the opponent completes a line first.
  const CellSet& open_fours(Player p) const noexcept { return totals_.open_fours[index(p)]; }
  // Empty cells where p makes an open three and no four.
  const CellSet& threes(Player p) const noexcept { return totals_.threes[index(p)]; }
  // Empty cells within two cells of a mark (in a 5×5 square).
  const CellSet& candidates() const noexcept { return totals_.candidates; }

  // The moves that can keep the opponent, who has an open-four cell, from
  // making an open four: the side to move's fours, and those cells where the
  // opponent makes a four that lie, for every open-four cell of it, on one
  // of that cell's four-making lines within the reach of it (or are it). Any
  // other move loses to an open four (docs/ai.md). Precondition: the
  // opponent has an open-four cell.
  CellSet defences() const;

  // Sums over the empty cells of p's pattern worth (PatternTables::mover
  // and ::waiter).
  int mover_sum(Player p) const noexcept { return totals_.mover_sum[index(p)]; }
  int waiter_sum(Player p) const noexcept { return totals_.waiter_sum[index(p)]; }
  // The same before the last move played on this board (now if none).
  int previous_mover_sum(Player p) const noexcept {
    return (undos_.empty() ? totals_ : undos_.back().totals).mover_sum[index(p)];
  }
  int previous_waiter_sum(Player p) const noexcept {
    return (undos_.empty() ? totals_ : undos_.back().totals).waiter_sum[index(p)];
  }

  // Marks an empty cell for the side to move and passes the turn. True iff
  // the move completes a win (undo it before going on).
  bool play(int cell);

  // Takes back the last move played on this board (not on a board it was
  // copied from), which was at `cell`.
  void undo(int cell) noexcept;

  // Gives the turn to the other player without a move (threat analysis:
  // "what if I did nothing"); pass again to take it back.
  void pass() noexcept;

 private:
  static constexpr std::uint8_t kNobody = 2;
  static constexpr int index(Player p) noexcept { return p == Player::X ? 0 : 1; }

  // What the cells' facts add up to.
  struct Totals {
    std::array<std::array<int, kThreatCount>, 2> counts{};
    std::array<CellSet, 2> wins;
    std::array<CellSet, 2> fours;
    std::array<CellSet, 2> open_fours;
    std::array<CellSet, 2> threes;
    CellSet candidates;
    std::array<int, 2> mover_sum{};
    std::array<int, 2> waiter_sum{};
  };
  // One cell's facts before a move changed them.
  struct alignas(16) SavedCell {
    std::array<std::array<Shape, 4>, 2> shape;
    std::array<std::uint16_t, 2> code;
    std::uint16_t cell;
  };
  // What undoing a move restores: the totals, and the cells from `first` on
  // in saved_.
  struct Undo {
    Totals totals;
    std::uint32_t first;
  };

  void save(int cell);
  void refresh_around(int cell);
  // Recomputes both players' shapes at the empty cell in direction d, saving
  // the cell first when one changes; true iff one did.
  bool refresh_shape(int cell, int d);
  void refresh_code(int cell) noexcept;
  void set_code(int p, int cell, int code) noexcept;

  const RunGeometry* g_;
  const ShapeTable* table_;
  int k_;
  int reach_;
  std::array<std::uint8_t, Board::kMaxCells> owner_{};
  CellSet taken_;
  std::array<std::array<std::uint64_t, RunGeometry::kMaxLines>, 2> lines_{};
  std::array<std::array<std::array<Shape, 4>, Board::kMaxCells>, 2> shape_{};
  std::array<std::array<std::uint16_t, Board::kMaxCells>, 2> code_{};
  Totals totals_;
  std::vector<Undo> undos_;
  std::vector<SavedCell> saved_;
  std::uint64_t hash_ = 0;
  int empties_ = 0;
  Player to_move_ = Player::X;
};

}  // namespace ttt::internal::ai
