// Game, the origin `play` state machine: the Haskell origin's spec (seed 004),
// test by test under its own names, then what it leaves implicit.
#include "ttt/game.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

namespace ttt {
namespace {

// Plays alternating moves starting with X; every one must be accepted.
void play_all(Game& game, std::initializer_list<std::pair<int, int>> moves) {
  for (auto [row, col] : moves) {
    ASSERT_EQ(game.play(game.to_move(), row, col), std::nullopt) << row << "," << col;
  }
}

// --- acceptance -------------------------------------------------------------

TEST(Acceptance, PlayAFullGame) {
  Game game(3);
  play_all(game, {{1, 1}, {0, 0}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {0, 1}, {2, 1}, {2, 2}});
  EXPECT_EQ(game.status(), GameStatus::Draw);
  EXPECT_EQ(game.board().to_string(), "OXXXXOOOX");
  EXPECT_EQ(game.moves().size(), 9u);
}

// --- game rules -------------------------------------------------------------

TEST(GameRules, AGameStartsWithAllTheFieldsEmptyInTheGrid) {
  Game game(3);
  EXPECT_EQ(game.board().to_string(), "EEEEEEEEE");
  EXPECT_EQ(game.status(), GameStatus::InProgress);
  EXPECT_TRUE(game.moves().empty());
}

TEST(GameRules, TheXPlayerGoesAlwaysFirst) {
  Game game(3);
  EXPECT_EQ(game.to_move(), Player::X);
  EXPECT_EQ(game.play(Player::O, 0, 0), MoveError::NotYourTurn);
  EXPECT_EQ(game.play(Player::X, 0, 0), std::nullopt);
}

TEST(GameRules, APlayerCanTakeAFieldIfNotAlreadyTaken) {
  Game game(3);
  EXPECT_EQ(game.play(Player::X, 2, 2), std::nullopt);
  EXPECT_EQ(game.board().at(2, 2), Cell::X);
}

TEST(GameRules, PlayersTakeTurnsTakingFieldsUntilTheGameIsOver) {
  Game game(3);
  Player expected = Player::X;
  for (auto [row, col] :
       {std::pair{0, 0}, {1, 1}, {0, 1}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}, {2, 2}}) {
    EXPECT_EQ(game.to_move(), expected);
    EXPECT_EQ(game.play(opponent(expected), row, col), MoveError::NotYourTurn);
    EXPECT_EQ(game.play(expected, row, col), std::nullopt);
    expected = opponent(expected);
  }
  EXPECT_TRUE(game.over());
}

TEST(GameRules, AGameIsOverWhenAllFieldsInARowAreTakenByAPlayerThisPlayerWinsTheGame) {
  Game game(3);
  play_all(game, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}});
  EXPECT_EQ(game.status(), GameStatus::XWon);
  EXPECT_EQ(game.winning_line(), (Line{LineKind::Row, 0}));
}

TEST(GameRules, AGameIsOverWhenAllFieldsInAColumnAreTakenByAPlayerThisPlayerWinsTheGame) {
  Game game(3);
  play_all(game, {{0, 0}, {0, 1}, {2, 2}, {1, 1}, {1, 0}, {2, 1}});
  EXPECT_EQ(game.status(), GameStatus::OWon);
  EXPECT_EQ(game.winning_line(), (Line{LineKind::Column, 1}));
}

// The Haskell origin lists the column test twice; its third rule is the
// diagonal, tested here under that name.
TEST(GameRules, AGameIsOverWhenAllFieldsInADiagonalAreTakenByAPlayerThisPlayerWinsTheGame) {
  Game game(3);
  play_all(game, {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {2, 2}});
  EXPECT_EQ(game.status(), GameStatus::XWon);
  EXPECT_EQ(game.winning_line(), (Line{LineKind::Diagonal, 0}));

  Game anti(3);
  play_all(anti, {{0, 2}, {0, 0}, {1, 1}, {0, 1}, {2, 0}});
  EXPECT_EQ(anti.status(), GameStatus::XWon);
  EXPECT_EQ(anti.winning_line(), (Line{LineKind::AntiDiagonal, 0}));
}

TEST(GameRules, AGameIsOverWhenAllFieldsAreTakenThereIsNoWinnerInThisCase) {
  Game game(3);
  play_all(game, {{0, 0}, {1, 1}, {0, 1}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}, {2, 2}});
  EXPECT_EQ(game.status(), GameStatus::Draw);
  EXPECT_EQ(game.winning_line(), std::nullopt);
}

TEST(GameRules, AWinOnTheLastFieldIsAWinNotADraw) {
  Game game(3);
  play_all(game, {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {2, 2}});
  EXPECT_EQ(game.board().to_string(), "XOXXOOOXX");
  EXPECT_EQ(game.status(), GameStatus::Draw);
  Game x_wins_last(3);
  play_all(x_wins_last, {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {1, 0}, {2, 0}, {2, 1}, {2, 2}});
  EXPECT_EQ(x_wins_last.board().to_string(), "XOOOXXXOX");
  EXPECT_EQ(x_wins_last.status(), GameStatus::XWon);
}

// --- game errors ------------------------------------------------------------

