#include "ai/ai_run_pattern.hpp"

#include <algorithm>

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
// OpenFour, Five. The evaluation's worths (mover: the side to move's cells,
// waiter: the other side's) were fitted by least squares to Rapfi's
// evaluations of 400 middle-game positions (docs/ai.md); open fours and
// fives, which the search settles, keep set values.
constexpr int kMoverShape[kShapeCount] = {0, 0, 1, 14, 15, 14, 31, 70, 200};
constexpr int kWaiterShape[kShapeCount] = {0, 0, 0, 16, 9, 18, 33, 70, 200};
constexpr int kAttackShape[kShapeCount] = {0, 2, 6, 20, 18, 70, 90, 1200, 10000};
constexpr int kDefenceShape[kShapeCount] = {0, 1, 4, 14, 12, 55, 60, 900, 8000};

// Extra worth of a threat class, on top of its shapes (same order as Threat).
constexpr int kMoverBonus[kThreatCount] = {0, -12, -7, -17, -4, 19, 13, 60, 15, 18, 100, 200, 0};
constexpr int kWaiterBonus[kThreatCount] = {0, -13, 2, -18, 4, 18, 18, 40, 14, 20, 60, 60, 0};
constexpr int kAttackBonus[kThreatCount] = {0, 0, 0, 30, 20, 0, 60, 1500, 0, 40, 2500, 4000, 0};
constexpr int kDefenceBonus[kThreatCount] = {0, 0, 0, 20, 15, 0, 40, 900, 0, 30, 1600, 2500, 0};

constexpr std::int16_t sum_of(int code, const int (&per_shape)[kShapeCount],
                              const int (&bonus)[kThreatCount]) {
  int value = bonus[static_cast<int>(classify(count_shapes(code)))];
  for (int d = 0; d < 4; ++d, code /= kShapeCount) value += per_shape[code % kShapeCount];
  return static_cast<std::int16_t>(value);
}

PatternTables build() {
  PatternTables t;
  for (int code = 0; code < kPatternCodes; ++code) {
    t.threat[code] = classify(count_shapes(code));
    t.mover[code] = sum_of(code, kMoverShape, kMoverBonus);
    t.waiter[code] = sum_of(code, kWaiterShape, kWaiterBonus);
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

}  // namespace ttt::internal::ai
