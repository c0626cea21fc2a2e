// Internal: the bitboards of the small boards (N <= 4, at most 16 cells) that
// the exact solver plays on: line masks (whole lines, or every run of k cells
// when the win length k is less than N: 4×4 with k = 3), and the 8 symmetries
// of the square used to give each position one canonical key.
#pragma once

#include <array>
#include <cstdint>

namespace ttt::internal::ai {

// A set of cells of a small board, bit i = row-major cell i.
using Mask16 = std::uint16_t;

// The fixed facts of one small board size.
struct SmallGeometry {
  static constexpr int kMaxSize = 4;
  static constexpr int kSymmetries = 8;
  static constexpr int kMaxCells = kMaxSize * kMaxSize;
  // Runs of three on 4×4: 8 in rows, 8 in columns, 4 on each diagonal direction.
  static constexpr int kMaxLines = 24;

  int size = 0;
  int win_length = 0;
  // Distinct for each (size, win length), so that their keys never meet.
  int id = 0;
  int cells = 0;
  Mask16 full = 0;
  int line_count = 0;
  std::array<Mask16, kMaxLines> lines{};
  // image[s][cell]: where symmetry s sends a cell; preimage is its inverse.
  std::array<std::array<std::uint8_t, kMaxCells>, kSymmetries> image{};
  std::array<std::array<std::uint8_t, kMaxCells>, kSymmetries> preimage{};
  // Symmetry s applied to the low and high byte of a mask.
  std::array<std::array<Mask16, 256>, kSymmetries> low{};
  std::array<std::array<Mask16, 256>, kSymmetries> high{};

  // The image of a set of cells under symmetry s.
  Mask16 transform(int s, Mask16 m) const noexcept {
    return static_cast<Mask16>(low[s][m & 0xff] | high[s][m >> 8]);
  }
};

// The geometry of the size×size board with the given win length (0: the
// size), 1 <= size <= 4, and a win length Board accepts. Built once;
// thread-safe.
const SmallGeometry& small_geometry(int size, int win_length = 0);

// Cells where `me` completes a line at once: a line without an `opp` mark that
// lacks exactly one cell.
Mask16 winning_cells(const SmallGeometry& g, Mask16 me, Mask16 opp) noexcept;

// True iff `me` can still complete some line (one without an `opp` mark).
bool can_still_win(const SmallGeometry& g, Mask16 opp) noexcept;

// A key naming a position and all its mirror images and rotations alike, and
// the symmetry that maps the position onto the canonical one.
struct CanonicalKey {
  std::uint64_t key;
  int symmetry;
};

// The canonical key of `me` to move against `opp`: the least of the 8 images,
// tagged with the geometry's id so that sizes and win lengths never share a
// key. Fits in 35 bits.
CanonicalKey canonical_key(const SmallGeometry& g, Mask16 me, Mask16 opp) noexcept;

}  // namespace ttt::internal::ai
