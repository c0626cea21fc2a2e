// The rules with a win length k < N (k in a row on bigger boards): the board
// carries k, any k consecutive marks in a row, a column or any diagonal in
// either direction win, and every rules function answers by the board's k.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "ttt/rules.hpp"

namespace ttt {
namespace {

constexpr LineKind kKinds[] = {LineKind::Row, LineKind::Column, LineKind::Diagonal,
                               LineKind::AntiDiagonal};

// The board of size n and win length k with `mark` on each of the cells.
Board board_with(int n, int k, const std::vector<Move>& cells, Player mark = Player::X) {
  Board board(n, k);
  for (Move m : cells) board.place(m.row * n + m.col, mark);
  return board;
}

// The k cells from (row, col) in the direction of kind.
std::vector<Move> run_cells(LineKind kind, int row, int col, int k) {
  static constexpr int kStep[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  const auto* step = kStep[static_cast<int>(kind)];
  std::vector<Move> cells;
  for (int i = 0; i < k; ++i) cells.push_back({row + step[0] * i, col + step[1] * i});
  return cells;
}

// Every run of k cells that fits on an n×n board, by kind and start.
std::vector<Line> every_run(int n, int k) {
  std::vector<Line> runs;
  for (LineKind kind : kKinds) {
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < n; ++col) {
        bool fits = true;
        for (Move m : run_cells(kind, row, col, k)) {
          fits = fits && m.row >= 0 && m.col >= 0 && m.row < n && m.col < n;
        }
        if (fits) runs.push_back({kind, 0, {row, col}, k});
      }
    }
  }
  return runs;
}

// --- the board carries k ----------------------------------------------------

TEST(WinLength, DefaultsToTheSizeTheOriginsRule) {
  EXPECT_EQ(Board(3).win_length(), 3);
  EXPECT_EQ(Board(15).win_length(), 15);
  EXPECT_EQ(Board(0).win_length(), 0);
  EXPECT_TRUE(Board(7).whole_lines());
  EXPECT_EQ(Board(4, 4), Board(4));
  EXPECT_EQ(Board::parse("EEEEXEEEE")->win_length(), 3);
  EXPECT_EQ(Board::from_cells("OEXEEXOEXXEEEEEE")->win_length(), 4);
}

TEST(WinLength, IsKeptByTheBoardAndItsCopies) {
  const Board board(15, 5);
  EXPECT_EQ(board.win_length(), 5);
  EXPECT_FALSE(board.whole_lines());
  const Board after = make_move(board, 7, 7, Player::X);
  EXPECT_EQ(after.win_length(), 5);
  EXPECT_NE(Board(15, 5), Board(15));
  EXPECT_EQ(Board::parse(std::string(225, 'E'), 5), Board(15, 5));
  EXPECT_EQ(Board::from_cells(std::string(16, 'E'), 3), Board(4, 3));
}

TEST(WinLength, MustBeFromThreeToTheSize) {
  for (auto [n, k] : {std::pair{15, 2}, {15, 16}, {15, -1}, {3, 4}, {4, 2}, {19, 20}, {2, 3}}) {
    EXPECT_FALSE(Board::valid_win_length(n, k)) << n << " " << k;
    EXPECT_THROW(Board(n, k), std::invalid_argument) << n << " " << k;
    EXPECT_THROW(Game(n, k), std::invalid_argument) << n << " " << k;
    if (n * n <= Board::kMaxCells) {
      EXPECT_FALSE(Board::parse(std::string(n * n, 'E'), k)) << n << " " << k;
      EXPECT_FALSE(Board::from_cells(std::string(n * n, 'E'), k)) << n << " " << k;
    }
  }
  for (auto [n, k] : {std::pair{3, 3}, {4, 3}, {15, 5}, {19, 3}, {19, 19}, {2, 2}, {1, 1}}) {
    EXPECT_TRUE(Board::valid_win_length(n, k)) << n << " " << k;
    EXPECT_NO_THROW(Board(n, k)) << n << " " << k;
  }
}

TEST(WinLength, TheErrorSaysWhatWasWrong) {
  try {
    Board(15, 2);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "win length on a 15x15 board must be 3..15, got 2");
  }
}

TEST(WinLength, BoardsUpToTwentyByTwenty) {
  EXPECT_EQ(Board::kMaxSize, 20);
  const Board board(20, 5);
  EXPECT_EQ(board.cell_count(), 400);
  EXPECT_TRUE(is_valid_move(board, 19, 19, Player::X));
  EXPECT_FALSE(is_valid_move(board, 20, 19, Player::X));
  EXPECT_TRUE(Board::parse(std::string(400, 'E'), 5));
  EXPECT_FALSE(Board::parse(std::string(441, 'E'), 5));
}

