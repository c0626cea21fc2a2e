#include "ai/ai_pairing.hpp"

#include <array>
#include <mutex>

namespace ttt::internal::ai {
namespace {

// Kuhn's augmenting-path matching: each line has two slots, each cell takes
// one slot at most.
class Matcher {
 public:
  Matcher(const LineGeometry& g, const std::vector<int>& lines, const CellSet& available)
      : g_(g), lines_(lines), available_(available) {
    holder_.fill(-1);
  }

  // Matches every slot; returns the line of the first slot that cannot be, or -1.
  int match_all() {
    for (int slot = 0; slot < 2 * static_cast<int>(lines_.size()); ++slot) {
      seen_.reset();
      if (!augment(slot)) return lines_[slot / 2];
    }
    return -1;
  }

  std::vector<CellPair> pairs() const {
    std::vector<CellPair> out;
    for (int line : lines_) out.push_back({line, -1, -1});
    for (int cell = 0; cell < g_.cells; ++cell) {
      if (holder_[cell] < 0) continue;
      CellPair& pair = out[holder_[cell] / 2];
      (pair.first < 0 ? pair.first : pair.second) = cell;
    }
    return out;
  }

 private:
  // Finds a cell for `slot`, moving other slots to other cells if need be.
  bool augment(int slot) {
    const int line = lines_[slot / 2];
    for (int i = 0; i < g_.size; ++i) {
      const int cell = g_.line_cells[line][i];
      if (!available_[cell] || seen_[cell]) continue;
      seen_.set(cell);
      if (holder_[cell] < 0 || augment(holder_[cell])) {
        holder_[cell] = slot;
        return true;
      }
    }
    return false;
  }

  const LineGeometry& g_;
  const std::vector<int>& lines_;
  const CellSet& available_;
  std::array<int, Board::kMaxCells> holder_{};
  CellSet seen_;
};

std::vector<CellPair> build_pairing(int size) {
  if (size < 5) return {};
  const LineGeometry& g = line_geometry(size);
  std::vector<int> lines;
  for (int line = 0; line < g.line_count; ++line) lines.push_back(line);
  CellSet all;
  for (int cell = 0; cell < g.cells; ++cell) all.set(cell);
  auto result = pair_lines(g, lines, all);
  return result.pairs ? *result.pairs : std::vector<CellPair>{};
}

}  // namespace

PairingResult pair_lines(const LineGeometry& g, const std::vector<int>& lines,
                         const CellSet& available) {
  Matcher matcher(g, lines, available);
  const int stuck = matcher.match_all();
  if (stuck >= 0) return {std::nullopt, stuck};
  return {matcher.pairs(), -1};
}

const std::vector<CellPair>& board_pairing(int size) {
  static std::array<std::vector<CellPair>, Board::kMaxSize + 1> pairings;
  static std::array<std::once_flag, Board::kMaxSize + 1> built;
  std::call_once(built[size], [size] { pairings[size] = build_pairing(size); });
  return pairings[size];
}

}  // namespace ttt::internal::ai
