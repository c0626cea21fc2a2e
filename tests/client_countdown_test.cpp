// Countdown: a wait that runs out is said once a minute, every 10 s in its
// last minute and at 5 s, each mark once.
#include <gtest/gtest.h>

#include "console/countdown.hpp"

namespace ttt::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(Countdown, NothingIsDueBeforeItStarts) {
  Countdown countdown;
  EXPECT_FALSE(countdown.due(seconds(50)));
  EXPECT_FALSE(countdown.due(seconds(5)));
}

TEST(Countdown, MinutesThenTensOfSecondsThenFive) {
  Countdown countdown;
  countdown.start(seconds(180));
  EXPECT_FALSE(countdown.due(seconds(170))) << "the first minute's mark is at 2 min";
  EXPECT_TRUE(countdown.due(seconds(120)));
  EXPECT_FALSE(countdown.due(seconds(100)));
  EXPECT_TRUE(countdown.due(seconds(60)));
  EXPECT_FALSE(countdown.due(seconds(55)));
  EXPECT_TRUE(countdown.due(seconds(50)));
  EXPECT_TRUE(countdown.due(seconds(40)));
  EXPECT_TRUE(countdown.due(seconds(30)));
  EXPECT_TRUE(countdown.due(seconds(20)));
  EXPECT_TRUE(countdown.due(seconds(10)));
  EXPECT_FALSE(countdown.due(seconds(6)));
  EXPECT_TRUE(countdown.due(seconds(5)));
  EXPECT_FALSE(countdown.due(seconds(1)));
  EXPECT_FALSE(countdown.due(milliseconds(0))) << "over: nothing more to say";
}

TEST(Countdown, EachMarkIsSaidOnce) {
  Countdown countdown;
  countdown.start(seconds(30));
  EXPECT_TRUE(countdown.due(milliseconds(19'500)));
  EXPECT_FALSE(countdown.due(milliseconds(19'000)));
  EXPECT_FALSE(countdown.due(milliseconds(10'001)));
  EXPECT_TRUE(countdown.due(milliseconds(10'000)));
}

TEST(Countdown, AMarkSkippedIsNotSaidLate) {
  Countdown countdown;
  countdown.start(seconds(45));
  EXPECT_TRUE(countdown.due(seconds(12))) << "one line for the marks passed meanwhile";
  EXPECT_FALSE(countdown.due(milliseconds(11'000)));
}

TEST(Countdown, AMarkSaysItsRoundFigureThoughSaidAMomentLate) {
  EXPECT_EQ(Countdown::shown(milliseconds(239'950)), seconds(240));
  EXPECT_EQ(Countdown::shown(milliseconds(238'900)), seconds(240)) << "a tick late: 4 min";
  EXPECT_EQ(Countdown::shown(milliseconds(119'000)), seconds(120));
  EXPECT_EQ(Countdown::shown(milliseconds(59'900)), seconds(60));
  EXPECT_EQ(Countdown::shown(milliseconds(48'700)), seconds(50));
  EXPECT_EQ(Countdown::shown(milliseconds(12'000)), seconds(10)) << "marks passed meanwhile";
  EXPECT_EQ(Countdown::shown(milliseconds(4'300)), seconds(5));
  EXPECT_EQ(Countdown::shown(milliseconds(0)), seconds(0));
}

}  // namespace
}  // namespace ttt::client
