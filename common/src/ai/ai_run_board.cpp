#include "ai/ai_run_board.hpp"

#include <algorithm>
#include <memory>

#include "ai/ai_rng.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

RunGeometry build(int n) {
  RunGeometry g;
  g.size = n;
  g.cells = n * n;
  auto on_board = [n](int r, int c) { return r >= 0 && c >= 0 && r < n && c < n; };
  for (int d = 0; d < 4; ++d) {
    const auto [dr, dc] = kSteps[d];
    for (int cell = 0; cell < g.cells; ++cell) {
      const int r0 = cell / n;
      const int c0 = cell % n;
      if (on_board(r0 - dr, c0 - dc)) continue;  // not the top end of its line
      const int line = g.line_count++;
      int len = 0;
      for (int r = r0, c = c0; on_board(r, c); r += dr, c += dc, ++len) {
        const int at = r * n + c;
        g.line[at][d] = static_cast<std::uint8_t>(line);
        g.place[at][d] = static_cast<std::uint8_t>(len);
        g.line_cells[line][len] = static_cast<std::uint16_t>(at);
      }
      g.length[line] = static_cast<std::uint8_t>(len);
      g.outside[line] = ~(((std::uint64_t{1} << len) - 1) << RunGeometry::kPad);
    }
  }
  return g;
}

// Zobrist keys: one per player and cell, and one for the side to move.
struct ZobristKeys {
  std::array<std::array<std::uint64_t, Board::kMaxCells>, 2> key{};
  std::uint64_t side = mix64(0x51DE);
  constexpr ZobristKeys() {
    for (int p = 0; p < 2; ++p) {
      for (int c = 0; c < Board::kMaxCells; ++c) key[p][c] = mix64(p * 7000003ull + c + 0x7A11);
    }
  }
};
constexpr ZobristKeys kZobrist;

}  // namespace

const RunGeometry& run_geometry(int size) {
  static const auto all = [] {
    auto geometries = std::make_unique<std::array<RunGeometry, Board::kMaxSize + 1>>();
    for (int n = 1; n <= Board::kMaxSize; ++n) (*geometries)[n] = build(n);
    return geometries;
  }();
  return (*all)[size];
}

RunBoard::RunBoard(const Board& board)
    : g_(&run_geometry(board.size())),
      table_(&ShapeTable::of(board.win_length())),
      k_(board.win_length()) {
  // Weights of a window by the marks in it: 0, 1, 8, 64, ..., capped at 2^18
  // so that every sum stays far below the search's win scores.
  for (int marks = 1; marks <= k_; ++marks) weight_[marks] = 1 << std::min(3 * (marks - 1), 18);
  owner_.fill(kNobody);
  empties_ = g_->cells;
  for (int cell = 0; cell < g_->cells; ++cell) {
    for (int d = 0; d < 4; ++d) refresh_shape(cell, d);
    refresh_flags(cell);
  }
  for (int cell = 0; cell < g_->cells; ++cell) {
    const Cell c = board.at_index(cell);
    if (c == Cell::Empty) continue;
    to_move_ = c == Cell::X ? Player::X : Player::O;
    play(cell);
  }
  to_move_ = next_player(board);
  // play() folded in a side-to-move key per mark; fold in the real one.
  hash_ = 0;
  for (int cell = 0; cell < g_->cells; ++cell) {
    if (!is_empty(cell)) hash_ ^= kZobrist.key[owner_[cell]][cell];
  }
  if (to_move_ == Player::O) hash_ ^= kZobrist.side;
}

void RunBoard::update_windows(int cell, int p, int sign) noexcept {
  const int o = 1 - p;
  for (int d = 0; d < 4; ++d) {
    const int line = g_->line[cell][d];
    const int at = g_->place[cell][d];
    const int last_start = std::min(at, g_->length[line] - k_);
    for (int start = std::max(0, at - k_ + 1); start <= last_start; ++start) {
      std::uint8_t& mine = window_marks_[p][line][start];
      const int theirs = window_marks_[o][line][start];
      if (sign > 0) {
        if (theirs == 0) score_[p] += weight_[mine + 1] - weight_[mine];
        if (mine == 0 && theirs > 0) score_[o] -= weight_[theirs];
        ++mine;
      } else {
        --mine;
        if (theirs == 0) score_[p] -= weight_[mine + 1] - weight_[mine];
        if (mine == 0 && theirs > 0) score_[o] += weight_[theirs];
      }
    }
  }
}

void RunBoard::update_near(int cell, int delta) noexcept {
  const int n = g_->size;
  const int r0 = cell / n;
  const int c0 = cell % n;
  for (int r = std::max(0, r0 - 2); r <= std::min(n - 1, r0 + 2); ++r) {
    for (int c = std::max(0, c0 - 2); c <= std::min(n - 1, c0 + 2); ++c) {
      near_[r * n + c] = static_cast<std::uint8_t>(near_[r * n + c] + delta);
    }
  }
}