// --- winner? with k < N -----------------------------------------------------

TEST(RunWinner, EveryRunOfKWinsOnEveryBoardForBothPlayers) {
  // Rectangular line sets: every start of every direction, edges and corners
  // included, on every size up to 9 and every k below it.
  for (int n = 4; n <= 9; ++n) {
    for (int k = 3; k < n; ++k) {
      const std::vector<Line> runs = every_run(n, k);
      const int fits = n - k + 1;
      ASSERT_EQ(static_cast<int>(runs.size()), 2 * n * fits + 2 * fits * fits) << n << " " << k;
      for (const Line& run : runs) {
        const std::vector<Move> cells = run_cells(run.kind, run.start.row, run.start.col, k);
        for (Player p : {Player::X, Player::O}) {
          const Board board = board_with(n, k, cells, p);
          ASSERT_EQ(winner(board), p) << n << " " << k << " " << line_name(run);
          const auto line = winning_line(board);
          ASSERT_TRUE(line);
          EXPECT_EQ(line->kind, run.kind);
          EXPECT_EQ(line->start, run.start);
          EXPECT_EQ(line->length, k);
          EXPECT_EQ(line_cells(*line, n), cells);
          for (Move m : cells) ASSERT_EQ(winner_at(board, m.row, m.col), p) << line_name(run);
        }
        // One cell short of the run wins nothing, wherever the gap is.
        for (std::size_t gap = 0; gap < cells.size(); ++gap) {
          std::vector<Move> broken = cells;
          broken.erase(broken.begin() + static_cast<long>(gap));
          const Board board = board_with(n, k, broken);
          ASSERT_EQ(winner(board), std::nullopt) << n << " " << k << " " << line_name(run);
          for (Move m : broken) ASSERT_EQ(winner_at(board, m.row, m.col), std::nullopt);
        }
      }
    }
  }
}

TEST(RunWinner, FiveInARowOnFifteenByFifteenAtEveryDiagonal) {
  for (int offset = -10; offset <= 10; ++offset) {
    // A diagonal run touching the board's edge at its top end.
    const Move start = offset >= 0 ? Move{0, offset} : Move{-offset, 0};
    const Board down = board_with(15, 5, run_cells(LineKind::Diagonal, start.row, start.col, 5));
    ASSERT_EQ(winner(down), Player::X) << offset;
    EXPECT_EQ(winning_line(down)->index, offset);
    const Move anti = offset >= 0 ? Move{0, 14 - offset} : Move{-offset, 14};
    const Board up = board_with(15, 5, run_cells(LineKind::AntiDiagonal, anti.row, anti.col, 5));
    ASSERT_EQ(winner(up), Player::X) << offset;
    EXPECT_EQ(winning_line(up)->index, -offset);
  }
}

TEST(RunWinner, MarksThatOnlyMeetAcrossTheEdgeDoNotWin) {
  // In row-major order these are consecutive, and so are diagonal steps that
  // leave one edge and come back at the other: no run on the board.
  const int n = 7;
  EXPECT_EQ(winner(board_with(n, 4, {{0, 5}, {0, 6}, {1, 0}, {1, 1}})), std::nullopt);
  EXPECT_EQ(winner(board_with(n, 3, {{0, 5}, {1, 6}, {3, 0}})), std::nullopt);
  EXPECT_EQ(winner(board_with(n, 3, {{0, 1}, {1, 0}, {1, 6}})), std::nullopt);
  EXPECT_EQ(winner(board_with(n, 3, {{5, 6}, {6, 0}, {6, 1}})), std::nullopt);
}

TEST(RunWinner, ALongerRunWinsAndNamesItsFirstKCells) {
  const Board board = board_with(15, 5, run_cells(LineKind::Row, 4, 2, 7));
  EXPECT_EQ(winner(board), Player::X);
  EXPECT_EQ(winning_line(board), (Line{LineKind::Row, 4, {4, 2}, 5}));
  EXPECT_EQ(winner_at(board, 4, 8), Player::X);
}

TEST(RunWinner, AWholeLineStillWinsButIsNotNeededAnyMore) {
  EXPECT_EQ(winner(board_with(5, 3, run_cells(LineKind::Row, 0, 0, 5))), Player::X);
  // Four in a row on 5×5 with k = 5 is nothing; with k = 4 it wins.
  const std::vector<Move> four = run_cells(LineKind::AntiDiagonal, 1, 4, 4);
  EXPECT_EQ(winner(board_with(5, 5, four)), std::nullopt);
  EXPECT_EQ(winner(board_with(5, 4, four)), Player::X);
}

