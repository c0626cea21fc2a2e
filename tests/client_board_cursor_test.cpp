// BoardCursor: the full screen's cursor starts on a free cell of a new
// board, the centre when it is free, and moves within the board.
#include <gtest/gtest.h>

#include "client_support/game_states.hpp"
#include "console/board_cursor.hpp"

namespace ttt::client {
namespace {

using ttt::testing::after_move;
using ttt::testing::game_in_progress;

TEST(BoardCursor, ANewBoardStartsInTheCentre) {
  BoardCursor cursor;
  cursor.follow(game_in_progress(), true);
  EXPECT_EQ(cursor.at(), (Move{1, 1}));
}

TEST(BoardCursor, ATakenCentreStartsOnTheFirstFreeCell) {
  BoardCursor cursor;
  cursor.follow(after_move(after_move(game_in_progress(), 4), 0), true);
  EXPECT_EQ(cursor.at(), (Move{0, 1}));
}

TEST(BoardCursor, TheSameBoardKeepsTheCursorWhereThePlayerPutIt) {
  BoardCursor cursor;
  cursor.follow(game_in_progress(), true);
  cursor.set(Move{2, 0});
  cursor.follow(after_move(game_in_progress(), 4), false);
  EXPECT_EQ(cursor.at(), (Move{2, 0}));
  wire::GameState other = game_in_progress();
  other.set_game_id(9);
  cursor.follow(other, false);
  EXPECT_EQ(cursor.at(), (Move{1, 1})) << "another game starts afresh";
}

TEST(BoardCursor, ItMovesWithinTheBoard) {
  BoardCursor cursor;
  cursor.follow(game_in_progress(), true);
  cursor.move(-5, 1, 3);
  EXPECT_EQ(cursor.at(), (Move{0, 2}));
  cursor.move(1, 7, 3);
  EXPECT_EQ(cursor.at(), (Move{1, 2}));
}

}  // namespace
}  // namespace ttt::client
