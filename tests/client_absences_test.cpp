// Absences: those who watch hear who went away and came back; an away
// seat's countdown is said at its marks, once each.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/absences.hpp"

namespace ttt::client {
namespace {

using std::chrono::seconds;
using testing::game_in_progress;
using testing::has;
using testing::Screen;

wire::GameState with_o_away(std::uint32_t held_ms) {
  wire::GameState state = game_in_progress();
  state.mutable_o()->set_connected(false);
  state.mutable_o()->set_away_ms_left(held_ms);
  return state;
}

class AbsencesTest : public ::testing::Test {
 protected:
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  Screen screen_;
  Absences absences_{screen_.terminal()};
};

TEST_F(AbsencesTest, WatchersHearWhoWentAwayAndCameBack) {
  const wire::GameState away = with_o_away(30'000);
  absences_.track(game_in_progress(), away, true, t0_);
  EXPECT_TRUE(has(screen_.take(), "bob (O) lost the connection"));
  absences_.track(away, game_in_progress(), true, t0_ + seconds(3));
  EXPECT_TRUE(has(screen_.take(), "bob (O) is back."));
}

TEST_F(AbsencesTest, PlayersHearOfTheirOpponentElsewhere) {
  absences_.track(game_in_progress(), with_o_away(30'000), false, t0_);
  EXPECT_EQ(screen_.take(), "") << "OpponentStatus says it to players";
}

TEST_F(AbsencesTest, AnAwaySeatCountsDownAtItsMarks) {
  const wire::GameState away = with_o_away(30'000);
  absences_.track(game_in_progress(), away, false, t0_);
  absences_.tick(away, t0_ + seconds(5));
  EXPECT_EQ(screen_.take(), "") << "25 s left: the 30 s mark was the start";
  absences_.tick(away, t0_ + seconds(10));
  EXPECT_TRUE(has(screen_.take(), "bob (O) is away: the seat is held 20 s more."));
  absences_.tick(away, t0_ + seconds(11));
  EXPECT_EQ(screen_.take(), "");
  absences_.tick(away, t0_ + seconds(25));
  EXPECT_TRUE(has(screen_.take(), "held 5 s more"));
}

TEST_F(AbsencesTest, ASeatSeenAwayOnlyMidwayIsNotCountedDown) {
  const wire::GameState away = with_o_away(30'000);
  absences_.track(away, away, false, t0_);  // away already in the state before
  absences_.tick(away, t0_ + seconds(20));
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(AbsencesTest, ALaterStateMovesTheSeatsEnd) {
  absences_.track(game_in_progress(), with_o_away(30'000), false, t0_);
  const wire::GameState later = with_o_away(12'000);  // the server's word, 15 s on
  absences_.track(with_o_away(30'000), later, false, t0_ + seconds(15));
  absences_.tick(later, t0_ + seconds(17));
  EXPECT_TRUE(has(screen_.take(), "held 10 s more"));
}

}  // namespace
}  // namespace ttt::client
