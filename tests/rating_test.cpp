// Elo ratings with known values.
#include "game/rating.hpp"

#include <gtest/gtest.h>

namespace ttt::server {
namespace {

TEST(Rating, EqualPlayersExpectHalf) {
  EXPECT_DOUBLE_EQ(expected_score(1200, 1200), 0.5);
  EXPECT_NEAR(expected_score(1600, 1200), 0.909091, 1e-6);
  EXPECT_NEAR(expected_score(1200, 1600), 0.090909, 1e-6);
}

TEST(Rating, WinBetweenEqualsMovesSixteenPoints) {
  const RatingChange change = rate_game(1200, 1200, 1.0);
  EXPECT_DOUBLE_EQ(change.x, 1216);
  EXPECT_DOUBLE_EQ(change.o, 1184);
}

TEST(Rating, UpsetMovesMoreThanAnExpectedResult) {
  // 1400 vs 1200: X expects 0.7597; losing costs 32 × 0.7597 = 24.31.
  const RatingChange upset = rate_game(1400, 1200, 0.0);
  EXPECT_NEAR(upset.x, 1375.688, 1e-3);
  EXPECT_NEAR(upset.o, 1224.312, 1e-3);
  const RatingChange expected = rate_game(1400, 1200, 1.0);
  EXPECT_NEAR(expected.x, 1407.688, 1e-3);
}

TEST(Rating, DrawMovesTowardsEachOther) {
  const RatingChange draw = rate_game(1300, 1100, 0.5);
  EXPECT_LT(draw.x, 1300);
  EXPECT_GT(draw.o, 1100);
  EXPECT_DOUBLE_EQ(draw.x + draw.o, 2400);  // points are conserved
}

}  // namespace
}  // namespace ttt::server
