#include "ai/ai_line_board.hpp"

#include <algorithm>

#include "ai/ai_rng.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

LineGeometry build(int size) {
  LineGeometry g;
  g.size = size;
  g.cells = size * size;
  auto add = [&g, size](auto cell_at) {
    const int line = g.line_count++;
    for (int i = 0; i < size; ++i) {
      const int cell = cell_at(i);
      g.line_cells[line][i] = static_cast<std::uint16_t>(cell);
      g.lines_through[cell][g.through_count[cell]++] = static_cast<std::uint8_t>(line);
    }
  };
  for (int r = 0; r < size; ++r) add([=](int i) { return r * size + i; });
  for (int c = 0; c < size; ++c) add([=](int i) { return i * size + c; });
  add([=](int i) { return i * size + i; });
  add([=](int i) { return i * size + size - 1 - i; });
  return g;
}

// Zobrist keys: one per player and cell, the same in every process.
struct ZobristKeys {
  std::array<std::array<std::uint64_t, Board::kMaxCells>, 2> key{};
  constexpr ZobristKeys() {
    for (int p = 0; p < 2; ++p) {
      for (int c = 0; c < Board::kMaxCells; ++c) key[p][c] = mix64(p * 1000003ull + c + 1);
    }
  }
};
constexpr ZobristKeys kZobrist;

}  // namespace

const LineGeometry& line_geometry(int size) {
  static const auto all = [] {
    std::array<LineGeometry, Board::kMaxSize + 1> geometries;
    for (int n = 1; n <= Board::kMaxSize; ++n) geometries[n] = build(n);
    return geometries;
  }();
  return all[size];
}

LineBoard::LineBoard(const Board& board) : g_(&line_geometry(board.size())) {
  owner_.fill(kNobody);
  empties_ = g_->cells;
  for (int cell = 0; cell < g_->cells; ++cell) {
    const Cell c = board.at_index(cell);
    if (c == Cell::Empty) continue;
    to_move_ = c == Cell::X ? Player::X : Player::O;
    play(cell);
  }
  to_move_ = next_player(board);
}

bool LineBoard::live(int cell) const noexcept {
  for (int i = 0; i < g_->through_count[cell]; ++i) {
    const int line = g_->lines_through[cell][i];
    if (count_[0][line] == 0 || count_[1][line] == 0) return true;
  }
  return false;
}

bool LineBoard::any_line_open() const noexcept {
  for (int line = 0; line < g_->line_count; ++line) {
    if (count_[0][line] == 0 || count_[1][line] == 0) return true;
  }
  return false;
}

bool LineBoard::play(int cell) noexcept {
  const int p = index(to_move_);
  owner_[cell] = static_cast<std::uint8_t>(p);
  hash_ ^= kZobrist.key[p][cell];
  --empties_;
  bool won = false;
  for (int i = 0; i < g_->through_count[cell]; ++i) {
    const int line = g_->lines_through[cell][i];
    won = ++count_[p][line] == g_->size || won;
  }
  to_move_ = opponent(to_move_);
  return won;
}

void LineBoard::undo(int cell) noexcept {
  to_move_ = opponent(to_move_);
  const int p = index(to_move_);
  owner_[cell] = kNobody;
  hash_ ^= kZobrist.key[p][cell];
  ++empties_;
  for (int i = 0; i < g_->through_count[cell]; ++i) --count_[p][g_->lines_through[cell][i]];
}

ThreatCells LineBoard::threats(Player p) const noexcept {
  ThreatCells out;
  const int me = index(p);
  for (int line = 0; line < g_->line_count; ++line) {
    if (count_[me][line] != g_->size - 1 || count_[1 - me][line] != 0) continue;
    int cell = -1;
    empty_cells(line, &cell);
    if (std::find(out.cells.begin(), out.cells.begin() + out.count, cell) ==
        out.cells.begin() + out.count) {
      out.cells[out.count++] = cell;
    }
  }
  std::sort(out.cells.begin(), out.cells.begin() + out.count);
  return out;
}

int LineBoard::empty_cells(int line, int* out) const noexcept {
  int n = 0;
  for (int i = 0; i < g_->size; ++i) {
    const int cell = g_->line_cells[line][i];
    if (owner_[cell] == kNobody) out[n++] = cell;
  }
  return n;
}

}  // namespace ttt::internal::ai
