// The one conversion between the AI's levels and the wire's, used by the
// server, ttt-client and ttt-bot alike.
#include <gtest/gtest.h>

#include "ttt/wire/convert.hpp"

namespace ttt::wire {
namespace {

TEST(WireConvert, EveryLevelGoesToTheWireAndBack) {
  for (Level level : {Level::Random, Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    EXPECT_EQ(level_of(bot_level_of(level)), level) << to_string(level);
  }
  EXPECT_EQ(bot_level_of(Level::Random), BOT_LEVEL_RANDOM);
  EXPECT_EQ(bot_level_of(Level::Perfect), BOT_LEVEL_PERFECT);
}

TEST(WireConvert, AnUnspecifiedLevelIsPerfectAndAnUnknownOneIsRefused) {
  EXPECT_EQ(level_of(BOT_LEVEL_UNSPECIFIED), Level::Perfect);
  EXPECT_EQ(level_of(static_cast<BotLevel>(6)), std::nullopt);
  EXPECT_EQ(level_of(static_cast<BotLevel>(-1)), std::nullopt);
}

TEST(WireConvert, AWinLengthOfZeroIsTheWholeLine) {
  EXPECT_EQ(win_length_of(15, 0), 15);
  EXPECT_EQ(win_length_of(15, 5), 5);
}

}  // namespace
}  // namespace ttt::wire
