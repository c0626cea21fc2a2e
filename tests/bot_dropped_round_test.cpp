// DroppedRound: a round the connection lost is found again only by its own
// game, round, side and name, and only once it is decided.
#include <gtest/gtest.h>

#include "client_support/game_states.hpp"
#include "view/dropped_round.hpp"

namespace ttt::client {
namespace {

using ttt::testing::game_in_progress;

// Game 4, round 1: alice (X) against bob (O); the bot played O.
DroppedRound dropped_as_o() {
  DroppedRound dropped;
  wire::GameState state = game_in_progress("XEEEEEEEE", wire::SIDE_O);
  state.mutable_o()->set_name("bob");
  dropped.dropped(state, wire::SIDE_O);
  return dropped;
}

wire::GameRecord record(std::uint64_t game, std::uint32_t round, const std::string& o_name,
                        wire::GameStatus status) {
  wire::GameRecord g;
  g.set_game_id(game);
  g.set_round(round);
  g.set_x_name("alice");
  g.set_o_name(o_name);
  g.set_status(status);
  g.set_end_reason(wire::END_REASON_LINE);
  return g;
}

TEST(DroppedRound, NothingIsPendingUntilARoundDropsAndAfterItSettles) {
  DroppedRound none;
  EXPECT_FALSE(none.pending());
  wire::History history;
  *history.add_games() = record(4, 1, "bob", wire::GAME_STATUS_X_WON);
  EXPECT_FALSE(none.in_history(history)) << "nothing is looked for";
  DroppedRound dropped = dropped_as_o();
  ASSERT_TRUE(dropped.pending());
  EXPECT_EQ(dropped.round(), (RoundKey{4, 1}));
  dropped.settle();
  EXPECT_FALSE(dropped.pending());
}

TEST(DroppedRound, TheHistoryGivesTheRoundsEndForTheBotsSide) {
  const DroppedRound dropped = dropped_as_o();
  wire::History history;
  *history.add_games() = record(4, 2, "bob", wire::GAME_STATUS_DRAW);   // a later round
  *history.add_games() = record(4, 1, "bob", wire::GAME_STATUS_X_WON);  // this one
  const std::optional<RoundEnd> end = dropped.in_history(history);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->round, (RoundKey{4, 1}));
  EXPECT_EQ(end->status, wire::GAME_STATUS_X_WON);
  EXPECT_EQ(end->reason, wire::END_REASON_LINE);
  EXPECT_EQ(end->side, wire::SIDE_O);
}

TEST(DroppedRound, OtherGamesRoundsNamesOrUndecidedRecordsAreNotIt) {
  const DroppedRound dropped = dropped_as_o();
  wire::History history;
  *history.add_games() = record(5, 1, "bob", wire::GAME_STATUS_X_WON);    // another game
  *history.add_games() = record(4, 3, "bob", wire::GAME_STATUS_X_WON);    // another round
  *history.add_games() = record(4, 1, "carol", wire::GAME_STATUS_X_WON);  // not the bot's side
  *history.add_games() = record(4, 1, "bob", wire::GAME_STATUS_IN_PROGRESS);
  EXPECT_FALSE(dropped.in_history(history));
  EXPECT_FALSE(dropped.in_history(wire::History{}));
}

TEST(DroppedRound, TheWelcomeGivesARoundDecidedWhileAway) {
  const DroppedRound dropped = dropped_as_o();
  wire::Welcome welcome;
  wire::AwayResult* other = welcome.add_decided_while_away();
  other->set_game_id(9);
  other->set_round(1);
  other->set_side(wire::SIDE_O);
  other->set_status(wire::GAME_STATUS_O_WON);
  EXPECT_FALSE(dropped.in_welcome(welcome)) << "another game's result";
  wire::AwayResult* wrong_side = welcome.add_decided_while_away();
  *wrong_side = *other;
  wrong_side->set_game_id(4);
  wrong_side->set_side(wire::SIDE_X);
  EXPECT_FALSE(dropped.in_welcome(welcome)) << "the other side's";
  wire::AwayResult* mine = welcome.add_decided_while_away();
  *mine = *wrong_side;
  mine->set_side(wire::SIDE_O);
  mine->set_end_reason(wire::END_REASON_DISCONNECT);
  const std::optional<RoundEnd> end = dropped.in_welcome(welcome);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->status, wire::GAME_STATUS_O_WON);
  EXPECT_EQ(end->reason, wire::END_REASON_DISCONNECT);
}

}  // namespace
}  // namespace ttt::client
