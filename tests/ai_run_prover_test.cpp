// Proof-number search for threat wins (k < N): every win it proves holds by
// the rules against every defence; it finds every short VCF a brute-force
// search finds; it proves long VCFs and the deep VCT of a lost game within a
// node cap; and a table it learnt from answers again at once.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ai/ai_run_board.hpp"
#include "ai/ai_run_prover.hpp"
#include "ai_rules_oracle.hpp"
#include "ai_run_positions.hpp"
#include "ai_test_support.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

using testing::brute_vcf;
using testing::win_cells;
using testing::with;

std::optional<ThreatWin> prove(const Board& b, ProofTable& table, bool fours_only,
                               std::uint64_t nodes = 2'000'000) {
  SearchLimits limits(SearchLimits::Clock::time_point::max(), nodes);
  ProverSettings settings;
  settings.fours_only = fours_only;
  return prove_threat_win(RunBoard(b), limits, table, settings);
}

// True iff `a` (to move) wins within `attacks` of its moves against every
// defence: the attacker plays the prover's move, the defender tries every
// empty cell (its own fours each cost the attacker a block, which the
// generous bound allows).
bool holds(const Board& b, Player a, int attacks, ProofTable& table, bool fours_only) {
  if (!win_cells(b, a).empty()) return true;
  if (attacks <= 1) return false;
  const auto win = prove(b, table, fours_only);
  if (!win) return false;
  const Board moved = with(b, win->first, a);
  for (int reply = 0; reply < b.cell_count(); ++reply) {
    if (moved.at_index(reply) != Cell::Empty) continue;
    const Board defended = with(moved, reply, opponent(a));
    if (winner_at(defended, reply / b.size(), reply % b.size())) return false;
    if (!holds(defended, a, attacks - 1, table, fours_only)) return false;
  }
  return true;
}

// A random position of play with `marks` marks and no winner.
Board random_position(std::mt19937& rng, int n, int k, int marks) {
  Board b(n, k);
  for (int placed = 0; placed < marks;) {
    const int cell = static_cast<int>(rng() % (n * n));
    if (b.at_index(cell) != Cell::Empty) continue;
    Board after = with(b, cell, next_player(b));
    if (winner(after)) continue;
    b = after;
    ++placed;
  }
  return b;
}

TEST(RunProver, FindsEveryShortVcfABruteForceSearchFinds) {
  std::mt19937 rng(11);
  ProofTable table(14);
  int found = 0;
  for (auto [n, k, marks] : {std::tuple{8, 4, 10}, {9, 5, 16}, {7, 3, 4}}) {
    for (int t = 0; t < testing::scaled(100, 20); ++t) {
      const Board b = random_position(rng, n, k, marks);
      const Player a = next_player(b);
      if (!win_cells(b, opponent(a)).empty() && win_cells(b, a).empty()) continue;
      if (!brute_vcf(b, a, 2)) continue;
      ++found;
      EXPECT_TRUE(prove(b, table, true)) << b.to_string() << " k=" << k;
    }
  }
  EXPECT_GT(found, 10);
}

TEST(RunProver, EveryVcfItProvesHoldsByTheRules) {
  std::mt19937 rng(12);
  ProofTable table(14);
  int checked = 0;
  for (int t = 0; t < 600 && checked < testing::scaled(20, 5); ++t) {
    const Board b = random_position(rng, 8, 4, 12);
    const Player a = next_player(b);
    if (!win_cells(b, a).empty() || !win_cells(b, opponent(a)).empty()) continue;
    if (!prove(b, table, true)) continue;
    ++checked;
    EXPECT_TRUE(holds(b, a, 24, table, true)) << b.to_string();
  }
  EXPECT_GE(checked, testing::scaled(20, 5));
}

TEST(RunProver, EveryVctItProvesHoldsAgainstEveryDefence) {
  std::mt19937 rng(3);
  ProofTable table(14);
  int checked = 0;
  for (int t = 0; t < 600 && checked < testing::scaled(12, 3); ++t) {
    const Board b = random_position(rng, 7, 4, 6);
    const Player a = next_player(b);
    const RunBoard run(b);
    if (run.wins(a).any() || run.wins(opponent(a)).any() || run.open_fours(a).any()) continue;
    if (prove(b, table, true)) continue;  // only wins that need threes
    if (!prove(b, table, false)) continue;
    ++checked;
    EXPECT_TRUE(holds(b, a, 16, table, false)) << b.to_string();
  }
  EXPECT_GE(checked, testing::scaled(12, 3));
}

