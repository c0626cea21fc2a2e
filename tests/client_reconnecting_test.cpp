// Reconnecting: a lost link's countdown is said at its marks, and the prompt
// says how long is left meanwhile.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/reconnecting.hpp"

namespace ttt::client {
namespace {

using std::chrono::seconds;
using testing::has;
using testing::Screen;

TEST(Reconnecting, TheFirstTryOfADropIsTheOneToSay) {
  Screen screen;
  Reconnecting reconnecting(screen.terminal());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(reconnecting.active());
  EXPECT_TRUE(reconnecting.begin(seconds(45), t0));
  EXPECT_TRUE(reconnecting.active());
  EXPECT_FALSE(reconnecting.begin(seconds(40), t0 + seconds(5))) << "the next try of the same drop";
  reconnecting.end();
  EXPECT_FALSE(reconnecting.active());
  EXPECT_TRUE(reconnecting.begin(seconds(30), t0 + seconds(60))) << "a new drop";
}

TEST(Reconnecting, TheCountdownIsSaidAtItsMarks) {
  Screen screen;
  Reconnecting reconnecting(screen.terminal());
  const auto t0 = std::chrono::steady_clock::now();
  reconnecting.begin(seconds(45), t0);
  reconnecting.tick(t0 + seconds(2));
  EXPECT_EQ(screen.take(), "");
  reconnecting.tick(t0 + seconds(15));
  EXPECT_TRUE(has(screen.take(), "Still reconnecting: 30 s left."));
  reconnecting.tick(t0 + seconds(16));
  EXPECT_EQ(screen.take(), "");
}

TEST(Reconnecting, AMarkSaidALittleLateStillSaysTheMark) {
  Screen screen;
  Reconnecting reconnecting(screen.terminal());
  const auto t0 = std::chrono::steady_clock::now();
  reconnecting.begin(seconds(300), t0);
  reconnecting.tick(t0 + std::chrono::milliseconds(61'100));  // the 4 min mark, 1.1 s late
  EXPECT_TRUE(has(screen.take(), "Still reconnecting: 4 min left.\n"));
}

TEST(Reconnecting, ALaterTryMovesTheDeadline) {
  Screen screen;
  Reconnecting reconnecting(screen.terminal());
  const auto t0 = std::chrono::steady_clock::now();
  reconnecting.begin(seconds(30), t0);
  EXPECT_EQ(reconnecting.prompt(t0 + seconds(10)), "reconnecting (20 s left; Ctrl-C gives up)> ");
  reconnecting.begin(seconds(120), t0 + seconds(10));  // a seat at stake: longer
  EXPECT_EQ(reconnecting.prompt(t0 + seconds(10)), "reconnecting (2:00 left; Ctrl-C gives up)> ");
  EXPECT_EQ(reconnecting.prompt(t0 + seconds(500)), "reconnecting (0 s left; Ctrl-C gives up)> ");
}

}  // namespace
}  // namespace ttt::client
