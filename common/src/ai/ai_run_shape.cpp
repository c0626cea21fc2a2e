#include "ai/ai_run_shape.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <mutex>

namespace ttt::internal::ai {
namespace {

constexpr int kMaxWinLength = 20;

// The 2r+1 cells around and including the mark (the mark at bit r), and the
// windows of k cells through it.
struct Span {
  int k;
  int reach;
  bool exact;
  std::uint64_t blocked;  // never the mark's own bit

  std::uint64_t window(int start) const noexcept { return ((std::uint64_t{1} << k) - 1) << start; }

  // Whether the window at `start` can still be completed by `own` into a win:
  // nothing blocked in it and, for the exact rule, no own mark just outside
  // it (completing it would make an overline).
  bool open(int start, std::uint64_t own) const noexcept {
    if ((window(start) & blocked) != 0) return false;
    if (!exact) return true;
    return (own >> (start - 1) & 1) == 0 && (own >> (start + k) & 1) == 0;
  }

  int first_start() const noexcept { return reach - k + 1; }

  // The win cells of `own`: cells completing an open window through the mark.
  std::uint64_t win_cells(std::uint64_t own) const noexcept {
    std::uint64_t cells = 0;
    for (int s = first_start(); s <= reach; ++s) {
      const std::uint64_t w = window(s);
      if (open(s, own) && std::popcount(w & own) == k - 1) cells |= w & ~own;
    }
    // For the exact rule a win cell must not itself touch a further own mark
    // beyond the window; open() checked the flanks of the window it fills.
    return cells;
  }

  // The most marks of `own` in an open window through the mark (-1: none open).
  int most_marks(std::uint64_t own) const noexcept {
    int most = -1;
    for (int s = first_start(); s <= reach; ++s) {
      if (open(s, own)) most = std::max(most, std::popcount(window(s) & own));
    }
    return most;
  }

  // The empty cells of open windows holding exactly `marks` of `own`: the
  // only cells where one more mark can raise a window to marks + 1.
  std::uint64_t empties_of_windows(std::uint64_t own, int marks) const noexcept {
    std::uint64_t cells = 0;
    for (int s = first_start(); s <= reach; ++s) {
      const std::uint64_t w = window(s);
      if (open(s, own) && std::popcount(w & own) == marks) cells |= w & ~own;
    }
    return cells;
  }

  // Most win cells that one more mark can make, given that no open window
  // holds more than k-2 marks of `own`.
  int best_wins_after_one(std::uint64_t own) const noexcept {
    int best = 0;
    for (std::uint64_t e = empties_of_windows(own, k - 2); e && best < 2; e &= e - 1) {
      best = std::max(best, std::popcount(win_cells(own | (e & -e))));
    }
    return best;
  }

  // Most win cells that two more marks can make, given that no open window
  // holds more than k-3 marks of `own`.
  int best_wins_after_two(std::uint64_t own) const noexcept {
    int best = 0;
    for (std::uint64_t e = empties_of_windows(own, k - 3); e && best < 2; e &= e - 1) {
      best = std::max(best, best_wins_after_one(own | (e & -e)));
    }
    return best;
  }
};

// Spreads the 2r neighbour bits around the mark's bit r.
std::uint64_t spread(int reach, std::uint64_t neighbours) noexcept {
  const std::uint64_t low = neighbours & ((std::uint64_t{1} << reach) - 1);
  const std::uint64_t high = (neighbours >> reach) << (reach + 1);
  return low | high;
}

Shape classify(const Span& span, std::uint64_t own) noexcept {
  const int k = span.k;
  own |= std::uint64_t{1} << span.reach;
  const int most = span.most_marks(own);
  if (most < 0) return Shape::None;
  if (most == k) return Shape::Five;
  if (most == k - 1) return std::popcount(span.win_cells(own)) >= 2 ? Shape::OpenFour : Shape::Four;
  if (most == k - 2) return span.best_wins_after_one(own) >= 2 ? Shape::OpenThree : Shape::Three;
  if (most == k - 3) return span.best_wins_after_two(own) >= 2 ? Shape::OpenTwo : Shape::Two;
  return Shape::One;
}

int reach_of(int k, bool exact) noexcept { return exact ? k : k - 1; }

}  // namespace

Shape compute_shape(int k, bool exact, std::uint64_t own, std::uint64_t blocked) noexcept {
  const int reach = reach_of(k, exact);
  const Span span{k, reach, exact, spread(reach, blocked)};
  return classify(span, spread(reach, own));
}

ShapeTable::ShapeTable(int k, bool exact) : k_(k), exact_(exact), reach_(reach_of(k, exact)) {
  if (reach_ > kMaxTabledReach) return;
  const int bits = 2 * reach_;
  const std::uint32_t codes = std::uint32_t{1} << bits;
  table_ = std::make_unique<std::uint8_t[]>(std::size_t{codes} * codes);
  for (std::uint32_t own = 0; own < codes; ++own) {
    // Every blocked set disjoint from own: the subsets of its complement.
    const std::uint32_t rest = (codes - 1) & ~own;
    for (std::uint32_t blocked = rest;; blocked = (blocked - 1) & rest) {
      table_[own | blocked << bits] =
          static_cast<std::uint8_t>(compute_shape(k, exact, own, blocked));
      if (blocked == 0) break;
    }
  }
}

const ShapeTable& ShapeTable::of(int k, bool exact) {
  // Built on first use and kept for the life of the process (never freed, so
  // that no thread can see one destroyed at exit).
  static std::array<std::array<std::once_flag, kMaxWinLength + 1>, 2> built;
  static std::array<std::array<const ShapeTable*, kMaxWinLength + 1>, 2> tables{};
  const int rule = exact ? 1 : 0;
  std::call_once(built[rule][k], [k, exact, rule] { tables[rule][k] = new ShapeTable(k, exact); });
  return *tables[rule][k];
}

}  // namespace ttt::internal::ai
