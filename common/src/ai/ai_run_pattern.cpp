#include "ai/ai_run_pattern.hpp"

#include <algorithm>
#include <functional>

#include "ai/ai_run_worths.hpp"

namespace ttt::internal::ai {
namespace {

struct Counts {
  int fives = 0;
  int fours = 0;  // Four or OpenFour
  int open_fours = 0;
  int open_threes = 0;
  int threes = 0;
  int open_twos = 0;
  int twos = 0;
};

constexpr Counts count_shapes(int code) {
  Counts c;
  for (int d = 0; d < 4; ++d, code /= kShapeCount) {
    switch (static_cast<Shape>(code % kShapeCount)) {
      case Shape::Five:
        ++c.fives;
        break;
      case Shape::OpenFour:
        ++c.open_fours;
        ++c.fours;
        break;
      case Shape::Four:
        ++c.fours;
        break;
      case Shape::OpenThree:
        ++c.open_threes;
        break;
      case Shape::Three:
        ++c.threes;
        break;
      case Shape::OpenTwo:
        ++c.open_twos;
        break;
      case Shape::Two:
        ++c.twos;
        break;
      default:
        break;
    }
  }
  return c;
}

constexpr Threat classify(const Counts& c) {
  if (c.fives > 0) return Threat::Five;
  if (c.open_fours > 0 || c.fours >= 2) return Threat::OpenFour;
  if (c.fours == 1) {
    if (c.open_threes > 0) return Threat::FourThree;
    if (c.threes > 0 || c.open_twos > 0) return Threat::FourPlus;
    return Threat::Four;
  }
  if (c.open_threes >= 2) return Threat::DoubleThree;
  if (c.open_threes == 1) {
    return c.threes > 0 || c.open_twos > 0 ? Threat::OpenThreePlus : Threat::OpenThree;
  }
  if (c.threes > 0 && (c.threes >= 2 || c.open_twos > 0)) return Threat::ThreePlus;
  if (c.open_twos >= 2) return Threat::DoubleTwo;
  if (c.threes > 0) return Threat::Three;
  if (c.open_twos > 0) return Threat::OpenTwo;
  return Threat::None;
}

// Per direction, by Shape: None, One, Two, OpenTwo, Three, OpenThree, Four,
// OpenFour, Five. What a cell is worth as a move, for the move ordering.
constexpr int kAttackShape[kShapeCount] = {0, 2, 6, 20, 18, 70, 90, 1200, 10000};
constexpr int kDefenceShape[kShapeCount] = {0, 1, 4, 14, 12, 55, 60, 900, 8000};

// Extra worth of a threat class, on top of its shapes (same order as Threat).
constexpr int kAttackBonus[kThreatCount] = {0, 0, 0, 30, 20, 0, 60, 1500, 0, 40, 2500, 4000, 0};
constexpr int kDefenceBonus[kThreatCount] = {0, 0, 0, 20, 15, 0, 40, 900, 0, 30, 1600, 2500, 0};

constexpr std::int16_t sum_of(int code, const int (&per_shape)[kShapeCount],
                              const int (&bonus)[kThreatCount]) {
  int value = bonus[static_cast<int>(classify(count_shapes(code)))];
  for (int d = 0; d < 4; ++d, code /= kShapeCount) value += per_shape[code % kShapeCount];
  return static_cast<std::int16_t>(value);
}

// Taken cells have code 0, and the board's sums start from every cell at 0.
static_assert(kClassWorths[0].mover == 0 && kClassWorths[0].waiter == 0,
              "pattern class 0 must be worth nothing");

PatternTables build() {
  PatternTables t;
  // Each sorted quadruple's number, in increasing order of the quadruples.
  std::array<std::uint16_t, kPatternCodes> number_of_sorted{};
  int classes = 0;
  for (int a = 0; a < kShapeCount; ++a) {
    for (int b = 0; b <= a; ++b) {
      for (int c = 0; c <= b; ++c) {
        for (int d = 0; d <= c; ++d) {
          number_of_sorted[((a * kShapeCount + b) * kShapeCount + c) * kShapeCount + d] =
              static_cast<std::uint16_t>(classes++);
        }
      }
    }
  }
  for (int code = 0; code < kPatternCodes; ++code) {
    const std::array<int, 4> s = pattern_shapes(code);
    t.pattern_class[code] =
        number_of_sorted[((s[0] * kShapeCount + s[1]) * kShapeCount + s[2]) * kShapeCount + s[3]];
    t.threat[code] = classify(count_shapes(code));
    t.mover[code] = kClassWorths[t.pattern_class[code]].mover;
    t.waiter[code] = kClassWorths[t.pattern_class[code]].waiter;
    t.attack[code] = sum_of(code, kAttackShape, kAttackBonus);
    t.defence[code] = sum_of(code, kDefenceShape, kDefenceBonus);
  }
  return t;
}

// Built when the program starts (too many steps for a constant expression
// in every compiler).
const PatternTables kTables = build();

}  // namespace

const PatternTables& pattern_tables() noexcept { return kTables; }

std::array<int, 4> pattern_shapes(int code) noexcept {
  std::array<int, 4> shapes{};
  for (int d = 0; d < 4; ++d, code /= kShapeCount) shapes[d] = code % kShapeCount;
  std::sort(shapes.begin(), shapes.end(), std::greater<>());
  return shapes;
}

}  // namespace ttt::internal::ai
