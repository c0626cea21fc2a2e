// The k-in-a-row engine's board: the shape table against its definition, the
// shapes of well-known gomoku patterns, and the incremental board against one
// built from scratch after every move and every undo of random games.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

// The shape of X marking the cell written 'c' in a row pattern such as
// "_XXc_", on a 15×15 board with k = 5: the pattern sits in row 7 from column
// 3; '|' as the first or last character puts the pattern against the edge.
Shape row_shape(std::string pattern, int k = 5, bool exact = false) {
  int first_col = 3;
  if (pattern.front() == '|') {
    pattern.erase(0, 1);
    first_col = 0;
  } else if (pattern.back() == '|') {
    pattern.pop_back();
    first_col = 15 - static_cast<int>(pattern.size());
  }
  Board board(15, k);
  int target = -1;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const int cell = 7 * 15 + first_col + static_cast<int>(i);
    if (pattern[i] == 'X') board.place(cell, Player::X);
    if (pattern[i] == 'O') board.place(cell, Player::O);
    if (pattern[i] == 'c') target = cell;
  }
  // Balance the counts far away so that the position is one of play.
  for (int spare = 0; board.count(Player::X) - board.count(Player::O) > 0; spare += 2) {
    board.place(14 * 15 + spare, Player::O);
  }
  while (board.count(Player::O) > board.count(Player::X)) {
    board.place(static_cast<int>(board.count(Player::X)) * 2, Player::X);
  }
  return RunBoard(board, exact).shape(Player::X, target, 0);
}

// The same under the standard rule (exactly k in a row win).
Shape exact_shape(const std::string& pattern, int k = 5) { return row_shape(pattern, k, true); }

TEST(RunShape, GomokuPatternsAreNamedAsPlayersNameThem) {
  EXPECT_EQ(row_shape("_XXXXc_"), Shape::Five);
  EXPECT_EQ(row_shape("_XXcXX_"), Shape::Five);
  EXPECT_EQ(row_shape("__XXXc__"), Shape::OpenFour);
  EXPECT_EQ(row_shape("_OXXXc_"), Shape::Four);
  EXPECT_EQ(row_shape("|XXXc_"), Shape::Four);
  EXPECT_EQ(row_shape("_XXX_c_"), Shape::Four);
  EXPECT_EQ(row_shape("XXX_c_XXX"), Shape::OpenFour);  // a double four in one line
  EXPECT_EQ(row_shape("__XXc__"), Shape::OpenThree);
  EXPECT_EQ(row_shape("__X_Xc__"), Shape::OpenThree);
  EXPECT_EQ(row_shape("_OXXc__"), Shape::Three);
  EXPECT_EQ(row_shape("O_XXc_O"), Shape::Three);
  EXPECT_EQ(row_shape("_O_XXcO_"), Shape::None);  // no room for five
  EXPECT_EQ(row_shape("__Xc___"), Shape::OpenTwo);
  EXPECT_EQ(row_shape("OXc____"), Shape::Two);
  EXPECT_EQ(row_shape("O___c___O"), Shape::One);
  EXPECT_EQ(row_shape("O__c_O"), Shape::None);
  EXPECT_EQ(row_shape("|c__O"), Shape::None);
}

TEST(RunShape, UnderTheStandardRuleAnOverlineIsNoWin) {
  EXPECT_EQ(exact_shape("_XXXXc_"), Shape::Five);
  EXPECT_EQ(exact_shape("_XXXXcX_"), Shape::None);  // six: no win, nothing else here
  EXPECT_EQ(exact_shape("_XXcXXX_"), Shape::None);
  EXPECT_EQ(exact_shape("X_XXXc__"), Shape::Four);  // the open end on the left is an overline
  EXPECT_EQ(exact_shape("__XXXc__"), Shape::OpenFour);
  EXPECT_EQ(exact_shape("X_XXc___"), Shape::Four);  // the gap makes exactly five
  EXPECT_EQ(exact_shape("XXXX_c"), Shape::One);     // c can't join the four: six with the gap
  EXPECT_EQ(row_shape("_XXXXcX_"), Shape::Five);    // freestyle: six in a row win
  EXPECT_EQ(row_shape("X_XXXc__"), Shape::OpenFour);
}

TEST(RunShape, OtherWinLengths) {
  EXPECT_EQ(row_shape("_Xc_", 3), Shape::OpenFour);  // two ways to complete three
  EXPECT_EQ(row_shape("OXc_", 3), Shape::Four);
  EXPECT_EQ(row_shape("__c__", 3), Shape::OpenThree);
  EXPECT_EQ(row_shape("__XXXXXc__", 7), Shape::OpenFour);
  EXPECT_EQ(row_shape("O_XXXXc_O", 7), Shape::Three);
}