// One table serves both sides' proofs (a level checks its move against the
// opponent's threats, and looks for its own): a position the one side's
// proof met with the other to move must not lend the other side a win.
TEST(RunProver, ATableSharedByBothSidesProvesOnlyRealWins) {
  std::mt19937 rng(5);
  ProofTable table(14);
  int checked = 0;
  for (int t = 0; t < 2000 && checked < testing::scaled(30, 8); ++t) {
    const Board b = random_position(rng, 7, 4, 6);
    const Player a = next_player(b);
    const RunBoard run(b);
    if (run.wins(a).any() || run.wins(opponent(a)).any() || run.open_fours(a).any()) continue;
    const auto win = prove(b, table, false);
    if (!win) continue;
    ++checked;
    // After the attacker's first move, the defender's attack, judged with
    // the same table, must hold by the rules when one is reported.
    const Board moved = with(b, win->first, a);
    if (!prove(moved, table, false)) continue;
    ProofTable fresh(14);
    EXPECT_TRUE(holds(moved, opponent(a), 16, fresh, false)) << moved.to_string();
  }
  EXPECT_GE(checked, testing::scaled(30, 8));
}

TEST(RunProver, FindsTheDoubleOpenThree) {
  // X to move on 15×15: h8 makes two open threes at once (row and column).
  Board b(15, 5);
  for (Move m : {Move{7, 5}, Move{7, 6}, Move{5, 7}, Move{6, 7}})
    b.place(m.row * 15 + m.col, Player::X);
  for (Move m : {Move{0, 0}, Move{0, 14}, Move{14, 0}, Move{14, 14}})
    b.place(m.row * 15 + m.col, Player::O);
  ProofTable table(14);
  const auto win = prove(b, table, false);
  ASSERT_TRUE(win);
  EXPECT_EQ(win->first, 7 * 15 + 7);
}

TEST(RunProver, ProvesTheLongVcfsAndTheDeepVctOfALostGame) {
  ProofTable table(18);
  for (std::size_t i = 0; i < kLongVcfs.size(); ++i) {
    EXPECT_TRUE(prove(from_rows(kLongVcfs[i], 5), table, true, 100'000)) << i;
  }
  // After f11 j9 i8 j7 g10 k7 h10 (a game ttt lost to PentaZen), O wins by
  // threats in nine moves: the threat search of the first version took 25
  // million nodes to see it.
  Board b(15, 5);
  const char* moves[] = {"f11", "j9", "i8", "j7", "g10", "k7", "h10"};
  for (int i = 0; i < 7; ++i) {
    const std::string m = moves[i];
    b.place((std::stoi(m.substr(1)) - 1) * 15 + (m[0] - 'a'), i % 2 == 0 ? Player::X : Player::O);
  }
  EXPECT_TRUE(prove(b, table, false, 200'000));
  EXPECT_FALSE(prove(b, table, true, 200'000)) << "it needs threes";
}

TEST(RunProver, ATableThatProvedAPositionAnswersAtOnce) {
  ProofTable table(16);
  const Board b = from_rows(kLongVcfs[3], 5);
  ASSERT_TRUE(prove(b, table, true, 100'000));
  SearchLimits limits(SearchLimits::Clock::time_point::max(), 100'000);
  ASSERT_TRUE(prove_threat_win(RunBoard(b), limits, table, ProverSettings{.fours_only = true}));
  EXPECT_LT(limits.nodes(), 100u);
}

// A line may end on a block the attacker owes: the prover keeps to its
// plies even when the defender's fours keep forcing blocks at the limit
// (its move lists have room for max_plies + 2 plies and no more).
TEST(RunProver, KeepsToItsPliesWhenTheDefendersFoursForceBlocks) {
  std::mt19937 rng(11);
  int with_fours = 0;
  for (int t = 0; t < testing::scaled(150, 40); ++t) {
    const Board b = random_position(rng, 9, 5, 16);
    const RunBoard run(b);
    const Player a = next_player(b);
    if (run.wins(a).any() || run.threat_count(opponent(a), Threat::Five) > 1) continue;
    if (run.fours(opponent(a)).any()) ++with_fours;
    for (int plies = 0; plies <= 10; ++plies) {
      ProofTable table(12);
      SearchLimits limits(SearchLimits::Clock::time_point::max(), 10'000);
      const auto win = prove_threat_win(run, limits, table, ProverSettings{.max_plies = plies});
      if (win && plies <= 6) {
        ProofTable fresh(14);
        EXPECT_TRUE(holds(b, a, 16, fresh, false)) << b.to_string() << " at " << plies;
      }
    }
  }
  EXPECT_GE(with_fours, testing::scaled(25, 6));
}

TEST(RunProver, NoWinInAQuietPosition) {
  Board b(15, 5);
  for (int cell : {7 * 15 + 7, 7 * 15 + 8, 8 * 15 + 8}) b.place(cell, next_player(b));
  ProofTable table(14);
  EXPECT_FALSE(prove(b, table, false, 50'000));
}

}  // namespace
}  // namespace ttt::internal::ai
