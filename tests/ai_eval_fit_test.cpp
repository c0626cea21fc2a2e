// The fit behind the k < N evaluation's worths (bench/ai_eval_fit): lines of
// a labelled file read or refused with the reason, the features of a
// position reproducing run_evaluate exactly, and the fit recovering worths
// from labels made with known worths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ai_eval_fit.hpp"
#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace {

using namespace ttt;
using namespace ttt::ai_fit;

int cell(int x, int y) { return y * kSize + x; }

// Positions of random games near the centre, 6 to 40 moves each, as move lists.
std::vector<std::vector<int>> random_games(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> games;
  while (static_cast<int>(games.size()) < count) {
    Board board(kSize, 5);
    std::vector<int> moves;
    const int length = 6 + static_cast<int>(rng() % 35);
    while (static_cast<int>(moves.size()) < length && !winner(board)) {
      const int c = cell(3 + static_cast<int>(rng() % 9), 3 + static_cast<int>(rng() % 9));
      if (board.at_index(c) != Cell::Empty) continue;
      board.place(c, moves.size() % 2 == 0 ? Player::X : Player::O);
      moves.push_back(c);
    }
    games.push_back(moves);
  }
  return games;
}

std::vector<Sample> samples_of(const std::vector<std::vector<int>>& games) {
  std::vector<Sample> samples;
  std::string why;
  for (const auto& moves : games) {
    if (auto s = sample_of(moves, 0, why)) samples.push_back(*s);
  }
  return samples;
}

TEST(EvalFit, ReadsALabelAndTheMovesInGomocupCells) {
  std::string why;
  const auto line = parse_labelled_line("-120 7,7 8,8\t0,14 14,0\r", why);
  ASSERT_TRUE(line) << why;
  EXPECT_EQ(line->label, -120);
  EXPECT_EQ(line->cells, (std::vector<int>{cell(7, 7), cell(8, 8), cell(0, 14), cell(14, 0)}));
  const auto forced = parse_labelled_line("30000", why);
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->label, 30000);
  EXPECT_TRUE(forced->cells.empty());
}

TEST(EvalFit, RefusesALineWithTheReason) {
  std::string why;
  EXPECT_FALSE(parse_labelled_line("7,7 8,8", why));
  EXPECT_EQ(why, "no label (a whole number) at the start");
  EXPECT_FALSE(parse_labelled_line("", why));
  EXPECT_FALSE(parse_labelled_line("12.5 7,7", why));
  EXPECT_FALSE(parse_labelled_line("12 7,7 15,3", why));
  EXPECT_EQ(why, "\"15,3\" is no cell x,y of the 15x15 board");
  EXPECT_FALSE(parse_labelled_line("12 7,7 -1,3", why));
  EXPECT_FALSE(parse_labelled_line("12 h8", why));
  EXPECT_EQ(why, "\"h8\" is no cell x,y of the 15x15 board");
  EXPECT_FALSE(parse_labelled_line("12 7,7,1", why));
  EXPECT_FALSE(parse_labelled_line("12 7;7", why));
}

TEST(EvalFit, SkipsPositionsTheEvaluationIsNeverAskedAbout) {
  std::string why;
  // One move: no position before the last move to average with.
  EXPECT_FALSE(sample_of({cell(7, 7)}, 0, why));
  EXPECT_TRUE(why.empty());
  // X has four in a row to complete (O to move must block): the search
  // settles that, not the evaluation.
  const std::vector<int> four{cell(7, 7), cell(0, 0), cell(8, 7), cell(0, 2),
                              cell(9, 7), cell(0, 4), cell(10, 7)};
  EXPECT_FALSE(sample_of(four, 0, why));
  EXPECT_TRUE(why.empty());
  // A finished game.
  std::vector<int> five = four;
  five.push_back(cell(0, 6));
  five.push_back(cell(11, 7));
  EXPECT_FALSE(sample_of(five, 0, why));
  EXPECT_TRUE(why.empty());
  // A quiet position is a sample.
  EXPECT_TRUE(sample_of({cell(7, 7), cell(8, 8), cell(6, 8)}, 25, why));
}

