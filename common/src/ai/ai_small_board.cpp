#include "ai/ai_small_board.hpp"

#include <bit>

namespace ttt::internal::ai {
namespace {

// (row, col) under symmetry s of an n×n square: the 4 rotations, then the same
// after a transpose.
std::array<int, 2> apply_symmetry(int s, int n, int row, int col) {
  const int m = n - 1;
  if (s >= 4) std::swap(row, col);
  switch (s % 4) {
    case 1:
      return {col, m - row};
    case 2:
      return {m - row, m - col};
    case 3:
      return {m - col, row};
    default:
      return {row, col};
  }
}

void add_lines(SmallGeometry& g) {
  const int n = g.size;
  const int k = g.win_length;
  constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  // Every run of k cells, in the order rows, columns, diagonal, anti-diagonal
  // (for k = n: the whole lines, as in the rules).
  for (const auto& [dr, dc] : kSteps) {
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const int er = r + dr * (k - 1);
        const int ec = c + dc * (k - 1);
        if (er >= n || ec < 0 || ec >= n) continue;
        Mask16 line = 0;
        for (int i = 0; i < k; ++i)
          line |= static_cast<Mask16>(1u << ((r + dr * i) * n + c + dc * i));
        g.lines[g.line_count++] = line;
      }
    }
  }
}

void add_symmetries(SmallGeometry& g) {
  const int n = g.size;
  for (int s = 0; s < SmallGeometry::kSymmetries; ++s) {
    for (int cell = 0; cell < g.cells; ++cell) {
      const auto [row, col] = apply_symmetry(s, n, cell / n, cell % n);
      g.image[s][cell] = static_cast<std::uint8_t>(row * n + col);
      g.preimage[s][row * n + col] = static_cast<std::uint8_t>(cell);
    }
    for (int byte = 0; byte < 256; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        if (!(byte & (1 << bit))) continue;
        if (bit < g.cells) g.low[s][byte] |= static_cast<Mask16>(1u << g.image[s][bit]);
        if (bit + 8 < g.cells) g.high[s][byte] |= static_cast<Mask16>(1u << g.image[s][bit + 8]);
      }
    }
  }
}

SmallGeometry build(int size, int win_length, int id) {
  SmallGeometry g;
  g.size = size;
  g.win_length = win_length;
  g.id = id;
  g.cells = size * size;
  g.full = static_cast<Mask16>((1u << g.cells) - 1);
  add_lines(g);
  add_symmetries(g);
  return g;
}

}  // namespace

const SmallGeometry& small_geometry(int size, int win_length) {
  // Whole lines on 1×1 .. 4×4, then 4×4 with k = 3: the only k < N that fits.
  static const std::array<SmallGeometry, SmallGeometry::kMaxSize + 1> all = {
      build(1, 1, 1), build(2, 2, 2), build(3, 3, 3), build(4, 4, 4), build(4, 3, 5)};
  if (win_length != 0 && win_length != size) return all[SmallGeometry::kMaxSize];
  return all[size - 1];
}

Mask16 winning_cells(const SmallGeometry& g, Mask16 me, Mask16 opp) noexcept {
  Mask16 cells = 0;
  for (int i = 0; i < g.line_count; ++i) {
    const Mask16 line = g.lines[i];
    const Mask16 missing = static_cast<Mask16>(line & ~me);
    if ((line & opp) == 0 && std::popcount(missing) == 1) cells |= missing;
  }
  return cells;
}

bool can_still_win(const SmallGeometry& g, Mask16 opp) noexcept {
  for (int i = 0; i < g.line_count; ++i) {
    if ((g.lines[i] & opp) == 0) return true;
  }
  return false;
}

CanonicalKey canonical_key(const SmallGeometry& g, Mask16 me, Mask16 opp) noexcept {
  const std::uint64_t tag = static_cast<std::uint64_t>(g.id) << 32;
  CanonicalKey best{~std::uint64_t{0}, 0};
  for (int s = 0; s < SmallGeometry::kSymmetries; ++s) {
    const std::uint64_t key =
        tag | g.transform(s, me) | (static_cast<std::uint64_t>(g.transform(s, opp)) << 16);
    if (key < best.key) best = {key, s};
  }
  return best;
}

}  // namespace ttt::internal::ai
