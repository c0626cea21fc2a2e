#include "line_table.hpp"

#include <memory>

namespace ttt::internal {
namespace {

std::vector<LineMask> build_lines(int size) {
  std::vector<LineMask> lines;
  if (size == 0) return lines;
  auto add = [&](Line line) {
    Board::Bits mask;
    for (Move m : line_cells(line, size)) mask.set(m.row * size + m.col);
    lines.push_back({line, mask});
  };
  for (int r = 0; r < size; ++r) add({LineKind::Row, r});
  for (int c = 0; c < size; ++c) add({LineKind::Column, c});
  add({LineKind::Diagonal, 0});
  add({LineKind::AntiDiagonal, 0});
  return lines;
}

constexpr int kSizes = Board::kMaxSize + 1;

// Start cells for every (size, k, direction): about 77 KB, built on first use.
struct RunStartTable {
  std::array<std::array<std::array<Board::Bits, 4>, kSizes>, kSizes> starts;

  RunStartTable() {
    for (int n = 1; n < kSizes; ++n) {
      for (int k = 1; k <= n; ++k) {
        for (int d = 0; d < 4; ++d) {
          const auto [dr, dc] = kDirections[d];
          for (int r = 0; r < n; ++r) {
            for (int c = 0; c < n; ++c) {
              const int er = r + dr * (k - 1);
              const int ec = c + dc * (k - 1);
              if (er < n && ec >= 0 && ec < n) starts[n][k][d].set(r * n + c);
            }
          }
        }
      }
    }
  }
};

}  // namespace

const std::vector<LineMask>& lines_of(int size) {
  static const auto tables = [] {
    std::array<std::vector<LineMask>, Board::kMaxSize + 1> all;
    for (int n = 0; n <= Board::kMaxSize; ++n) all[n] = build_lines(n);
    return all;
  }();
  return tables[size];
}

const Board::Bits& run_starts(int size, int k, LineKind kind) {
  static const auto table = std::make_unique<RunStartTable>();
  return table->starts[size][k][static_cast<int>(kind)];
}

Board::Bits runs_of(const Board::Bits& marks, int size, int k, LineKind kind) noexcept {
  const int step = index_step(kind, size);
  Board::Bits runs = marks & run_starts(size, k, kind);
  // Bit i survives round j iff cell i + j*step is marked too; the start mask
  // keeps every such cell on the board and on the same line.
  for (int j = 1; j < k && runs.any(); ++j) runs &= marks >> (j * step);
  return runs;
}

}  // namespace ttt::internal
