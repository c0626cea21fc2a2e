// Threat-space search for k in a row (VCF): long VCFs on 15×15 found,
// played out and checked by the rules alone; VCF agreeing with a brute-force
// search on small boards; and the strongest level converting a 15-ply VCF
// with a one-second budget. (Wins by threes: ai_run_prover_test.)
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ai/ai_run_levels.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai_rules_oracle.hpp"
#include "ai_run_positions.hpp"
#include "ai_test_support.hpp"
#include "ttt/ai.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

SearchLimits unlimited() { return SearchLimits::unlimited(); }

using testing::brute_vcf;
using testing::win_cells;
using testing::with;

// True iff the engine's VCF, followed move by move, wins for `a` (to move)
// within `attacks` moves whichever block the defender chooses: each move is
// checked by the rules to make a four (or five), and the defender never has
// a five of its own.
bool vcf_holds(const Board& b, Player a, int attacks, SearchTable& table) {
  if (attacks <= 0) return false;
  SearchLimits limits = unlimited();
  const auto win = find_vcf(RunBoard(b), limits, table, kMaxVcfFours);
  if (!win) return false;
  const Board moved = with(b, win->first, a);
  if (winner_at(moved, win->first / b.size(), win->first % b.size()) == a) return true;
  const std::vector<int> fours = win_cells(moved, a);
  if (fours.empty() || !win_cells(moved, opponent(a)).empty()) return false;
  for (int block : fours) {
    if (!vcf_holds(with(moved, block, opponent(a)), a, attacks - 1, table)) return false;
  }
  return true;
}

TEST(RunVcf, FindsTheShortestVcfOfFifteenPliesAndItHolds) {
  SearchTable table(16);
  for (std::size_t i = 0; i < kLongVcfs.size(); ++i) {
    const Board board = from_rows(kLongVcfs[i], 5);
    SearchLimits limits = unlimited();
    const auto win = find_vcf(RunBoard(board), limits, table, kMaxVcfFours);
    ASSERT_TRUE(win) << i;
    EXPECT_EQ(win->attacks, kLongVcfFours[i] + 1) << i;
    EXPECT_LT(limits.nodes(), 50'000u) << i;
    EXPECT_TRUE(vcf_holds(board, Player::X, win->attacks, table)) << i;
    // One four fewer is not enough.
    SearchLimits shorter = unlimited();
    EXPECT_FALSE(find_vcf(RunBoard(board), shorter, table, kLongVcfFours[i] - 1)) << i;
  }
}

TEST(RunVcf, AgreesWithBruteForceOnSmallBoards) {
  std::mt19937 rng(11);
  SearchTable table(14);
  int found = 0;
  int trials = 0;
  for (auto [n, k, marks] : {std::tuple{8, 4, 10}, {9, 5, 16}, {7, 3, 4}}) {
    for (int t = 0; t < testing::scaled(120, 20); ++t) {
      Board b(n, k);
      for (int placed = 0; placed < marks;) {
        const int cell = static_cast<int>(rng() % (n * n));
        if (b.at_index(cell) != Cell::Empty) continue;
        const Player p = next_player(b);
        Board after = with(b, cell, p);
        if (winner(after)) continue;
        b = after;
        ++placed;
      }
      const Player a = next_player(b);
      if (!win_cells(b, opponent(a)).empty() && win_cells(b, a).empty()) continue;
      ++trials;
      for (int fours = 0; fours <= 2; ++fours) {
        SearchLimits limits = unlimited();
        const bool engine = find_vcf(RunBoard(b), limits, table, fours).has_value();
        ASSERT_EQ(engine, brute_vcf(b, a, fours)) << b.to_string() << " k=" << k << " " << fours;
        found += engine && fours == 2;
      }
    }
  }
  EXPECT_GT(found, trials / 10);
}

TEST(RunVcf, NoneAgainstAnOpenFour) {
  // X could make a four, but O already has an open four: no four of X's can
  // stop both of O's fives.
  const Board b =
      from_rows({"...............", "...............", "...............", "...............",
                 "...............", "...............", "...............", "....XXX........",
                 "...............", "....OOOO.......", "...............", "...............",
                 "...............", "...............", "X.............."},
                5);
  SearchTable table(14);
  SearchLimits limits = unlimited();
  EXPECT_FALSE(find_vcf(RunBoard(b), limits, table, kMaxVcfFours));
}

TEST(RunLevels, PerfectConvertsAFifteenPlyVcfWithAOneSecondBudget) {
  for (std::size_t i = 0; i < 3; ++i) {
    Game game(15, 5);
    const Board start = from_rows(kLongVcfs[i], 5);
    // Replay the position as moves (X and O alternate in any order).
    std::vector<int> xs, os;
    for (int cell = 0; cell < start.cell_count(); ++cell) {
      if (start.at_index(cell) == Cell::X) xs.push_back(cell);
      if (start.at_index(cell) == Cell::O) os.push_back(cell);
    }
    for (std::size_t m = 0; m < xs.size(); ++m) {
      ASSERT_EQ(game.play(Player::X, xs[m] / 15, xs[m] % 15), std::nullopt);
      if (m < os.size()) {
        ASSERT_EQ(game.play(Player::O, os[m] / 15, os[m] % 15), std::nullopt);
      }
    }
    const std::size_t before = game.moves().size();
    while (!game.over()) {
      const Player p = game.to_move();
      const Move m = calculate_next_move(game.board(), p,
                                         {Level::Perfect, std::chrono::milliseconds(1000), 7, 0});
      ASSERT_EQ(game.play(p, m.row, m.col), std::nullopt);
    }
    EXPECT_EQ(game.status(), GameStatus::XWon) << i;
    EXPECT_LE(game.moves().size() - before, 15u) << i;
  }
}

}  // namespace
}  // namespace ttt::internal::ai
