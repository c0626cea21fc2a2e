// Internal: what the four shapes one mark would make at a cell (one per
// direction, ai_run_shape.hpp) amount to together, for the k-in-a-row engine:
// the cell's threat class, the cell's worth to the evaluation, and its worth
// as a move before any search. A cell's four shapes are packed in a pattern
// code (shape of direction d times 9^d), and every answer is a table look-up.
#pragma once

#include <array>
#include <cstdint>

#include "ai/ai_run_shape.hpp"

namespace ttt::internal::ai {

// The strongest thing one more mark at a cell makes for a player, weakest
// first (the names gomoku players use for k = 5).
enum class Threat : std::uint8_t {
  None,
  OpenTwo,        // an open two (one more mark: an open three)
  Three,          // a closed three (one more mark: a four)
  DoubleTwo,      // open twos in two directions
  ThreePlus,      // a closed three and an open two or another closed three
  OpenThree,      // an open three: the opponent must answer it or make fours
  OpenThreePlus,  // an open three and an open two or a closed three
  DoubleThree,    // open threes in two directions: wins unless the opponent has fours
  Four,           // a four: the opponent must block its win cell
  FourPlus,       // a four and an open two or a closed three
  FourThree,      // a four and an open three: usually wins
  OpenFour,       // two win cells (an open four, or fours in two directions): wins
  Five,           // completes the line: wins at once
};
inline constexpr int kThreatCount = 13;

// Pattern codes: sum over the directions d of shape(d) * 9^d.
inline constexpr int kPatternCodes = kShapeCount * kShapeCount * kShapeCount * kShapeCount;

constexpr int pattern_code(Shape s0, Shape s1, Shape s2, Shape s3) noexcept {
  return ((static_cast<int>(s3) * kShapeCount + static_cast<int>(s2)) * kShapeCount +
          static_cast<int>(s1)) *
             kShapeCount +
         static_cast<int>(s0);
}

// Codes that differ only in the order of their directions are one pattern
// class: the multisets of four shapes, C(12, 4) of them. The evaluation's
// worths are per class.
inline constexpr int kPatternClasses = 495;

// The tables of every pattern code, built once when the program starts.
struct PatternTables {
  // The threat class of the code.
  std::array<Threat, kPatternCodes> threat{};
  // The pattern class of the code, 0 to kPatternClasses - 1: the classes
  // numbered in the order of their shapes sorted strongest first, then read
  // as a number (None, None, None, None first).
  std::array<std::uint16_t, kPatternCodes> pattern_class{};
  // What a player's potential at an empty cell is worth to the evaluation:
  // `mover` for the side to move, `waiter` for the other side.
  std::array<std::int16_t, kPatternCodes> mover{};
  std::array<std::int16_t, kPatternCodes> waiter{};
  // What playing the cell is worth for the move ordering: `attack` for the
  // mover's own code, `defence` for the opponent's code at the same cell.
  std::array<std::int16_t, kPatternCodes> attack{};
  std::array<std::int16_t, kPatternCodes> defence{};
};

const PatternTables& pattern_tables() noexcept;

inline int pattern_class(int code) noexcept { return pattern_tables().pattern_class[code]; }

// The code's four shapes (as numbers of Shape), strongest first: what its
// pattern class is made of.
std::array<int, 4> pattern_shapes(int code) noexcept;

}  // namespace ttt::internal::ai
