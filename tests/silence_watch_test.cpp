// SilenceWatch alone, on times the test gives: the ping at half the idle
// timeout (a third of the heartbeat's), the drop at all of it, and what a
// heartbeat changes.
#include "net/silence_watch.hpp"

#include <gtest/gtest.h>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using Action = SilenceWatch::Action;

const SilenceWatch::Clock::time_point t0{};

TEST(SilenceWatch, PingsAtHalfTheIdleTimeoutAndDropsAtAllOfIt) {
  SilenceWatch watch(milliseconds(1000), milliseconds(0), t0);
  auto v = watch.check(t0 + milliseconds(100));
  EXPECT_EQ(v.action, Action::kWait);
  EXPECT_EQ(v.next, t0 + milliseconds(500));
  v = watch.check(t0 + milliseconds(500));
  EXPECT_EQ(v.action, Action::kPing);
  EXPECT_EQ(v.next, t0 + milliseconds(1000));
  EXPECT_EQ(watch.check(t0 + milliseconds(600)).action, Action::kWait);  // pinged already
  v = watch.check(t0 + milliseconds(1000));
  EXPECT_EQ(v.action, Action::kIdle);
  EXPECT_EQ(v.timeout, milliseconds(1000));
}

TEST(SilenceWatch, APeerHeardFromStartsAgain) {
  SilenceWatch watch(milliseconds(1000), milliseconds(0), t0);
  watch.heard(t0 + milliseconds(900));
  const auto v = watch.check(t0 + milliseconds(1000));
  EXPECT_EQ(v.action, Action::kWait);
  EXPECT_EQ(v.next, t0 + milliseconds(1400));
}

TEST(SilenceWatch, AHeartbeatRulesWhileAskedForAndShorter) {
  SilenceWatch watch(milliseconds(60'000), milliseconds(300), t0);
  EXPECT_FALSE(watch.set_heartbeat(false));
  EXPECT_TRUE(watch.set_heartbeat(true));
  EXPECT_EQ(watch.check(t0 + milliseconds(100)).action, Action::kPing);
  const auto v = watch.check(t0 + milliseconds(300));
  EXPECT_EQ(v.action, Action::kNoHeartbeat);
  EXPECT_EQ(v.timeout, milliseconds(300));
  EXPECT_TRUE(watch.set_heartbeat(false));
  EXPECT_EQ(watch.check(t0 + milliseconds(300)).action, Action::kWait);
}

TEST(SilenceWatch, ZeroTimeoutsWatchNothing) {
  SilenceWatch watch(milliseconds(0), milliseconds(0), t0);
  watch.set_heartbeat(true);
  const auto v = watch.check(t0 + std::chrono::hours(10));
  EXPECT_EQ(v.action, Action::kWait);
  EXPECT_EQ(v.next, SilenceWatch::Clock::time_point::max());
}

}  // namespace
}  // namespace ttt::server
