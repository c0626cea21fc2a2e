// Spectators alone: who watches, the cap, their shared chat rate, and the
// count everyone hears, at once when it is quiet and at most once an
// interval in a storm.
#include "game/spectators.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <vector>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;

PlayerRef watcher(std::uint64_t id, const std::string& address = "192.0.2.1") {
  return PlayerRef{SeatId{id}, AccountId{id}, "w" + std::to_string(id), false, {}, false, address};
}

class SpectatorsTest : public ::testing::Test {
 protected:
  Spectators& make(SpectatorLimits limits) {
    spectators_ = std::make_unique<Spectators>(
        io_.get_executor(), limits, [this](std::uint32_t count) { announced_.push_back(count); });
    return *spectators_;
  }

  boost::asio::io_context io_;
  std::vector<std::uint32_t> announced_;
  std::unique_ptr<Spectators> spectators_;
};

TEST_F(SpectatorsTest, KeepsWhoWatchesUpToTheCap) {
  auto& s = make(SpectatorLimits{2, milliseconds(0), 1, 1});
  EXPECT_FALSE(s.full());
  EXPECT_EQ(s.add(watcher(1)).name, "w1");
  s.add(watcher(2, "192.0.2.9"));
  EXPECT_TRUE(s.full());
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.from("192.0.2.1"), 1u);
  ASSERT_NE(s.find(SeatId{2}), nullptr);
  EXPECT_EQ(s.find(SeatId{3}), nullptr);
  s.add(watcher(2, "192.0.2.1"));  // watching again: replaced, not added
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.from("192.0.2.1"), 2u);
  const auto gone = s.remove(SeatId{1});
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->name, "w1");
  EXPECT_FALSE(s.remove(SeatId{1}));
  EXPECT_FALSE(s.full());
  const auto all = s.close();
  EXPECT_EQ(all.size(), 1u);
  EXPECT_EQ(s.size(), 0u);
}

TEST_F(SpectatorsTest, NoCapTakesEveryone) {
  auto& s = make(SpectatorLimits{0, milliseconds(0), 1, 1});
  for (std::uint64_t i = 1; i <= 500; ++i) s.add(watcher(i));
  EXPECT_FALSE(s.full());
}

TEST_F(SpectatorsTest, TheirChatSharesOneRate) {
  auto& s = make(SpectatorLimits{0, milliseconds(0), 0.001, 3});
  int allowed = 0;
  for (int i = 0; i < 10; ++i) allowed += s.may_chat() ? 1 : 0;
  EXPECT_EQ(allowed, 3) << "the burst, then the rate";
}

TEST_F(SpectatorsTest, TheCountGoesOutAtOnceThenAtMostOnceAnInterval) {
  auto& s = make(SpectatorLimits{0, milliseconds(20), 1, 1});
  s.add(watcher(1));
  s.changed();
  EXPECT_EQ(announced_, (std::vector<std::uint32_t>{1})) << "a quiet room hears it at once";
  for (std::uint64_t i = 2; i <= 50; ++i) {
    s.add(watcher(i));
    s.changed();
  }
  EXPECT_EQ(announced_.size(), 1u) << "a storm waits for the interval";
  io_.run();  // until the one announcement due has gone out
  EXPECT_EQ(announced_, (std::vector<std::uint32_t>{1, 50}));
}

TEST_F(SpectatorsTest, OneWhoCameAndWentChangesNothingToAnnounce) {
  auto& s = make(SpectatorLimits{0, milliseconds(20), 1, 1});
  s.add(watcher(1));
  s.changed();
  s.add(watcher(2));
  s.changed();
  s.remove(SeatId{2});
  s.changed();
  io_.run();
  EXPECT_EQ(announced_, (std::vector<std::uint32_t>{1}));
}

TEST_F(SpectatorsTest, AClosedRoomAnnouncesNothingMore) {
  auto& s = make(SpectatorLimits{0, milliseconds(20), 1, 1});
  s.add(watcher(1));
  s.changed();
  s.add(watcher(2));
  s.changed();
  s.close();
  io_.run();
  EXPECT_EQ(announced_, (std::vector<std::uint32_t>{1}));
}

}  // namespace
}  // namespace ttt::server