TEST(RunShape, TheTableHoldsTheDefinition) {
  std::mt19937 rng(5);
  for (bool exact : {false, true}) {
    for (int k = 3; k + (exact ? 0 : -1) <= kMaxTabledReach; ++k) {
      const ShapeTable& table = ShapeTable::of(k, exact);
      ASSERT_EQ(table.reach(), exact ? k : k - 1);
      const std::uint64_t codes = std::uint64_t{1} << (2 * table.reach());
      for (int trial = 0; trial < 20000; ++trial) {
        const std::uint64_t own = rng() % codes;
        const std::uint64_t blocked = rng() % codes & ~own;
        ASSERT_EQ(table.shape_of(own, blocked), compute_shape(k, exact, own, blocked)) << k;
      }
    }
  }
  EXPECT_EQ(ShapeTable::of(9).shape_of(0, 0), compute_shape(9, 0, 0));
  EXPECT_EQ(ShapeTable::of(9, true).shape_of(0, 0), compute_shape(9, true, 0, 0));
}

TEST(RunPattern, ThreatClassesFollowTheShapes) {
  const PatternTables& t = pattern_tables();
  auto threat = [&](Shape a, Shape b = Shape::None, Shape c = Shape::None) {
    return t.threat[pattern_code(a, b, c, Shape::None)];
  };
  EXPECT_EQ(threat(Shape::Five, Shape::OpenFour), Threat::Five);
  EXPECT_EQ(threat(Shape::Four, Shape::Four), Threat::OpenFour);  // a double four
  EXPECT_EQ(threat(Shape::OpenFour), Threat::OpenFour);
  EXPECT_EQ(threat(Shape::Four, Shape::OpenThree), Threat::FourThree);
  EXPECT_EQ(threat(Shape::Four, Shape::Three), Threat::FourPlus);
  EXPECT_EQ(threat(Shape::Four), Threat::Four);
  EXPECT_EQ(threat(Shape::OpenThree, Shape::OpenThree), Threat::DoubleThree);
  EXPECT_EQ(threat(Shape::OpenThree, Shape::OpenTwo), Threat::OpenThreePlus);
  EXPECT_EQ(threat(Shape::OpenThree), Threat::OpenThree);
  EXPECT_EQ(threat(Shape::Three, Shape::Three), Threat::ThreePlus);
  EXPECT_EQ(threat(Shape::OpenTwo, Shape::OpenTwo), Threat::DoubleTwo);
  EXPECT_EQ(threat(Shape::Three), Threat::Three);
  EXPECT_EQ(threat(Shape::OpenTwo, Shape::Two, Shape::One), Threat::OpenTwo);
  EXPECT_EQ(threat(Shape::Two, Shape::One), Threat::None);
  // Every direction counts alike.
  EXPECT_EQ(t.threat[pattern_code(Shape::None, Shape::None, Shape::OpenThree, Shape::Four)],
            Threat::FourThree);
  // Worth grows with the threat, for ordering and evaluation alike.
  const int four = pattern_code(Shape::Four, Shape::None, Shape::None, Shape::None);
  const int four_three = pattern_code(Shape::Four, Shape::OpenThree, Shape::None, Shape::None);
  const int open_two = pattern_code(Shape::OpenTwo, Shape::None, Shape::None, Shape::None);
  EXPECT_GT(t.attack[four_three], t.attack[four]);
  EXPECT_GT(t.attack[four], t.attack[open_two]);
  EXPECT_GT(t.mover[four_three], t.mover[four]);
  EXPECT_GT(t.waiter[four_three], t.waiter[open_two]);
  EXPECT_EQ(t.mover[0], 0);
}

TEST(RunPattern, CodesDifferingOnlyInTheOrderOfDirectionsShareAClass) {
  const PatternTables& t = pattern_tables();
  std::set<int> classes;
  for (int code = 0; code < kPatternCodes; ++code) {
    const int cls = pattern_class(code);
    ASSERT_GE(cls, 0);
    ASSERT_LT(cls, kPatternClasses);
    classes.insert(cls);
    std::array<int, 4> shapes{};
    for (int d = 0, c = code; d < 4; ++d, c /= kShapeCount) shapes[d] = c % kShapeCount;
    std::sort(shapes.begin(), shapes.end());
    do {
      const int permuted =
          pattern_code(static_cast<Shape>(shapes[0]), static_cast<Shape>(shapes[1]),
                       static_cast<Shape>(shapes[2]), static_cast<Shape>(shapes[3]));
      ASSERT_EQ(pattern_class(permuted), cls) << code << " and " << permuted;
      // The worths are the class's, whatever the order.
      ASSERT_EQ(t.mover[permuted], t.mover[code]);
      ASSERT_EQ(t.waiter[permuted], t.waiter[code]);
    } while (std::next_permutation(shapes.begin(), shapes.end()));
  }
  // One class for each multiset of four shapes, and only for those.
  EXPECT_EQ(classes.size(), static_cast<std::size_t>(kPatternClasses));
  // Numbered in the order of the shapes sorted strongest first: nothing at
  // all (a taken cell, or no window left) first, then a lone One.
  EXPECT_EQ(pattern_class(0), 0);
  EXPECT_EQ(pattern_class(pattern_code(Shape::None, Shape::None, Shape::One, Shape::None)), 1);
  EXPECT_EQ(pattern_class(pattern_code(Shape::Five, Shape::Five, Shape::Five, Shape::Five)),
            kPatternClasses - 1);
}