TEST(GameErrors, ShouldFailWhenTryingToPlayAWrongFieldPosition) {
  Game game(3);
  EXPECT_EQ(game.play(Player::X, 3, 0), MoveError::OutOfRange);
  EXPECT_EQ(game.play(Player::X, 0, 3), MoveError::OutOfRange);
  EXPECT_EQ(game.play(Player::X, -1, 1), MoveError::OutOfRange);
  EXPECT_EQ(game.board().to_string(), "EEEEEEEEE");
}

TEST(GameErrors, ShouldFailWhenAPlayerPlaysInTheWrongTurn) {
  Game game(3);
  ASSERT_EQ(game.play(Player::X, 0, 0), std::nullopt);
  EXPECT_EQ(game.play(Player::X, 1, 1), MoveError::NotYourTurn);
  EXPECT_EQ(game.board().to_string(), "XEEEEEEEE");
}

TEST(GameErrors, ShouldFailWhenTryingToPlayAnAlreadyMarkedFieldInTheGrid) {
  Game game(3);
  ASSERT_EQ(game.play(Player::X, 1, 1), std::nullopt);
  EXPECT_EQ(game.play(Player::O, 1, 1), MoveError::Occupied);
  EXPECT_EQ(game.to_move(), Player::O);
  EXPECT_EQ(to_string(MoveError::Occupied), "that cell is already taken");
}

TEST(GameErrors, ShouldFailWhenTryingToPlayAFinishedGameWithAWinner) {
  Game game(3);
  play_all(game, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}});
  ASSERT_EQ(game.status(), GameStatus::XWon);
  EXPECT_EQ(game.play(Player::O, 2, 2), MoveError::GameOver);
  EXPECT_EQ(game.play(Player::X, 2, 2), MoveError::GameOver);
  EXPECT_EQ(game.moves().size(), 5u);
}

TEST(GameErrors, ShouldFailWhenTryingToPlayAFinishedGameWithADraw) {
  Game game(3);
  play_all(game, {{0, 0}, {1, 1}, {0, 1}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}, {2, 2}});
  ASSERT_EQ(game.status(), GameStatus::Draw);
  EXPECT_EQ(game.play(Player::O, 0, 0), MoveError::GameOver);
}

TEST(GameErrors, ShouldNotBeValidIfItHasNotNineFieldsInA3x3Grid) {
  // Boards are N×N: a list whose length is no square is no board at all.
  EXPECT_FALSE(Board::parse("EEEEEEEE"));
  EXPECT_FALSE(Board::parse("EEEEEEEEEE"));
  EXPECT_FALSE(is_board("EEEEEEEEEEE"));
  EXPECT_THROW(Game(-3), std::invalid_argument);
  EXPECT_THROW(Game(Board::kMaxSize + 1), std::invalid_argument);
}

// --- beyond the origin ------------------------------------------------------

TEST(GameErrors, GameOverIsReportedBeforeEveryOtherError) {
  Game game(3);
  play_all(game, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}});
  // Wrong turn, off the board and taken all apply; the game is over first.
  EXPECT_EQ(game.play(Player::X, 9, 9), MoveError::GameOver);
  EXPECT_EQ(game.play(Player::X, 0, 0), MoveError::GameOver);
}

TEST(GameErrors, WrongTurnIsReportedBeforeWrongPositionAndTakenField) {
  Game game(3);
  ASSERT_EQ(game.play(Player::X, 0, 0), std::nullopt);
  EXPECT_EQ(game.play(Player::X, 7, 7), MoveError::NotYourTurn);
  EXPECT_EQ(game.play(Player::X, 0, 0), MoveError::NotYourTurn);
}

TEST(GameErrors, RefusedMoveChangesNothing) {
  Game game(3);
  ASSERT_EQ(game.play(Player::X, 0, 0), std::nullopt);
  const Board before = game.board();
  EXPECT_TRUE(game.play(Player::O, 0, 0));
  EXPECT_TRUE(game.play(Player::X, 1, 1));
  EXPECT_TRUE(game.play(Player::O, 3, 3));
  EXPECT_EQ(game.board(), before);
  EXPECT_EQ(game.moves(), (std::vector<Move>{{0, 0}}));
  EXPECT_EQ(game.status(), GameStatus::InProgress);
}

TEST(Game, LargerBoardsNeedTheWholeLine) {
  Game game(4);
  // X takes three of the top row, O three of the second; X completes.
  play_all(game, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}});
  EXPECT_EQ(game.status(), GameStatus::InProgress);
  play_all(game, {{0, 3}});
  EXPECT_EQ(game.status(), GameStatus::XWon);
}

TEST(Game, ZeroByZeroGameIsADrawFromTheStart) {
  Game game(0);
  EXPECT_EQ(game.status(), GameStatus::Draw);
  EXPECT_EQ(game.play(Player::X, 0, 0), MoveError::GameOver);
}

TEST(Game, OneByOneGameIsWonByTheFirstMove) {
  Game game(1);
  EXPECT_EQ(game.play(Player::X, 0, 0), std::nullopt);
  EXPECT_EQ(game.status(), GameStatus::XWon);
}

TEST(Game, StatusAndErrorsHaveReadableNames) {
  EXPECT_EQ(to_string(GameStatus::XWon), "X won");
  EXPECT_EQ(to_string(GameStatus::Draw), "draw");
  EXPECT_EQ(to_string(MoveError::NotYourTurn), "it is not your turn");
  EXPECT_EQ(to_string(Player::O), "O");
}

}  // namespace
}  // namespace ttt
