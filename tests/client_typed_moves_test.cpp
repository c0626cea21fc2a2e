// TypedMoves: moves typed ahead wait for the player's turn and go one at a
// time, each checked first; a move unanswered is said to wait; moves typed
// while the link is down go only if the position stands.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/typed_moves.hpp"

namespace ttt::client {
namespace {

using testing::after_move;
using testing::FakeSender;
using testing::game_in_progress;
using testing::has;
using testing::joined;
using testing::Screen;

class TypedMovesTest : public ::testing::Test {
 protected:
  TypedMovesTest() { game_.set_player(1); }  // alice, X

  void play_as_x(const wire::GameState& state) {
    game_.join(joined(state, wire::SIDE_X), std::chrono::steady_clock::now());
  }
  // The move a request sent, as "row col".
  std::string move_sent(std::size_t i) const {
    const wire::MakeMove& m = sender_.sent.at(i).message.make_move();
    return std::to_string(m.row()) + " " + std::to_string(m.col());
  }

  Screen screen_{true, {24, 200}};  // wide: no line is wrapped
  FakeSender sender_;
  CurrentGame game_;
  TypedMoves moves_{screen_.terminal(), game_, sender_};
};

TEST_F(TypedMovesTest, AMoveOnOurTurnGoesAtOnce) {
  play_as_x(game_in_progress());
  EXPECT_TRUE(moves_.type("b2", false));
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_EQ(move_sent(0), "1 1");
  EXPECT_EQ(sender_.sent[0].message.make_move().game_id(), 4u);
  EXPECT_FALSE(sender_.sent[0].awaited) << "a move's answer is the next state";
  EXPECT_TRUE(moves_.in_flight());
  EXPECT_TRUE(moves_.empty());
}

TEST_F(TypedMovesTest, MovesTypedAheadWaitForTheTurnAndGoOneAtATime) {
  play_as_x(after_move(game_in_progress(), 4));  // O to move
  EXPECT_TRUE(moves_.type("a1", false));
  EXPECT_TRUE(has(screen_.take(), "(a1 will be played on your turn)"));
  EXPECT_TRUE(moves_.type("c3", false));
  EXPECT_TRUE(sender_.sent.empty());

  game_.update(after_move(after_move(game_in_progress(), 4), 1), std::chrono::steady_clock::now());
  moves_.play();
  ASSERT_EQ(sender_.sent.size(), 1u) << "one move in flight at a time";
  EXPECT_EQ(move_sent(0), "0 0");
  moves_.play();
  EXPECT_EQ(sender_.sent.size(), 1u);
  EXPECT_FALSE(moves_.empty());
}

TEST_F(TypedMovesTest, AMoveIntoATakenCellIsRefusedAtOnce) {
  play_as_x(after_move(game_in_progress(), 4));
  EXPECT_FALSE(moves_.type("b2", false));
  EXPECT_TRUE(has(screen_.take(), "That cell is already taken"));
  EXPECT_TRUE(moves_.empty());
}

TEST_F(TypedMovesTest, TextThatIsNoCellIsRefusedWithTheBoardsLabels) {
  play_as_x(game_in_progress());
  EXPECT_FALSE(moves_.type("z9", false));
  EXPECT_FALSE(screen_.take().empty());
  EXPECT_TRUE(sender_.sent.empty());
}

TEST_F(TypedMovesTest, OutOfAGameAMoveWaitsOnlyForAGameOnItsWay) {
  EXPECT_FALSE(moves_.type("a1", false));
  EXPECT_TRUE(has(screen_.take(), "You are not in a game: /create 3, /quick 3 or /join ID first"));
  EXPECT_TRUE(moves_.empty());

  EXPECT_FALSE(moves_.type("a1", true));  // a /join is on its way
  EXPECT_FALSE(moves_.empty());
  EXPECT_EQ(screen_.take(), "");
  play_as_x(game_in_progress());
  moves_.play();
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_EQ(move_sent(0), "0 0");
}

TEST_F(TypedMovesTest, WatchersAndFinishedGamesTakeNoMoves) {
  game_.join(joined(game_in_progress(), wire::SIDE_SPECTATOR), std::chrono::steady_clock::now());
  EXPECT_FALSE(moves_.type("a1", false));
  EXPECT_TRUE(has(screen_.take(), "You are watching this game: spectators can't move"));

  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  play_as_x(over);
  EXPECT_FALSE(moves_.type("c3", false));
  EXPECT_TRUE(has(screen_.take(), "The game is over: /rematch to play again"));
  EXPECT_TRUE(sender_.sent.empty());
}

TEST_F(TypedMovesTest, AMoveTypedAheadThatIsNoLongerLegalIsSaidAndDropped) {
  play_as_x(after_move(game_in_progress(), 4));
  moves_.type("a1", false);
  game_.update(after_move(after_move(game_in_progress(), 4), 0), std::chrono::steady_clock::now());
  screen_.take();
  moves_.play();
  EXPECT_TRUE(has(screen_.take(), "(a1): choose another cell"));
  EXPECT_TRUE(sender_.sent.empty());
  EXPECT_TRUE(moves_.empty());
}

TEST_F(TypedMovesTest, ARefusedMoveLetsTheNextGo) {
  play_as_x(game_in_progress());
  moves_.type("a1", false);
  moves_.type("a2", false);
  moves_.refused(99);  // another request's refusal
  EXPECT_TRUE(moves_.in_flight());
  moves_.refused(1);
  EXPECT_FALSE(moves_.in_flight());
  moves_.play();
  ASSERT_EQ(sender_.sent.size(), 2u);
  EXPECT_EQ(move_sent(1), "1 0");
}

TEST_F(TypedMovesTest, WithoutAConnectionTheMoveWaits) {
  play_as_x(game_in_progress());
  sender_.connected = false;
  moves_.type("a1", false);
  EXPECT_FALSE(moves_.in_flight());
  EXPECT_FALSE(moves_.empty());
  sender_.connected = true;
  moves_.play();
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_EQ(move_sent(0), "0 0");
}

TEST_F(TypedMovesTest, AnUnansweredMoveIsSaidToWaitOnce) {
  play_as_x(game_in_progress());
  moves_.type("a1", false);
  screen_.take();
  const auto now = std::chrono::steady_clock::now();
  moves_.tick(now + TypedMoves::kAnswerWait + std::chrono::seconds(1));
  EXPECT_TRUE(has(screen_.take(), "(Your move is sent; no answer from the server yet"));
  moves_.tick(now + TypedMoves::kAnswerWait + std::chrono::seconds(2));
  EXPECT_EQ(screen_.take(), "");
  moves_.forget_in_flight();
  moves_.tick(now + std::chrono::seconds(10));
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(TypedMovesTest, MovesTypedWhileDownGoIfThePositionStands) {
  play_as_x(game_in_progress());
  moves_.type_while_down("b2");
  EXPECT_TRUE(has(screen_.take(), "(b2 is pending: it is sent when the connection is back"));
  moves_.check_after_resume(game_in_progress());
  EXPECT_TRUE(has(screen_.take(), "Sending the moves typed while disconnected."));
  moves_.play();
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_EQ(move_sent(0), "1 1");
}

TEST_F(TypedMovesTest, MovesTypedWhileDownAreDroppedIfThePositionChanged) {
  play_as_x(after_move(game_in_progress(), 4));
  moves_.type_while_down("a1");
  moves_.type_while_down("c3");
  screen_.take();
  const wire::GameState moved_on = after_move(after_move(game_in_progress(), 4), 8);
  moves_.check_after_resume(moved_on);
  EXPECT_TRUE(has(screen_.take(),
                  "Not sent: a1, c3 (the position changed while you were "
                  "disconnected; look at the board and move again)."));
  EXPECT_TRUE(moves_.empty());
}

}  // namespace
}  // namespace ttt::client
