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
  for (int cell = 0; cell < g.cells; ++cell) {
    for (int r = cell / n - 2; r <= cell / n + 2; ++r) {
      for (int c = cell % n - 2; c <= cell % n + 2; ++c) {
        if (on_board(r, c)) g.around[cell].set(r * n + c);
      }
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

bool is_three(Threat t) noexcept {
  return t == Threat::OpenThree || t == Threat::OpenThreePlus || t == Threat::DoubleThree;
}
bool is_four(Threat t) noexcept { return t >= Threat::Four && t <= Threat::OpenFour; }

}  // namespace

const RunGeometry& run_geometry(int size) {
  static const auto all = [] {
    auto geometries = std::make_unique<std::array<RunGeometry, Board::kMaxSize + 1>>();
    for (int n = 1; n <= Board::kMaxSize; ++n) (*geometries)[n] = build(n);
    return geometries;
  }();
  return (*all)[size];
}

RunBoard::RunBoard(const Board& board, bool exact)
    : g_(&run_geometry(board.size())),
      table_(&ShapeTable::of(board.win_length(), exact)),
      k_(board.win_length()),
      reach_(table_->reach()) {
  owner_.fill(kNobody);
  empties_ = g_->cells;
  // Every code starts at 0: Threat::None.
  totals_.counts[0][0] = totals_.counts[1][0] = g_->cells;
  for (int cell = 0; cell < g_->cells; ++cell) {
    for (int d = 0; d < 4; ++d) refresh_shape(cell, d);
    refresh_code(cell);
  }
  for (int cell = 0; cell < g_->cells; ++cell) {
    const Cell c = board.at_index(cell);
    if (c == Cell::Empty) continue;
    to_move_ = c == Cell::X ? Player::X : Player::O;
    play(cell);
  }
  // The position is where undoing stops.
  undos_.clear();
  saved_.clear();
  to_move_ = next_player(board);
  // play() folded in a side-to-move key per mark; fold in the real one.
  hash_ = 0;
  for (int cell = 0; cell < g_->cells; ++cell) {
    if (!is_empty(cell)) hash_ ^= kZobrist.key[owner_[cell]][cell];
  }
  if (to_move_ == Player::O) hash_ ^= kZobrist.side;
}

CellSet RunBoard::defences() const {
  const int them = 1 - index(to_move_);
  CellSet region = totals_.fours[them];
  totals_.open_fours[them].for_each([&](int t) {
    CellSet near;
    near.set(t);
    for (int d = 0; d < 4; ++d) {
      if (shape_[them][t][d] < Shape::Four) continue;
      const int line = g_->line[t][d];
      const int at = g_->place[t][d];
      const int last = std::min<int>(g_->length[line] - 1, at + reach_);
      for (int i = std::max(0, at - reach_); i <= last; ++i) near.set(g_->line_cells[line][i]);
    }
    region.keep(near);
  });
  return region |= totals_.fours[1 - them];
}

void RunBoard::save(int cell) {
  SavedCell& s = saved_.emplace_back();
  s.shape[0] = shape_[0][cell];
  s.shape[1] = shape_[1][cell];
  s.code[0] = code_[0][cell];
  s.code[1] = code_[1][cell];
  s.cell = static_cast<std::uint16_t>(cell);
}

bool RunBoard::refresh_shape(int cell, int d) {
  const int line = g_->line[cell][d];
  const int shift = g_->place[cell][d] + RunGeometry::kPad - reach_;
  const std::uint64_t span = (std::uint64_t{1} << (2 * reach_ + 1)) - 1;
  const std::uint64_t low = (std::uint64_t{1} << reach_) - 1;
  auto neighbours = [&](std::uint64_t mask) {
    const std::uint64_t x = (mask >> shift) & span;
    return (x & low) | ((x >> (reach_ + 1)) << reach_);
  };
  const std::uint64_t xs = neighbours(lines_[0][line]);
  const std::uint64_t os = neighbours(lines_[1][line]);
  const std::uint64_t outside = neighbours(g_->outside[line]);
  const Shape x = table_->shape_of(xs, os | outside);
  const Shape o = table_->shape_of(os, xs | outside);
  if (x == shape_[0][cell][d] && o == shape_[1][cell][d]) return false;
  if (!undos_.empty()) save(cell);
  shape_[0][cell][d] = x;
  shape_[1][cell][d] = o;
  return true;
}

void RunBoard::set_code(int p, int cell, int code) noexcept {
  const int old = code_[p][cell];
  if (old == code) return;
  const PatternTables& t = pattern_tables();
  code_[p][cell] = static_cast<std::uint16_t>(code);
  totals_.mover_sum[p] += t.mover[code] - t.mover[old];
  totals_.waiter_sum[p] += t.waiter[code] - t.waiter[old];
  const Threat before = t.threat[old];
  const Threat after = t.threat[code];
  if (before == after) return;
  --totals_.counts[p][static_cast<int>(before)];
  ++totals_.counts[p][static_cast<int>(after)];
  if (before == Threat::Five || after == Threat::Five) {
    totals_.wins[p].assign(cell, after == Threat::Five);
  }
  if (is_four(before) || is_four(after)) totals_.fours[p].assign(cell, is_four(after));
  if (before == Threat::OpenFour || after == Threat::OpenFour) {
    totals_.open_fours[p].assign(cell, after == Threat::OpenFour);
  }
  if (is_three(before) || is_three(after)) totals_.threes[p].assign(cell, is_three(after));
}

void RunBoard::refresh_code(int cell) noexcept {
  for (int p = 0; p < 2; ++p) {
    const auto& s = shape_[p][cell];
    set_code(p, cell, owner_[cell] != kNobody ? 0 : pattern_code(s[0], s[1], s[2], s[3]));
  }
}

// Recomputes the shapes the mark at `cell` can change: the empty cells within
// the reach of it along each of its lines, in that line's direction only.
void RunBoard::refresh_around(int cell) {
  for (int d = 0; d < 4; ++d) {
    const int line = g_->line[cell][d];
    const int at = g_->place[cell][d];
    const int last = std::min<int>(g_->length[line] - 1, at + reach_);
    for (int i = std::max(0, at - reach_); i <= last; ++i) {
      const int other = g_->line_cells[line][i];
      if (owner_[other] != kNobody) continue;
      if (refresh_shape(other, d)) refresh_code(other);
    }
  }
}

bool RunBoard::play(int cell) {
  const int p = index(to_move_);
  const bool won = totals_.wins[p].test(cell);
  undos_.push_back({totals_, static_cast<std::uint32_t>(saved_.size())});
  save(cell);
  owner_[cell] = static_cast<std::uint8_t>(p);
  taken_.set(cell);
  for (int d = 0; d < 4; ++d) {
    lines_[p][g_->line[cell][d]] |= std::uint64_t{1} << (g_->place[cell][d] + RunGeometry::kPad);
  }
  for (int q = 0; q < 2; ++q) shape_[q][cell].fill(Shape::None);
  refresh_code(cell);
  refresh_around(cell);
  totals_.candidates |= g_->around[cell];
  totals_.candidates.remove(taken_);
  hash_ ^= kZobrist.key[p][cell] ^ kZobrist.side;
  --empties_;
  to_move_ = opponent(to_move_);
  return won;
}

void RunBoard::undo(int cell) noexcept {
  to_move_ = opponent(to_move_);
  const int p = index(to_move_);
  owner_[cell] = kNobody;
  taken_.reset(cell);
  for (int d = 0; d < 4; ++d) {
    lines_[p][g_->line[cell][d]] &= ~(std::uint64_t{1} << (g_->place[cell][d] + RunGeometry::kPad));
  }
  const Undo& undo = undos_.back();
  for (std::size_t i = saved_.size(); i-- > undo.first;) {
    const SavedCell& s = saved_[i];
    for (int q = 0; q < 2; ++q) {
      code_[q][s.cell] = s.code[q];
      shape_[q][s.cell] = s.shape[q];
    }
  }
  saved_.resize(undo.first);
  totals_ = undo.totals;
  undos_.pop_back();
  hash_ ^= kZobrist.key[p][cell] ^ kZobrist.side;
  ++empties_;
}

std::uint64_t RunBoard::hash_after(int cell) const noexcept {
  return hash_ ^ kZobrist.key[index(to_move_)][cell] ^ kZobrist.side;
}

void RunBoard::pass() noexcept {
  to_move_ = opponent(to_move_);
  hash_ ^= kZobrist.side;
}

}  // namespace ttt::internal::ai
