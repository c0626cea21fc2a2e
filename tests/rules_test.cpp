// The rules functions against every example of the origin documents
// (seeds 000-003), by name, plus their edge cases.
#include "ttt/rules.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>

namespace ttt {
namespace {

Board board_of(std::string_view cells) {
  auto board = Board::from_cells(cells);
  if (!board) throw std::invalid_argument("not a square X/O/E string");
  return *board;
}

// --- board? -----------------------------------------------------------------

TEST(IsBoard, EmptyThreeByThreeIsABoard) { EXPECT_TRUE(is_board("EEEEEEEEE")); }

TEST(IsBoard, XInTheMiddleIsABoard) { EXPECT_TRUE(is_board("EEEEXEEEE")); }

TEST(IsBoard, LengthMustBeASquare) {
  EXPECT_FALSE(is_board("EEEEEEEE"));
  EXPECT_FALSE(is_board("EEEEEEEEEE"));
  EXPECT_FALSE(is_board("EE"));
  EXPECT_TRUE(is_board("E"));
  EXPECT_TRUE(is_board("EEEE"));
  EXPECT_TRUE(is_board(std::string(16 * 16, 'E')));
  EXPECT_TRUE(is_board(std::string(100 * 100, 'E')));
}

TEST(IsBoard, EmptyStringIsTheZeroByZeroBoard) { EXPECT_TRUE(is_board("")); }

TEST(IsBoard, OnlyXOAndEAreCells) {
  EXPECT_FALSE(is_board("EEEEeEEEE"));
  EXPECT_FALSE(is_board("EEEE_EEEE"));
  EXPECT_FALSE(is_board("EEEE EEEE"));
  EXPECT_FALSE(is_board(std::string_view("EEEE\0EEEE", 9)));
  EXPECT_FALSE(is_board("xEEEEEEEE"));
}

TEST(IsBoard, CountsOfXAndODifferByAtMostOne) {
  EXPECT_TRUE(is_board("XOEEEEEEE"));
  EXPECT_TRUE(is_board("XOXEEEEEE"));
  EXPECT_FALSE(is_board("XXEEEEEEE"));
  EXPECT_FALSE(is_board("XXXOEEEEE"));
}

TEST(IsBoard, XMovesFirst) {
  EXPECT_FALSE(is_board("OEEEEEEEE"));
  EXPECT_FALSE(is_board("XOOEEEEEE"));
}

TEST(BoardParse, AcceptsExactlyWhatIsBoardAccepts) {
  for (std::string_view cells : {"EEEEEEEEE", "EEEEXEEEE", "", "X", "XOEE"}) {
    auto board = Board::parse(cells);
    ASSERT_TRUE(board) << cells;
    EXPECT_EQ(board->to_string(), cells);
  }
  for (std::string_view cells : {"EEEEEEEE", "OEEEEEEEE", "XXEEEEEEE", "EEEEZEEEE"}) {
    EXPECT_FALSE(Board::parse(cells)) << cells;
  }
}

TEST(BoardParse, RefusesBoardsLargerThanTheMaximum) {
  EXPECT_TRUE(Board::parse(std::string(Board::kMaxCells, 'E')));
  EXPECT_FALSE(Board::parse(std::string((Board::kMaxSize + 1) * (Board::kMaxSize + 1), 'E')));
}

TEST(Board, EmptyBoardHasTheSizeAsked) {
  Board board(4);
  EXPECT_EQ(board.size(), 4);
  EXPECT_EQ(board.to_string(), std::string(16, 'E'));
  EXPECT_EQ(board.at(3, 3), Cell::Empty);
}

TEST(Board, RefusesSizesOutsideTheRepresentation) {
  EXPECT_THROW(Board(-1), std::invalid_argument);
  EXPECT_THROW(Board(Board::kMaxSize + 1), std::invalid_argument);
  EXPECT_NO_THROW(Board(0));
  EXPECT_NO_THROW(Board{Board::kMaxSize});
}

TEST(Board, AtReadsRowMajorCells) {
  Board board = board_of("OEXEXOEEE");
  EXPECT_EQ(board.at(0, 0), Cell::O);
  EXPECT_EQ(board.at(0, 2), Cell::X);
  EXPECT_EQ(board.at(1, 1), Cell::X);
  EXPECT_EQ(board.at(1, 2), Cell::O);
  EXPECT_EQ(board.at(2, 2), Cell::Empty);
}

TEST(Board, AtOffTheBoardThrowsOutOfRange) {
  Board board(3);
  EXPECT_THROW(board.at(3, 0), std::out_of_range);
  EXPECT_THROW(board.at(0, -1), std::out_of_range);
  EXPECT_THROW(board.at(INT_MIN, INT_MAX), std::out_of_range);
}

// --- next-move --------------------------------------------------------------

TEST(NextPlayer, XMovesFirstOnTheEmptyBoard) { EXPECT_EQ(next_player(Board(3)), Player::X); }

TEST(NextPlayer, AfterXInTheMiddleItIsO) {
  // The origin: (who-move? '(E E E E X E E E E)) returns 'O.
  EXPECT_EQ(next_player(*Board::parse("EEEEXEEEE")), Player::O);
}

TEST(NextPlayer, EqualCountsMeanX) {
  EXPECT_EQ(next_player(*Board::parse("XOEEEEEEE")), Player::X);
}

// --- valid-move? ------------------------------------------------------------

TEST(IsValidMove, EmptyCellOnYourTurnIsValid) {
  EXPECT_TRUE(is_valid_move(Board(3), 0, 0, Player::X));
  EXPECT_TRUE(is_valid_move(*Board::parse("EEEEXEEEE"), 0, 0, Player::O));
}

TEST(IsValidMove, NotYourTurnIsInvalid) {
  EXPECT_FALSE(is_valid_move(Board(3), 0, 0, Player::O));
  EXPECT_FALSE(is_valid_move(*Board::parse("EEEEXEEEE"), 0, 0, Player::X));
}

TEST(IsValidMove, TakenCellIsInvalid) {
  EXPECT_FALSE(is_valid_move(*Board::parse("EEEEXEEEE"), 1, 1, Player::O));
}

TEST(IsValidMove, PositionsOutsideTheGridAreInvalidNotACrash) {
  Board board(3);
  for (int bad : {-1, 3, 4, 9, 100, INT_MAX, INT_MIN}) {
    EXPECT_FALSE(is_valid_move(board, bad, 0, Player::X)) << bad;
    EXPECT_FALSE(is_valid_move(board, 0, bad, Player::X)) << bad;
    EXPECT_FALSE(is_valid_move(board, bad, bad, Player::X)) << bad;
  }
  // (0, 3) would alias (1, 0) in a flat list if columns were not checked.
  EXPECT_FALSE(is_valid_move(board, 0, 3, Player::X));
  EXPECT_FALSE(is_valid_move(Board(0), 0, 0, Player::X));
}

TEST(IsValidMove, WorksOnArbitraryNByNBoards) {
  Board board(5);
  EXPECT_TRUE(is_valid_move(board, 4, 4, Player::X));
  EXPECT_FALSE(is_valid_move(board, 5, 0, Player::X));
}

// --- make-move --------------------------------------------------------------

TEST(MakeMove, OInTheCornerOfTheOriginExample) {
  // The origin: (make-move '(E E E E X E E E E) 0 0 'O) returns
  // '(O E E E X E E E E).
  Board after = make_move(*Board::parse("EEEEXEEEE"), 0, 0, Player::O);
  EXPECT_EQ(after.to_string(), "OEEEXEEEE");
}

TEST(MakeMove, XInTheMiddleOfTheEmptyBoard) {
  EXPECT_EQ(make_move(Board(3), 1, 1, Player::X).to_string(), "EEEEXEEEE");
}

TEST(MakeMove, LeavesTheOriginalBoardAlone) {
  Board before(3);
  (void)make_move(before, 2, 1, Player::X);
  EXPECT_EQ(before.to_string(), "EEEEEEEEE");
}

#ifdef NDEBUG
TEST(MakeMove, InvalidMoveThrowsInsteadOfCorruptingTheBoard) {
  Board board = *Board::parse("EEEEXEEEE");
  EXPECT_THROW((void)make_move(board, 1, 1, Player::O), std::invalid_argument);
  EXPECT_THROW((void)make_move(board, 0, 0, Player::X), std::invalid_argument);
  EXPECT_THROW((void)make_move(board, 3, 0, Player::O), std::invalid_argument);
  EXPECT_THROW((void)make_move(board, -1, 0, Player::O), std::invalid_argument);
}
#else
TEST(MakeMoveDeathTest, InvalidMoveAssertsInDebugBuilds) {
  Board board = *Board::parse("EEEEXEEEE");
  EXPECT_DEATH((void)make_move(board, 1, 1, Player::O), "precondition");
}
#endif

// --- winner? ----------------------------------------------------------------

TEST(Winner, NoWinnerYetAfterOneMoveEach) {
  // The origin: '(O E E E X E E E E) has no winner.
  EXPECT_EQ(winner(board_of("OEEEXEEEE")), std::nullopt);
}

TEST(Winner, XWinsWithAFullColumn) {
  // The origin: O X O / E X E / E X E returns 'X.
  Board board = board_of("OXOEXEEXE");
  EXPECT_EQ(winner(board), Player::X);
  EXPECT_EQ(winning_line(board), (Line{LineKind::Column, 1}));
}

TEST(Winner, ShortDiagonalInsideAFourByFourBoardDoesNotWin) {
  // The origin: a length-three diagonal of X on a 4×4 board is no win, "it
  // would have to be the longest diagonal".
  EXPECT_EQ(winner(board_of("OEXEEXOEXXEEEEEE")), std::nullopt);
}

TEST(Winner, XWinsWithTheBottomRow) {
  // Seed 001: O O X / _ O _ / X X X.
  Board board = board_of("OOXEOEXXX");
  EXPECT_EQ(winner(board), Player::X);
  EXPECT_EQ(winning_line(board), (Line{LineKind::Row, 2}));
}

TEST(Winner, XWinsWithTheForwardDiagonal) {
  // Seed 001: X O X / O X O / X _ _; the forward diagonal is X X X.
  Board board = board_of("XOXOXOXEE");
  EXPECT_EQ(winner(board), Player::X);
  EXPECT_EQ(winning_line(board), (Line{LineKind::AntiDiagonal, 0}));
}

TEST(Winner, MainDiagonalWins) {
  EXPECT_EQ(winner(board_of("XOOEXEEEX")), Player::X);
  EXPECT_EQ(winner(board_of("OXXEOXEEO")), Player::O);
}

TEST(Winner, EveryOneOfTheEightThreeByThreeLinesWinsForBothPlayers) {
  // Seed 003's table of winning positions.
  const int wins[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                          {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
  for (const auto& win : wins) {
    for (char mark : {'X', 'O'}) {
      std::string cells(9, 'E');
      for (int i : win) cells[i] = mark;
      Board board = board_of(cells);
      EXPECT_EQ(winner(board), mark == 'X' ? Player::X : Player::O) << cells;
      EXPECT_EQ(winner_at(board, win[1] / 3, win[1] % 3), winner(board)) << cells;
    }
  }
}

TEST(Winner, TwoInARowIsNoWin) { EXPECT_EQ(winner(board_of("XXEOOEEEE")), std::nullopt); }

TEST(Winner, FullRowOnLargeBoards) {
  for (int n : {4, 8, 15, 16}) {
    std::string cells(n * n, 'E');
    for (int c = 0; c < n; ++c) cells[(n - 1) * n + c] = 'O';
    EXPECT_EQ(winner(board_of(cells)), Player::O) << n;
    cells[(n - 1) * n] = 'X';
    EXPECT_EQ(winner(board_of(cells)), std::nullopt) << n;
  }
}

TEST(Winner, OneByOneBoardIsWonByTheFirstMove) {
  EXPECT_EQ(winner(board_of("X")), Player::X);
  EXPECT_EQ(winner(board_of("E")), std::nullopt);
}

TEST(WinnerAt, ChecksOnlyLinesThroughTheCell) {
  Board board = board_of("OXOEXEEXE");
  EXPECT_EQ(winner_at(board, 2, 1), Player::X);
  EXPECT_EQ(winner_at(board, 0, 0), std::nullopt);
  EXPECT_EQ(winner_at(board, 1, 0), std::nullopt);
  EXPECT_EQ(winner_at(board, -1, 7), std::nullopt);
}

TEST(LineName, UsesTheClientsLabels) {
  EXPECT_EQ(line_name({LineKind::Row, 0}), "row 1");
  EXPECT_EQ(line_name({LineKind::Column, 1}), "column b");
  EXPECT_EQ(line_name({LineKind::Diagonal, 0}), "diagonal");
  EXPECT_EQ(line_name({LineKind::AntiDiagonal, 0}), "anti-diagonal");
}

TEST(LineCells, AllSequencesOfTheSeedExample) {
  // Seed 001: the grid X O X / O X O / X _ _ has these sequences: rows, columns,
  // the forward diagonal (the seed's X X X) and the backward one (X X _).
  const Board board = board_of("XOXOXOXEE");
  auto marks = [&](Line line) {
    std::string out;
    for (const Move& m : line_cells(line, 3)) {
      if (!out.empty()) out += ' ';
      const Cell c = board.at(m.row, m.col);
      out += c == Cell::X ? 'X' : c == Cell::O ? 'O' : '_';
    }
    return out;
  };
  EXPECT_EQ(marks({LineKind::Row, 0}), "X O X");
  EXPECT_EQ(marks({LineKind::Row, 1}), "O X O");
  EXPECT_EQ(marks({LineKind::Row, 2}), "X _ _");
  EXPECT_EQ(marks({LineKind::Column, 0}), "X O X");
  EXPECT_EQ(marks({LineKind::Column, 1}), "O X _");
  EXPECT_EQ(marks({LineKind::Column, 2}), "X O _");
  EXPECT_EQ(marks({LineKind::AntiDiagonal, 0}), "X X X");
  EXPECT_EQ(marks({LineKind::Diagonal, 0}), "X X _");
}

TEST(LineCells, AntiDiagonalRunsFromTopRight) {
  EXPECT_EQ(line_cells({LineKind::AntiDiagonal, 0}, 3),
            (std::vector<Move>{{0, 2}, {1, 1}, {2, 0}}));
}

// --- draw -------------------------------------------------------------------

TEST(IsDraw, FullBoardWithoutWinnerIsADraw) {
  // Seed 002's intro board: O O X / X X O / O X X.
  Board board = *Board::parse("OOXXXOOXX");
  EXPECT_EQ(winner(board), std::nullopt);
  EXPECT_TRUE(is_draw(board));
}

TEST(IsDraw, OnlyAFullBoardIsADraw) {
  // Seed 001: "we will only declare a draw when the board is fully filled",
  // even when no line can be won any more.
  EXPECT_FALSE(is_draw(*Board::parse("XOXXOOOXE")));
}

TEST(IsDraw, FullBoardWithAWinnerIsNoDraw) { EXPECT_FALSE(is_draw(*Board::parse("XXXOOXXOO"))); }

}  // namespace
}  // namespace ttt