TEST(RunWinner, TheOriginsShortDiagonalWinsWhenKIsThree) {
  // The origin's 4×4 example: no winner when k = N, X wins when k = 3.
  EXPECT_EQ(winner(*Board::from_cells("OEXEEXOEXXEEEEEE")), std::nullopt);
  const Board k3 = *Board::from_cells("OEXEEXOEXXEEEEEE", 3);
  EXPECT_EQ(winner(k3), Player::X);
  EXPECT_EQ(winning_line(k3), (Line{LineKind::AntiDiagonal, -1, {0, 2}, 3}));
  EXPECT_EQ(winner_at(k3, 1, 1), Player::X);
}

TEST(RunWinner, WinnerAtLooksOnlyThroughTheCell) {
  Board board = board_with(15, 5, run_cells(LineKind::Column, 3, 9, 5), Player::O);
  board.place(0, Player::X);
  EXPECT_EQ(winner_at(board, 5, 9), Player::O);
  EXPECT_EQ(winner_at(board, 0, 0), std::nullopt);
  EXPECT_EQ(winner_at(board, 2, 9), std::nullopt);
  EXPECT_EQ(winner_at(board, 99, -1), std::nullopt);
}

TEST(RunWinner, WinningLineNamesXFirstOnHandWrittenBoards) {
  Board board = board_with(6, 3, run_cells(LineKind::Row, 5, 0, 3), Player::O);
  for (Move m : run_cells(LineKind::Column, 0, 5, 3)) board.place(m.row * 6 + m.col, Player::X);
  EXPECT_EQ(winner(board), Player::X);
  EXPECT_EQ(winning_line(board), (Line{LineKind::Column, 5, {0, 5}, 3}));
}

TEST(RunWinner, DrawIsAFullBoardWithoutARun) {
  // 4×4, k = 3: rows of XXOO / OOXX alternate so no three line up anywhere.
  const Board board = *Board::from_cells("XXOOOOXXXXOOOOXX", 3);
  EXPECT_EQ(winner(board), std::nullopt);
  EXPECT_TRUE(is_draw(board));
  EXPECT_FALSE(is_draw(*Board::from_cells("XXXOOOXXXXOOOOXX", 3)));
}

// --- naming a run ------------------------------------------------------------

TEST(RunName, SaysWhereTheRunLiesInTheClientsLabels) {
  EXPECT_EQ(line_name({LineKind::Row, 2, {2, 2}, 5}), "row 3 from c3 to g3");
  EXPECT_EQ(line_name({LineKind::Column, 3, {1, 3}, 5}), "column d from d2 to d6");
  EXPECT_EQ(line_name({LineKind::Diagonal, 0, {1, 1}, 5}), "diagonal from b2 to f6");
  EXPECT_EQ(line_name({LineKind::AntiDiagonal, 0, {0, 6}, 5}), "anti-diagonal from g1 to c5");
  EXPECT_EQ(line_name({LineKind::Row, 18, {18, 14}, 5}), "row 19 from o19 to s19");
}

TEST(RunName, WholeLinesKeepTheirNames) {
  EXPECT_EQ(line_name({LineKind::Row, 0}), "row 1");
  EXPECT_EQ(line_name({LineKind::AntiDiagonal, 0}), "anti-diagonal");
}

TEST(RunCells, NeverNameACellOffTheBoard) {
  EXPECT_EQ(line_cells({LineKind::Row, 0, {0, 12}, 5}, 15),
            (std::vector<Move>{{0, 12}, {0, 13}, {0, 14}}));
  EXPECT_TRUE(line_cells({LineKind::Column, 0, {-9, 0}, 5}, 15).empty());
  EXPECT_EQ(line_cells({LineKind::Diagonal, 0, {0, 0}, 1 << 30}, 3).size(), 3u);
  EXPECT_TRUE(line_cells({LineKind::AntiDiagonal, 0, {1 << 30, 1 << 30}, 1 << 30}, 19).empty());
}

// --- Game with k ---------------------------------------------------------------

TEST(RunGame, FiveInARowEndsTheGame) {
  Game game(15, 5);
  EXPECT_EQ(game.win_length(), 5);
  const int moves[][2] = {{7, 7}, {0, 0}, {8, 8}, {0, 1}, {9, 9}, {0, 2}, {10, 10}, {14, 0}};
  for (const auto& m : moves) ASSERT_EQ(game.play(game.to_move(), m[0], m[1]), std::nullopt);
  EXPECT_EQ(game.status(), GameStatus::InProgress);
  ASSERT_EQ(game.play(Player::X, 6, 6), std::nullopt);
  EXPECT_EQ(game.status(), GameStatus::XWon);
  EXPECT_EQ(game.winning_line(), (Line{LineKind::Diagonal, 0, {6, 6}, 5}));
  EXPECT_EQ(game.play(Player::O, 1, 1), MoveError::GameOver);
}