// Everything the board says, as one comparable text.
std::string snapshot(const RunBoard& b) {
  std::string out = std::to_string(b.hash()) + " " + std::to_string(b.empties());
  for (Player p : {Player::X, Player::O}) {
    out += " " + std::to_string(b.mover_sum(p)) + " " + std::to_string(b.waiter_sum(p));
    for (int t = 0; t < kThreatCount; ++t) {
      out += "," + std::to_string(b.threat_count(p, static_cast<Threat>(t)));
    }
  }
  out += "\n";
  for (int cell = 0; cell < b.cells(); ++cell) {
    out += b.candidates().test(cell) ? 'C' : '.';
    for (Player p : {Player::X, Player::O}) {
      out += std::to_string(b.code(p, cell)) + ":";
      out += b.holds(p, cell) ? 'M' : '.';
      out += b.wins(p).test(cell) ? 'W' : '.';
      out += b.fours(p).test(cell) ? 'F' : '.';
      out += b.open_fours(p).test(cell) ? 'O' : '.';
      out += b.threes(p).test(cell) ? 'T' : '.';
      for (int d = 0; d < 4; ++d)
        out += static_cast<char>('0' + static_cast<int>(b.shape(p, cell, d)));
    }
    out += ' ';
  }
  return out;
}

// Whether the mark at cell completes a run of exactly k (the standard rule's win).
bool exact_win_at(const Board& board, int cell) {
  static constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  const int n = board.size();
  const Cell mark = board.at_index(cell);
  for (const auto& [dr, dc] : kSteps) {
    int length = 1;
    for (int s : {1, -1}) {
      for (int r = cell / n + s * dr, c = cell % n + s * dc;
           board.contains(r, c) && board.at(r, c) == mark; r += s * dr, c += s * dc) {
        ++length;
      }
    }
    if (length == board.win_length()) return true;
  }
  return false;
}

TEST(RunBoard, KeepsEveryFactAsIfBuiltFromScratch) {
  std::mt19937 rng(77);
  for (auto [n, k, exact] : {std::tuple{15, 5, false},
                             {19, 5, false},
                             {7, 4, false},
                             {6, 3, false},
                             {9, 7, false},
                             {4, 3, false},
                             {19, 18, false},
                             {15, 5, true},
                             {9, 4, true},
                             {12, 8, true}}) {
    for (int game = 0; game < (n * n > 100 ? 1 : 3); ++game) {
      Board board(n, k);
      RunBoard run(board, exact);
      const std::string empty = snapshot(run);
      std::vector<int> order(n * n);
      for (int i = 0; i < n * n; ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<int> played;
      for (int cell : order) {
        const Player p = next_player(board);
        const bool won = run.play(cell);
        board.place(cell, p);
        played.push_back(cell);
        const bool wins =
            exact ? exact_win_at(board, cell) : winner_at(board, cell / n, cell % n).has_value();
        ASSERT_EQ(won, wins) << board.to_string();
        if (won) break;
        ASSERT_EQ(run.to_move(), next_player(board));
        ASSERT_EQ(snapshot(run), snapshot(RunBoard(board, exact)))
            << n << " " << k << " " << board.to_string();
      }
      while (!played.empty()) {
        run.undo(played.back());
        played.pop_back();
      }
      EXPECT_EQ(snapshot(run), empty);
    }
  }
}

TEST(RunBoard, TheHashAfterACellIsTheHashOnceItIsPlayed) {
  std::mt19937 rng(5);
  RunBoard run(Board(15, 5));
  for (int ply = 0; ply < 60; ++ply) {
    std::vector<int> empty;
    for (int cell = 0; cell < run.cells(); ++cell) {
      if (run.is_empty(cell)) empty.push_back(cell);
    }
    // Every empty cell for the side to move, then one of them played.
    for (int cell : empty) {
      const std::uint64_t predicted = run.hash_after(cell);
      const std::uint64_t before = run.hash();
      run.play(cell);
      ASSERT_EQ(run.hash(), predicted) << "ply " << ply << ", cell " << cell;
      run.undo(cell);
      ASSERT_EQ(run.hash(), before);
    }
    const int cell = empty[rng() % empty.size()];
    const std::uint64_t predicted = run.hash_after(cell);
    if (run.play(cell)) break;
    EXPECT_EQ(run.hash(), predicted);
  }
}

TEST(RunBoard, PassGivesTheTurnAwayAndBack) {
  RunBoard run(Board(15, 5));
  const std::uint64_t hash = run.hash();
  run.pass();
  EXPECT_EQ(run.to_move(), Player::O);
  EXPECT_NE(run.hash(), hash);
  run.pass();
  EXPECT_EQ(run.to_move(), Player::X);
  EXPECT_EQ(run.hash(), hash);
}

}  // namespace
}  // namespace ttt::internal::ai
