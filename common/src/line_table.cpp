#include "line_table.hpp"

#include <array>

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

}  // namespace

const std::vector<LineMask>& lines_of(int size) {
  static const auto tables = [] {
    std::array<std::vector<LineMask>, Board::kMaxSize + 1> all;
    for (int n = 0; n <= Board::kMaxSize; ++n) all[n] = build_lines(n);
    return all;
  }();
  return tables[size];
}

}  // namespace ttt::internal
