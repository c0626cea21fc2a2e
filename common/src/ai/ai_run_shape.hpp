// Internal: what one more mark does along one line when k marks in a row win
// (k < N). The answer depends only on the cells around the mark in that
// direction, each the player's own, empty, or blocked (the opponent's or off
// the board), and looks only at the windows of k cells through the mark.
//
// Two rules: freestyle (k or more in a row win: the k-1 cells on each side
// decide) and exact (exactly k win, an overline of k+1 or more does not: the
// k cells on each side decide, since a window flanked by an own mark would
// complete an overline).
#pragma once

#include <cstdint>
#include <memory>

namespace ttt::internal::ai {

// Weakest first. "Win cells" are empty cells that would complete k in a row
// in a window through the new mark.
enum class Shape : std::uint8_t {
  None,       // no window of k through the cell can be completed any more
  One,        // some window through the cell is still open
  Two,        // two more marks can make a four
  OpenTwo,    // one more mark can make an open three
  Three,      // one more mark can make a four (one win cell)
  OpenThree,  // one more mark can make an open four
  Four,       // makes exactly one win cell: the opponent must block it
  OpenFour,   // makes two or more win cells: wins unless the opponent wins first
  Five,       // completes k in a row
};
inline constexpr int kShapeCount = 9;

// The shape worked out from scratch (what the table holds); masks as for
// ShapeTable with the reach k-1 (freestyle) or k (exact).
Shape compute_shape(int k, bool exact, std::uint64_t own, std::uint64_t blocked) noexcept;

// The freestyle shape (compute_shape with exact = false).
inline Shape compute_shape(int k, std::uint64_t own, std::uint64_t blocked) noexcept {
  return compute_shape(k, false, own, blocked);
}

// The largest win length with a precomputed table: 2^(4r) bytes for a reach
// r of k-1 (freestyle) or k (exact): 1 MiB for freestyle k = 6 and exact
// k = 5. Longer ones are worked out on each call.
inline constexpr int kMaxTabledReach = 5;

// The shapes of one win length and rule: shape_of(own, blocked) for the
// neighbours of a cell, each mask holding 2r bits for the reach r: bit i < r
// is the cell r-i steps behind, bit r+i the cell i+1 steps ahead.
// Preconditions: 3 <= k <= 20, (own & blocked) == 0.
class ShapeTable {
 public:
  // The table for k and the rule, built once per process on first use;
  // thread-safe.
  static const ShapeTable& of(int k, bool exact = false);

  Shape shape_of(std::uint64_t own, std::uint64_t blocked) const noexcept {
    if (table_ == nullptr) return compute_shape(k_, exact_, own, blocked);
    return static_cast<Shape>(table_[own | blocked << (2 * reach_)]);
  }

  int win_length() const noexcept { return k_; }
  bool exact() const noexcept { return exact_; }
  // How many cells on each side decide a shape: k-1, or k for the exact rule.
  int reach() const noexcept { return reach_; }

 private:
  ShapeTable(int k, bool exact);

  int k_;
  bool exact_;
  int reach_;
  std::unique_ptr<std::uint8_t[]> table_;  // null when the reach is over kMaxTabledReach
};

}  // namespace ttt::internal::ai