bool RunBoard::refresh_shape(int cell, int d) noexcept {
  const int line = g_->line[cell][d];
  const int shift = g_->place[cell][d] + RunGeometry::kPad - (k_ - 1);
  const std::uint64_t span = (std::uint64_t{1} << (2 * k_ - 1)) - 1;
  const std::uint32_t low = (std::uint32_t{1} << (k_ - 1)) - 1;
  auto neighbours = [&](std::uint64_t mask) {
    const std::uint64_t x = (mask >> shift) & span;
    return static_cast<std::uint32_t>((x & low) | ((x >> k_) << (k_ - 1)));
  };
  bool changed = false;
  for (int p = 0; p < 2; ++p) {
    const std::uint32_t own = neighbours(lines_[p][line]);
    const std::uint32_t blocked = neighbours(lines_[1 - p][line] | g_->outside[line]);
    const Shape shape = table_->shape_of(own, blocked);
    changed = changed || shape != shape_[p][cell][d];
    shape_[p][cell][d] = shape;
  }
  return changed;
}

void RunBoard::refresh_flags(int cell) noexcept {
  // Each shape's part of four counts packed in nibbles: fives, fours (open
  // or not), open fours, open threes; the sum over the directions counts all.
  static constexpr std::array<std::uint16_t, 9> kTally = {0,      0,      0,      0,     0,
                                                          0x1000, 0x0010, 0x0110, 0x0001};
  for (int p = 0; p < 2; ++p) {
    const auto& s = shape_[p][cell];
    const int tally = owner_[cell] != kNobody
                          ? 0
                          : kTally[static_cast<int>(s[0])] + kTally[static_cast<int>(s[1])] +
                                kTally[static_cast<int>(s[2])] + kTally[static_cast<int>(s[3])];
    const int fives = tally & 0xf;
    const int fours = tally >> 4 & 0xf;
    const int open_fours = tally >> 8 & 0xf;
    const int threes = tally >> 12 & 0xf;
    wins_[p].assign(cell, fives > 0);
    fours_[p].assign(cell, fives == 0 && fours > 0);
    open_fours_[p].assign(cell, fives == 0 && (open_fours > 0 || fours >= 2));
    threes_[p].assign(cell, fives == 0 && fours == 0 && threes > 0);
  }
}

// Recomputes the shapes the mark at `cell` can change: the empty cells within
// k-1 of it along each of its lines, in that line's direction only.
void RunBoard::refresh_around(int cell) noexcept {
  for (int d = 0; d < 4; ++d) {
    const int line = g_->line[cell][d];
    const int at = g_->place[cell][d];
    const int last = std::min<int>(g_->length[line] - 1, at + k_ - 1);
    for (int i = std::max(0, at - k_ + 1); i <= last; ++i) {
      const int other = g_->line_cells[line][i];
      if (other == cell || owner_[other] != kNobody) continue;
      if (refresh_shape(other, d)) refresh_flags(other);
    }
  }
  if (owner_[cell] == kNobody) {
    for (int d = 0; d < 4; ++d) refresh_shape(cell, d);
  } else {
    for (int p = 0; p < 2; ++p) shape_[p][cell].fill(Shape::None);
  }
  refresh_flags(cell);
}

bool RunBoard::play(int cell) noexcept {
  const int p = index(to_move_);
  const bool won = wins_[p].test(cell);
  update_windows(cell, p, +1);
  owner_[cell] = static_cast<std::uint8_t>(p);
  for (int d = 0; d < 4; ++d) {
    lines_[p][g_->line[cell][d]] |= std::uint64_t{1} << (g_->place[cell][d] + RunGeometry::kPad);
  }
  update_near(cell, +1);
  refresh_around(cell);
  hash_ ^= kZobrist.key[p][cell] ^ kZobrist.side;
  --empties_;
  to_move_ = opponent(to_move_);
  return won;
}

void RunBoard::undo(int cell) noexcept {
  to_move_ = opponent(to_move_);
  const int p = index(to_move_);
  owner_[cell] = kNobody;
  for (int d = 0; d < 4; ++d) {
    lines_[p][g_->line[cell][d]] &= ~(std::uint64_t{1} << (g_->place[cell][d] + RunGeometry::kPad));
  }
  update_windows(cell, p, -1);
  update_near(cell, -1);
  refresh_around(cell);
  hash_ ^= kZobrist.key[p][cell] ^ kZobrist.side;
  ++empties_;
}

void RunBoard::pass() noexcept {
  to_move_ = opponent(to_move_);
  hash_ ^= kZobrist.side;
}

}  // namespace ttt::internal::ai
