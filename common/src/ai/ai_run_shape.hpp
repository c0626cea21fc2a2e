// Internal: what one more mark does along one line when k marks in a row win
// (k < N). The answer depends only on the 2(k-1) cells around the mark in that
// direction, each the player's own, empty, or blocked (the opponent's or off
// the board), and looks only at the windows of k cells through the mark.
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

// The largest win length with a precomputed table (2^(4k-4) bytes: 1 MiB for
// k = 6); longer ones are worked out on each call.
inline constexpr int kMaxTabledWinLength = 6;

// The shapes of one win length: shape_of(own, blocked) for the neighbours of
// a cell, each mask holding 2(k-1) bits: bit i < k-1 is the cell k-1-i steps
// behind, bit k-1+i the cell i+1 steps ahead. Preconditions:
// 3 <= k <= Board::kMaxSize, (own & blocked) == 0.
class ShapeTable {
 public:
  // The table for k, built once per process on first use; thread-safe.
  static const ShapeTable& of(int k);

  Shape shape_of(std::uint32_t own, std::uint32_t blocked) const noexcept;

  int win_length() const noexcept { return k_; }

 private:
  explicit ShapeTable(int k);

  int k_;
  std::unique_ptr<std::uint8_t[]> table_;  // null when k > kMaxTabledWinLength
};

// The shape worked out from scratch (what the table holds).
Shape compute_shape(int k, std::uint32_t own, std::uint32_t blocked) noexcept;

}  // namespace ttt::internal::ai
