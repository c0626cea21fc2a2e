// The levels are ordered: over a few hundred seeded games on 3×3, 4×4 and 5×5,
// each level scores at least as well against the level below it as that level
// scores against it; on 3×3 the round-robin totals are strictly ordered.
#include <gtest/gtest.h>

#include "ai_test_support.hpp"

namespace ttt {
namespace {

using std::chrono::milliseconds;

// Points of `stronger` minus points of `weaker` over `games` games, colours
// alternating (+1 a win, -1 a loss).
int score_difference(Level stronger, Level weaker, int size, int games) {
  int difference = 0;
  for (int g = 0; g < games; ++g) {
    const milliseconds budget(size == 5 ? 20 : 1000);
    const testing::Policy s = testing::engine(stronger, 7 * g + 1, budget, 1500);
    const testing::Policy w = testing::engine(weaker, 7 * g + 2, budget, 1500);
    const bool stronger_is_x = g % 2 == 0;
    const Game game =
        stronger_is_x ? testing::play_game(size, s, w) : testing::play_game(size, w, s);
    difference += testing::result_for(game, stronger_is_x ? Player::X : Player::O);
  }
  return difference;
}

struct Pairing {
  Level stronger;
  Level weaker;
};

constexpr Pairing kLadder[] = {{Level::Perfect, Level::Hard},
                               {Level::Hard, Level::Medium},
                               {Level::Medium, Level::Easy},
                               {Level::Easy, Level::Random}};

void expect_ladder_holds(int size, int games) {
  for (const Pairing& p : kLadder) {
    const int d = score_difference(p.stronger, p.weaker, size, games);
    EXPECT_GE(d, 0) << to_string(p.stronger) << " vs " << to_string(p.weaker) << " on " << size
                    << "x" << size;
    ::testing::Test::RecordProperty(std::string(to_string(p.stronger)) + "_vs_" +
                                        std::string(to_string(p.weaker)) + "_" +
                                        std::to_string(size),
                                    d);
  }
}

TEST(LevelTournament, EachLevelOutscoresTheOneBelowOn3x3) {
  expect_ladder_holds(3, testing::scaled(300, 40));
}

TEST(LevelTournament, EachLevelOutscoresTheOneBelowOn4x4) {
  expect_ladder_holds(4, testing::scaled(200, 30));
}

TEST(LevelTournament, EachLevelOutscoresTheOneBelowOn5x5) {
  expect_ladder_holds(5, testing::scaled(200, 30));
}

// Round robin on 3×3, where every level's mistakes can be punished: the total
// scores come out strictly in the order of the levels.
TEST(LevelTournament, RoundRobinTotalsFollowTheLevelOrderOn3x3) {
  constexpr Level kLevels[] = {Level::Random, Level::Easy, Level::Medium, Level::Hard,
                               Level::Perfect};
  int total[5] = {};
  const int games = testing::scaled(100, 20);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < i; ++j) {
      const int d = score_difference(kLevels[i], kLevels[j], 3, games);
      total[i] += d;
      total[j] -= d;
    }
  }
  for (int i = 1; i < 5; ++i) {
    EXPECT_GT(total[i], total[i - 1])
        << to_string(kLevels[i]) << " vs " << to_string(kLevels[i - 1]);
  }
}

TEST(LevelTournament, EveryLevelAboveRandomBeatsRandomOn3x3) {
  for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    EXPECT_GT(score_difference(level, Level::Random, 3, testing::scaled(200, 30)), 0)
        << to_string(level);
  }
}

}  // namespace
}  // namespace ttt
