// calculate_next_move's contract: preconditions reported by exception, a
// legal move at every level and size, immediate wins taken and immediate
// losses blocked, and the same move for the same inputs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

#include "ai_test_support.hpp"

namespace ttt {
namespace {

using ::testing::HasSubstr;

constexpr Level kAllLevels[] = {Level::Random, Level::Easy, Level::Medium, Level::Hard,
                                Level::Perfect};

Board board_of(std::string_view cells) { return *Board::from_cells(cells); }

std::string failure_of(const Board& board, Player p) {
  try {
    calculate_next_move(board, p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

// A random position of play with no winner and an empty cell.
Board random_open_position(int n, std::mt19937& rng) {
  for (;;) {
    Board board(n);
    const int marks = static_cast<int>(rng() % (n * n));
    for (int i = 0; i < marks && !winner(board); ++i) {
      std::vector<int> empty;
      for (int c = 0; c < n * n; ++c) {
        if (board.at_index(c) == Cell::Empty) empty.push_back(c);
      }
      board.place(empty[rng() % empty.size()], next_player(board));
    }
    if (!winner(board) && !board.full()) return board;
  }
}

TEST(AiPreconditions, ThrowsOnAWonBoard) {
  EXPECT_THAT(failure_of(*Board::parse("XXXOOEEEE"), Player::O), HasSubstr("already won"));
}

TEST(AiPreconditions, ThrowsOnAFullBoard) {
  EXPECT_THAT(failure_of(*Board::parse("XOXXOOOXX"), Player::O), HasSubstr("full"));
}

TEST(AiPreconditions, ThrowsOnTheEmptyZeroByZeroBoard) {
  EXPECT_THAT(failure_of(Board(0), Player::X), HasSubstr("full"));
}

TEST(AiPreconditions, ThrowsWhenItIsNotThePlayersTurn) {
  EXPECT_THAT(failure_of(Board(3), Player::O), HasSubstr("not O's turn"));
  EXPECT_THAT(failure_of(*Board::parse("XEEEEEEEE"), Player::X), HasSubstr("not X's turn"));
}

TEST(AiPreconditions, ThrowsOnAPositionThatCannotArise) {
  EXPECT_THAT(failure_of(board_of("XXEEEEEEE"), Player::O), HasSubstr("not a position of play"));
  EXPECT_THAT(failure_of(board_of("OEEEEEEEE"), Player::X), HasSubstr("not a position of play"));
}

TEST(AiPreconditions, ThrowsAtEveryLevel) {
  for (Level level : kAllLevels) {
    EXPECT_THROW(calculate_next_move(*Board::parse("XXXOOEEEE"), Player::O, {.level = level}),
                 std::invalid_argument);
  }
}

TEST(AiMoves, EveryLevelPlaysALegalMoveOnEverySizeFrom1To16) {
  std::mt19937 rng(16);
  for (int n = 1; n <= Board::kMaxSize; ++n) {
    for (Level level : kAllLevels) {
      const Board board = random_open_position(n, rng);
      const Player p = next_player(board);
      const Move m = calculate_next_move(board, p, {level, std::chrono::milliseconds(5), 1});
      EXPECT_TRUE(is_valid_move(board, m.row, m.col, p))
          << to_string(level) << " n=" << n << " " << board.to_string();
    }
  }
}

TEST(AiMoves, AZeroBudgetStillGivesALegalMove) {
  std::mt19937 rng(0);
  for (int n : {3, 4, 5, 9, 16}) {
    for (Level level : kAllLevels) {
      const Board board = random_open_position(n, rng);
      const Player p = next_player(board);
      const Move m = calculate_next_move(board, p, {level, std::chrono::milliseconds(0)});
      EXPECT_TRUE(is_valid_move(board, m.row, m.col, p)) << to_string(level) << " n=" << n;
    }
  }
}

TEST(AiMoves, EasyAndUpTakeAnImmediateWin) {
  // X to move can complete row 0 on 3×3, or row 0 on 5×5.
  for (std::string_view cells : {"XXEOOEEEE", "XXXXEOOOOEEEEEEEEEEEEEEEE"}) {
    const Board board = *Board::parse(cells);
    for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
      const Move m = calculate_next_move(board, Player::X, {.level = level});
      EXPECT_EQ(m.row, 0) << to_string(level) << " " << cells;
      EXPECT_EQ(m.col, board.size() - 1) << to_string(level) << " " << cells;
    }
  }
}

TEST(AiMoves, EasyAndUpBlockAnImmediateLoss) {
  // O to move must block X's row 0.
  for (std::string_view cells : {"XXEOEEEEE", "XXXXEOOEOEEEEEEEEEEEEEEEE"}) {
    const Board board = *Board::parse(cells);
    for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
      const Move m = calculate_next_move(board, Player::O, {.level = level});
      EXPECT_EQ(m.row, 0) << to_string(level) << " " << cells;
      EXPECT_EQ(m.col, board.size() - 1) << to_string(level) << " " << cells;
    }
  }
}

// A board of size n where X holds every cell of `line` but its last; the
// other side holds `others` cells off the line, spread so they make no line.
Board one_short_of(Line line, int n, int others) {
  std::string cells(static_cast<std::size_t>(n * n), 'E');
  const std::vector<Move> on_line = line_cells(line, n);
  for (std::size_t i = 0; i + 1 < on_line.size(); ++i) {
    cells[static_cast<std::size_t>(on_line[i].row * n + on_line[i].col)] = 'X';
  }
  auto on = [&](int cell) {
    for (const Move& m : on_line) {
      if (m.row * n + m.col == cell) return true;
    }
    return false;
  };
  // Knight-ish strides keep O's cells off any single row, column or diagonal.
  for (int k = 0, cell = 1; k < others; cell = (cell + 2 * n + 3) % (n * n)) {
    if (cells[static_cast<std::size_t>(cell)] == 'E' && !on(cell)) {
      cells[static_cast<std::size_t>(cell)] = 'O';
      ++k;
    }
  }
  auto board = Board::parse(cells);
  EXPECT_TRUE(board.has_value()) << cells;
  EXPECT_EQ(winner(*board), std::nullopt) << cells;
  return *board;
}

TEST(AiMoves, EasyAndUpWinAndBlockInOneOnEveryKindOfLineUpToFifteen) {
  for (int n : {4, 7, 10, 15}) {
    for (Line line : {Line{LineKind::Row, n / 2}, Line{LineKind::Column, 1},
                      Line{LineKind::Diagonal, 0}, Line{LineKind::AntiDiagonal, 0}}) {
      const Move last = line_cells(line, n).back();
      const Board x_to_win = one_short_of(line, n, n - 1);
      const Board o_to_block = one_short_of(line, n, n - 2);
      for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
        const AiOptions options{.level = level, .budget = std::chrono::milliseconds(50)};
        EXPECT_EQ(calculate_next_move(x_to_win, Player::X, options), last)
            << to_string(level) << " wins " << line_name(line) << " n=" << n;
        EXPECT_EQ(calculate_next_move(o_to_block, Player::O, options), last)
            << to_string(level) << " blocks " << line_name(line) << " n=" << n;
      }
    }
  }
}

TEST(AiMoves, PerfectWinsAtOnceRatherThanBlocking) {
  // X can complete row 0 at (0, 2), which also blocks O's anti-diagonal.
  const Board board = *Board::parse("XXEXOEOEO");
  EXPECT_EQ(calculate_next_move(board, Player::X), (Move{0, 2}));
}

TEST(AiDeterminism, SameSeedGivesTheSameMoveAtEveryLevel) {
  std::mt19937 rng(7);
  for (int n : {3, 4, 5, 9, 13}) {
    for (Level level : kAllLevels) {
      const Board board = random_open_position(n, rng);
      const Player p = next_player(board);
      const AiOptions options{level, std::chrono::seconds(10), 42, 3000};
      const Move first = calculate_next_move(board, p, options);
      for (int again = 0; again < 3; ++again) {
        EXPECT_EQ(calculate_next_move(board, p, options), first) << to_string(level) << " n=" << n;
      }
    }
  }
}

TEST(AiDeterminism, DifferentSeedsVaryTheRandomLevel) {
  std::set<std::pair<int, int>> moves;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Move m = calculate_next_move(Board(5), Player::X, {.level = Level::Random, .seed = seed});
    moves.insert({m.row, m.col});
  }
  EXPECT_GT(moves.size(), 5u);
}

TEST(AiDeterminism, PerfectVariesAmongEquallyGoodOpeningsWithTheSeed) {
  std::set<std::pair<int, int>> moves;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Move m = calculate_next_move(Board(3), Player::X, {.seed = seed});
    moves.insert({m.row, m.col});
  }
  // The four corners set the most traps on the empty 3×3 board.
  EXPECT_EQ(moves, (std::set<std::pair<int, int>>{{0, 0}, {0, 2}, {2, 0}, {2, 2}}));
}

}  // namespace
}  // namespace ttt
