// Level names: what the server and the clients parse and print.
#include <gtest/gtest.h>

#include "ttt/ai.hpp"

namespace ttt {
namespace {

TEST(LevelNames, EachLevelHasItsName) {
  EXPECT_EQ(to_string(Level::Random), "random");
  EXPECT_EQ(to_string(Level::Easy), "easy");
  EXPECT_EQ(to_string(Level::Medium), "medium");
  EXPECT_EQ(to_string(Level::Hard), "hard");
  EXPECT_EQ(to_string(Level::Perfect), "perfect");
}

TEST(LevelNames, ParseRoundTripsEveryLevel) {
  for (Level l : {Level::Random, Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    EXPECT_EQ(parse_level(to_string(l)), l);
  }
}

TEST(LevelNames, ParseIgnoresLetterCase) {
  EXPECT_EQ(parse_level("PERFECT"), Level::Perfect);
  EXPECT_EQ(parse_level("Medium"), Level::Medium);
  EXPECT_EQ(parse_level("eAsY"), Level::Easy);
}

TEST(LevelNames, ParseRefusesAnythingElse) {
  EXPECT_EQ(parse_level(""), std::nullopt);
  EXPECT_EQ(parse_level("perfect "), std::nullopt);
  EXPECT_EQ(parse_level("perf"), std::nullopt);
  EXPECT_EQ(parse_level("impossible"), std::nullopt);
  EXPECT_EQ(parse_level(std::string_view("hard\0", 5)), std::nullopt);
}

TEST(AiOptions, DefaultIsPerfectWithA200MillisecondBudget) {
  const AiOptions options;
  EXPECT_EQ(options.level, Level::Perfect);
  EXPECT_EQ(options.budget, std::chrono::milliseconds(200));
  EXPECT_EQ(options.seed, 0u);
  EXPECT_EQ(options.max_nodes, 0u);
}

}  // namespace
}  // namespace ttt
