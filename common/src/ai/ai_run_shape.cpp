#include "ai/ai_run_shape.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <mutex>

#include "ttt/board.hpp"

namespace ttt::internal::ai {
namespace {

// The 2k-1 cells around and including the mark, the mark at bit k-1.
struct Span {
  int k;
  std::uint64_t blocked;  // including the mark's own bit: never
  std::uint64_t window(int start) const noexcept { return ((std::uint64_t{1} << k) - 1) << start; }

  // The win cells of `own`: cells completing a free window through the mark.
  std::uint64_t win_cells(std::uint64_t own) const noexcept {
    std::uint64_t cells = 0;
    for (int s = 0; s < k; ++s) {
      const std::uint64_t w = window(s);
      if ((w & blocked) == 0 && std::popcount(w & own) == k - 1) cells |= w & ~own;
    }
    return cells;
  }

  // The most marks of `own` in a free window through the mark (-1: none free).
  int most_marks(std::uint64_t own) const noexcept {
    int most = -1;
    for (int s = 0; s < k; ++s) {
      const std::uint64_t w = window(s);
      if ((w & blocked) == 0) most = std::max(most, std::popcount(w & own));
    }
    return most;
  }

  // The empty cells of free windows holding exactly `marks` of `own`: the
  // only cells where one more mark can raise a window to marks + 1.
  std::uint64_t empties_of_windows(std::uint64_t own, int marks) const noexcept {
    std::uint64_t cells = 0;
    for (int s = 0; s < k; ++s) {
      const std::uint64_t w = window(s);
      if ((w & blocked) == 0 && std::popcount(w & own) == marks) cells |= w & ~own;
    }
    return cells;
  }

  // Most win cells that one more mark can make, given that no free window
  // holds more than k-2 marks of `own`.
  int best_wins_after_one(std::uint64_t own) const noexcept {
    int best = 0;
    for (std::uint64_t e = empties_of_windows(own, k - 2); e && best < 2; e &= e - 1) {
      best = std::max(best, std::popcount(win_cells(own | (e & -e))));
    }
    return best;
  }

  // Most win cells that two more marks can make, given that no free window
  // holds more than k-3 marks of `own`.
  int best_wins_after_two(std::uint64_t own) const noexcept {
    int best = 0;
    for (std::uint64_t e = empties_of_windows(own, k - 3); e && best < 2; e &= e - 1) {
      best = std::max(best, best_wins_after_one(own | (e & -e)));
    }
    return best;
  }
};
// Spreads the 2(k-1) neighbour bits around the mark's bit k-1.
std::uint64_t spread(int k, std::uint32_t neighbours) noexcept {
  const std::uint64_t low = neighbours & ((std::uint32_t{1} << (k - 1)) - 1);
  const std::uint64_t high = static_cast<std::uint64_t>(neighbours >> (k - 1)) << k;
  return low | high;
}

Shape classify(int k, std::uint64_t own, std::uint64_t blocked) noexcept {
  const Span span{k, blocked};
  own |= std::uint64_t{1} << (k - 1);
  const int most = span.most_marks(own);
  if (most < 0) return Shape::None;
  if (most == k) return Shape::Five;
  if (most == k - 1) return std::popcount(span.win_cells(own)) >= 2 ? Shape::OpenFour : Shape::Four;
  if (most == k - 2) return span.best_wins_after_one(own) >= 2 ? Shape::OpenThree : Shape::Three;
  if (most == k - 3) return span.best_wins_after_two(own) >= 2 ? Shape::OpenTwo : Shape::Two;
  return Shape::One;
}

}  // namespace

Shape compute_shape(int k, std::uint32_t own, std::uint32_t blocked) noexcept {
  return classify(k, spread(k, own), spread(k, blocked));
}

ShapeTable::ShapeTable(int k) : k_(k) {
  if (k > kMaxTabledWinLength) return;
  const int bits = 2 * (k - 1);
  const std::uint32_t codes = std::uint32_t{1} << bits;
  table_ = std::make_unique<std::uint8_t[]>(std::size_t{codes} * codes);
  for (std::uint32_t own = 0; own < codes; ++own) {
    // Every blocked set disjoint from own: the subsets of its complement.
    const std::uint32_t rest = (codes - 1) & ~own;
    for (std::uint32_t blocked = rest;; blocked = (blocked - 1) & rest) {
      table_[own | blocked << bits] = static_cast<std::uint8_t>(compute_shape(k, own, blocked));
      if (blocked == 0) break;
    }
  }
}

const ShapeTable& ShapeTable::of(int k) {
  // Built on first use and kept for the life of the process (never freed, so
  // that no thread can see one destroyed at exit).
  static std::array<std::once_flag, Board::kMaxSize + 1> built;
  static std::array<const ShapeTable*, Board::kMaxSize + 1> tables{};
  std::call_once(built[k], [k] { tables[k] = new ShapeTable(k); });
  return *tables[k];
}

Shape ShapeTable::shape_of(std::uint32_t own, std::uint32_t blocked) const noexcept {
  if (table_ == nullptr) return compute_shape(k_, own, blocked);
  return static_cast<Shape>(table_[own | blocked << (2 * (k_ - 1))]);
}

}  // namespace ttt::internal::ai
