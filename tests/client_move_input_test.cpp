// Typed moves: both syntaxes, the board's limits and the one-line reasons.
#include <gtest/gtest.h>

#include "view/move_input.hpp"

namespace ttt::client {
namespace {

TEST(MoveInput, ParsesColumnLetterAndRowNumber) {
  const MoveParse b2 = parse_move("b2", 3);
  ASSERT_TRUE(b2.move);
  EXPECT_EQ(*b2.move, (Move{1, 1}));
  EXPECT_EQ(*parse_move("a3", 3).move, (Move{2, 0}));
  EXPECT_EQ(*parse_move("C1", 3).move, (Move{0, 2}));
  EXPECT_EQ(*parse_move("  o15 ", 15).move, (Move{14, 14}));
}

TEST(MoveInput, ParsesRowAndColumnNumbers) {
  EXPECT_EQ(*parse_move("2 3", 3).move, (Move{1, 2}));
  EXPECT_EQ(*parse_move("1,1", 3).move, (Move{0, 0}));
  EXPECT_EQ(*parse_move("3, 1", 3).move, (Move{2, 0}));
  EXPECT_EQ(*parse_move("10 12", 12).move, (Move{9, 11}));
}

TEST(MoveInput, RefusesCellsOffTheBoardNamingTheLabels) {
  for (const char* text : {"d1", "a4", "a0", "0 1", "4 4", "99999999999 1", "z26"}) {
    const MoveParse parsed = parse_move(text, 3);
    EXPECT_FALSE(parsed.move) << text;
    EXPECT_NE(parsed.error.find("off the board"), std::string::npos) << parsed.error;
    EXPECT_NE(parsed.error.find("columns a-c, rows 1-3"), std::string::npos) << parsed.error;
  }
}

TEST(MoveInput, RefusesTextThatIsNotAMove) {
  for (const char* text : {"hello", "b", "2", "bb2", "2 x", "-1 2", "b2x", "1 2 3"}) {
    const MoveParse parsed = parse_move(text, 3);
    EXPECT_FALSE(parsed.move) << text;
    EXPECT_EQ(parsed.error.find("Not a move"), 0u) << text << ": " << parsed.error;
    EXPECT_EQ(parsed.error.find('\n'), std::string::npos);
  }
}

TEST(MoveInput, LooksLikeMoveOnlyForTheTwoSyntaxes) {
  EXPECT_TRUE(looks_like_move("b2"));
  EXPECT_TRUE(looks_like_move("9 9"));
  EXPECT_FALSE(looks_like_move("hello there"));
  EXPECT_FALSE(looks_like_move("/list"));
}

TEST(MoveInput, TakenCellGetsTheOriginMessage) {
  const Board board = *Board::parse("EEEEXEEEE");
  const auto refusal = move_refusal(board, Move{1, 1}, true);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(*refusal, "That cell is already taken");
}

TEST(MoveInput, NotYourTurnIsRefused) {
  const Board board(3);
  EXPECT_EQ(move_refusal(board, Move{0, 0}, false).value_or(""), "It is not your turn");
  EXPECT_FALSE(move_refusal(board, Move{0, 0}, true));
}

TEST(MoveInput, CellNamesMatchTheSyntax) {
  EXPECT_EQ(cell_name(Move{1, 1}), "b2");
  EXPECT_EQ(cell_name(Move{0, 2}), "c1");
  EXPECT_EQ(cell_name(Move{14, 14}), "o15");
  for (int row = 0; row < 15; ++row) {
    for (int col = 0; col < 15; ++col) {
      EXPECT_EQ(*parse_move(cell_name(Move{row, col}), 15).move, (Move{row, col}));
    }
  }
}

}  // namespace
}  // namespace ttt::client