TEST(RunGame, TheSameMovesDoNotWinUnderTheWholeLineRule) {
  Game game(15);
  const int moves[][2] = {{7, 7}, {0, 0},   {8, 8},  {0, 1}, {9, 9},
                          {0, 2}, {10, 10}, {14, 0}, {6, 6}};
  for (const auto& m : moves) ASSERT_EQ(game.play(game.to_move(), m[0], m[1]), std::nullopt);
  EXPECT_EQ(game.status(), GameStatus::InProgress);
}

TEST(RunGame, ThreeInARowOnFourByFour) {
  Game game(4, 3);
  for (auto [r, c] : {std::pair{1, 1}, {0, 0}, {1, 2}, {3, 3}}) {
    ASSERT_EQ(game.play(game.to_move(), r, c), std::nullopt);
  }
  ASSERT_EQ(game.play(Player::X, 1, 3), std::nullopt);
  EXPECT_EQ(game.status(), GameStatus::XWon);
  EXPECT_EQ(game.winning_line(), (Line{LineKind::Row, 1, {1, 1}, 3}));
}

// Whether a player could still complete a line (what a clock that runs out
// decides by): the origin's whole lines, and runs of k.
TEST(CanStillWin, AnEmptyBoardLeavesEveryLineOpen) {
  for (int n : {3, 4, 15}) {
    for (Player p : {Player::X, Player::O}) EXPECT_TRUE(can_still_win(Board(n), p)) << n;
  }
  EXPECT_TRUE(can_still_win(Board(15, 5), Player::O));
}

TEST(CanStillWin, AWholeLineRuleBoardWithEveryLineBlocked) {
  // X O X / X O O / O X _: every line through the free cell holds marks of
  // both players, and every other line is full.
  const auto board = Board::parse("XOXXOOOXE");
  ASSERT_TRUE(board);
  EXPECT_FALSE(can_still_win(*board, Player::O)) << "c3 can't complete a line of O's";
  EXPECT_FALSE(can_still_win(*board, Player::X)) << "nor of X's";
  // One line open: the diagonal a1 b2 c3 with only Os and a free cell.
  const auto open = Board::parse("OXXEOXEEE");
  ASSERT_TRUE(open);
  EXPECT_TRUE(can_still_win(*open, Player::O));
}

TEST(CanStillWin, AShortDiagonalDoesNotCountUnderTheWholeLineRule) {
  // 4x4, whole lines: every row, column and main diagonal holds an O, only
  // a three-cell diagonal (b1 c2 d3) is free of them: X can't win any more.
  Board board(4);
  for (Move m : std::vector<Move>{{0, 0}, {1, 3}, {2, 1}, {3, 2}, {1, 1}, {2, 2}}) {
    board.place(m.row * 4 + m.col, Player::O);
  }
  EXPECT_FALSE(can_still_win(board, Player::X));
  EXPECT_TRUE(can_still_win(Board(4, 3), Player::X));
}

TEST(CanStillWin, ARunOfKNeedsKCellsFreeOfTheOpponentInOneLine) {
  // 5x5, four in a row: Os on every fourth cell of each line block all runs.
  Board board(5, 4);
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 5; ++c) {
      if ((r + c) % 2 == 0 && (r * 5 + c) % 3 != 2) board.place(r * 5 + c, Player::O);
    }
  }
  const bool x_can = can_still_win(board, Player::X);
  // Checked against a brute force over every run of four.
  bool brute = false;
  for (LineKind kind : kKinds) {
    for (int r = 0; r < 5; ++r) {
      for (int c = 0; c < 5; ++c) {
        const auto cells = run_cells(kind, r, c, 4);
        bool fits = true;
        for (Move m : cells) {
          if (m.row < 0 || m.row >= 5 || m.col < 0 || m.col >= 5 ||
              board.at(m.row, m.col) == Cell::O) {
            fits = false;
          }
        }
        brute = brute || fits;
      }
    }
  }
  EXPECT_EQ(x_can, brute);
  Board blocked(4, 3);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      if ((r + c) % 2 == 1 || r == c) blocked.place(r * 4 + c, Player::O);
    }
  }
  EXPECT_FALSE(can_still_win(blocked, Player::X));
}

}  // namespace
}  // namespace ttt
