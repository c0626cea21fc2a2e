// The k-in-a-row engine's board: the shape table against its definition, the
// shapes of well-known gomoku patterns, and the incremental board against one
// built from scratch after every move and every undo of random games.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

// The shape of X marking the cell written 'c' in a row pattern such as
// "_XXc_", on a 15×15 board with k = 5: the pattern sits in row 7 from column
// 3; '|' as the first or last character puts the pattern against the edge.
Shape row_shape(std::string pattern, int k = 5) {
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
  return RunBoard(board).shape(Player::X, target, 0);
}

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

TEST(RunShape, OtherWinLengths) {
  EXPECT_EQ(row_shape("_Xc_", 3), Shape::OpenFour);  // two ways to complete three
  EXPECT_EQ(row_shape("OXc_", 3), Shape::Four);
  EXPECT_EQ(row_shape("__c__", 3), Shape::OpenThree);
  EXPECT_EQ(row_shape("__XXXXXc__", 7), Shape::OpenFour);
  EXPECT_EQ(row_shape("O_XXXXc_O", 7), Shape::Three);
}

TEST(RunShape, TheTableHoldsTheDefinition) {
  std::mt19937 rng(5);
  for (int k = 3; k <= kMaxTabledWinLength; ++k) {
    const ShapeTable& table = ShapeTable::of(k);
    const std::uint32_t codes = std::uint32_t{1} << (2 * (k - 1));
    for (int trial = 0; trial < 20000; ++trial) {
      const std::uint32_t own = rng() % codes;
      const std::uint32_t blocked = rng() % codes & ~own;
      ASSERT_EQ(table.shape_of(own, blocked), compute_shape(k, own, blocked)) << k;
    }
  }
  EXPECT_EQ(ShapeTable::of(9).shape_of(0, 0), compute_shape(9, 0, 0));
}

// Everything the board says, as one comparable text.
std::string snapshot(const RunBoard& b) {
  std::string out = std::to_string(b.hash()) + " " + std::to_string(b.empties()) + " " +
                    std::to_string(b.window_score(Player::X)) + " " +
                    std::to_string(b.window_score(Player::O)) + "\n";
  for (int cell = 0; cell < b.cells(); ++cell) {
    out += std::to_string(b.near(cell));
    for (Player p : {Player::X, Player::O}) {
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

TEST(RunBoard, KeepsEveryFactAsIfBuiltFromScratch) {
  std::mt19937 rng(77);
  for (auto [n, k] : {std::pair{15, 5}, {19, 5}, {7, 4}, {6, 3}, {9, 7}, {4, 3}, {19, 18}}) {
    for (int game = 0; game < (n * n > 100 ? 1 : 3); ++game) {
      Board board(n, k);
      RunBoard run(board);
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
        ASSERT_EQ(won, winner_at(board, cell / n, cell % n).has_value()) << board.to_string();
        if (won) break;
        ASSERT_EQ(run.to_move(), next_player(board));
        ASSERT_EQ(snapshot(run), snapshot(RunBoard(board)))
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