TEST(EvalFit, RefusesACellPlayedTwice) {
  std::string why;
  EXPECT_FALSE(sample_of({cell(7, 7), cell(8, 8), cell(7, 7)}, 0, why));
  EXPECT_EQ(why, "move 3 is on a cell played before");
  EXPECT_FALSE(sample_of({cell(7, 7), cell(7, 7), cell(8, 8)}, 0, why));
  EXPECT_EQ(why, "move 2 is on a cell played before");
}

TEST(EvalFit, TheFeaturesTimesTheEnginesWorthsAreItsEvaluation) {
  const std::vector<Sample> samples = samples_of(random_games(400, 1));
  ASSERT_GT(samples.size(), 150u);
  const std::vector<double> worths = current_worths();
  for (const Sample& s : samples) {
    // run_evaluate halves the sums in integers: at most half a unit off.
    ASSERT_NEAR(predict(s, worths), s.engine, 0.5);
  }
}

TEST(EvalFit, RecoversTheWorthsThatMadeTheLabels) {
  std::vector<Sample> samples = samples_of(random_games(3000, 2));
  const std::vector<double> current = current_worths();
  // Labels from the engine's worths with three changed: the side to move's
  // lone open three (shapes 5, 1, 1, 1) worth 40 more, the opponent's 25
  // less, and the edge of the move 30 more.
  using internal::ai::Shape;
  const int open_three = internal::ai::pattern_class(
      internal::ai::pattern_code(Shape::OpenThree, Shape::One, Shape::One, Shape::One));
  int mine = 0;
  int theirs = 0;
  for (const Sample& s : samples) {
    mine += s.x[open_three] != 0;
    theirs += s.x[kClasses + open_three] != 0;
  }
  ASSERT_GT(mine, 100);
  ASSERT_GT(theirs, 100);
  std::vector<double> truth = current;
  truth[open_three] += 40;
  truth[kClasses + open_three] -= 25;
  truth[kTempoFeature] += 30;
  for (Sample& s : samples) s.label = predict(s, truth);
  const std::vector<double> fitted = fit(samples, current, 0.01, false);
  EXPECT_NEAR(fitted[open_three], truth[open_three], 0.5);
  EXPECT_NEAR(fitted[kClasses + open_three], truth[kClasses + open_three], 0.5);
  // The edge of the move is nearly a sum of class counts (every empty cell
  // counts for both sides), so it is not identified alone; the labels are.
  for (const Sample& s : samples) ASSERT_NEAR(predict(s, fitted), s.label, 0.5);
  EXPECT_GT(explained(samples, fitted), 0.9999);
  EXPECT_LT(explained(samples, current), explained(samples, fitted));
  // Keeping the terms leaves the edge of the move as it was.
  const std::vector<double> kept = fit(samples, current, 0.01, true);
  EXPECT_NEAR(kept[kTempoFeature], current[kTempoFeature], 1e-3);
  // A ridge far above the data's weight keeps the worths where they were.
  const std::vector<double> held = fit(samples, current, 1e9, false);
  EXPECT_NEAR(held[open_three], current[open_three], 0.01);
}

TEST(EvalFit, PrintsTheWorthsAsTheTablesOfTheEngine) {
  const std::string source = worths_source(current_worths());
  EXPECT_EQ(source.rfind("inline constexpr RunEvaluationTerms kEvaluationTerms{", 0), 0u);
  EXPECT_NE(source.find("inline constexpr std::array<ClassWorth, kPatternClasses> kClassWorths{{\n"
                        "    {0, 0},  // 0, 0, 0, 0\n"),
            std::string::npos);
  EXPECT_EQ(std::count(source.begin(), source.end(), '\n'), 2 + 1 + kClasses + 1);
  EXPECT_NE(source.find("},  // 8, 8, 8, 8\n}};\n"), std::string::npos);
}

}  // namespace
