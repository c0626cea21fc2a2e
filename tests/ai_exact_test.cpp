// The exact solver of 3×3 and 4×4: the game values it computes, checked
// against a plain minimax written independently, the canonical keys, and the
// value of the empty 4×4 board.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>

#include "ai/ai_exact_root.hpp"
#include "ai/ai_exact_solver.hpp"
#include "ttt/rules.hpp"

namespace ttt::internal::ai {
namespace {

// Plain minimax over the rules library, scored like the engine.
int plain_value(const Board& board) {
  int best = -100;
  const Player p = next_player(board);
  for (int cell = 0; cell < board.cell_count(); ++cell) {
    if (board.at_index(cell) != Cell::Empty) continue;
    Board next = board;
    next.place(cell, p);
    const int empties = next.cell_count() - next.count(Player::X) - next.count(Player::O);
    const int v = winner(next) ? 1 + empties : next.full() ? 0 : -plain_value(next);
    best = std::max(best, v);
  }
  return best;
}

SmallPosition position_of(const Board& board) {
  const auto& g = small_geometry(board.size());
  const Player me = next_player(board);
  auto bits = [&](Player p) { return static_cast<Mask16>(board.marks(p).to_ulong()); };
  return {&g, bits(me), bits(opponent(me))};
}

int solve(const Board& board, ExactTable& table) {
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  return *solver.value(position_of(board));
}

// A random position of play on an n×n board with `marks` marks and no winner.
std::optional<Board> random_position(int n, int marks, std::mt19937& rng) {
  Board board(n);
  for (int i = 0; i < marks; ++i) {
    std::vector<int> empty;
    for (int c = 0; c < n * n; ++c) {
      if (board.at_index(c) == Cell::Empty) empty.push_back(c);
    }
    board.place(empty[rng() % empty.size()], next_player(board));
    if (winner(board)) return std::nullopt;
  }
  return board;
}

TEST(ExactSolver, EmptyFourByFourBoardIsADraw) {
  ExactTable table;
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  const auto value = solver.value(position_of(Board(4)));
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, 0);
  RecordProperty("nodes", std::to_string(limits.nodes()));
}

TEST(ExactSolver, EmptyThreeByThreeBoardIsADraw) {
  ExactTable table;
  EXPECT_EQ(solve(Board(3), table), 0);
}

TEST(ExactSolver, OneByOneIsWonByXAtOnceAndTwoByTwoOnItsThirdMove) {
  ExactTable table;
  EXPECT_EQ(solve(Board(1), table), 1);  // the win leaves 0 cells: 1 + 0
  EXPECT_EQ(solve(Board(2), table), 2);  // X's second mark leaves 1 cell
}

TEST(ExactSolver, AgreesWithPlainMinimaxOnEveryReachable3x3Position) {
  ExactTable table(12);  // small, so that replacement is exercised too
  std::map<std::string, Board> seen;
  std::vector<Board> frontier{Board(3)};
  int checked = 0;
  while (!frontier.empty()) {
    const Board board = frontier.back();
    frontier.pop_back();
    if (winner(board) || board.full() || !seen.emplace(board.to_string(), board).second) continue;
    ASSERT_EQ(solve(board, table), plain_value(board)) << board.to_string();
    ++checked;
    for (int c = 0; c < 9; ++c) {
      if (board.at_index(c) == Cell::Empty)
        frontier.push_back(make_move(board, c / 3, c % 3, next_player(board)));
    }
  }
  EXPECT_EQ(checked, 4520);
}

TEST(ExactSolver, AgreesWithPlainMinimaxOnRandom4x4Positions) {
  ExactTable table;
  std::mt19937 rng(4);
  int checked = 0;
  while (checked < 60) {
    const int marks = 8 + static_cast<int>(rng() % 6);
    const auto board = random_position(4, marks, rng);
    if (!board || board->full()) continue;
    ASSERT_EQ(solve(*board, table), plain_value(*board)) << board->to_string();
    ++checked;
  }
}

TEST(ExactSolver, OptimalMovesOfTheEmpty3x3AreAllNine) {
  ExactTable table;
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  const auto optimal = optimal_moves(solver, position_of(Board(3)));
  ASSERT_TRUE(optimal.has_value());
  EXPECT_EQ(optimal->value, 0);
  EXPECT_EQ(optimal->cells.size(), 9u);
}

TEST(ExactSolver, OnlyTheCentreAnswersACornerOn3x3) {
  ExactTable table;
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  const auto optimal = optimal_moves(solver, position_of(*Board::parse("XEEEEEEEE")));
  ASSERT_TRUE(optimal.has_value());
  EXPECT_EQ(optimal->value, 0);
  EXPECT_EQ(optimal->cells, std::vector<int>{4});
}

TEST(ExactSolver, CornerOpeningSetsMoreTrapsThanCentreOn3x3) {
  ExactTable table;
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  const SmallPosition empty = position_of(Board(3));
  const auto counts = mistake_counts(solver, empty, {0, {0, 1, 4}});
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(*counts, (std::vector<int>{7, 4, 4}));  // corner, edge, centre
}

TEST(ExactSolver, StopsWhenTheNodeCapIsReached) {
  ExactTable table;
  SearchLimits limits(SearchLimits::Clock::time_point::max(), 100);
  ExactSolver solver(table, limits);
  EXPECT_EQ(solver.value(position_of(Board(4))), std::nullopt);
  EXPECT_LE(limits.nodes(), 101u);
}

TEST(CanonicalKey, IsTheSameForAllEightImagesOfAPosition) {
  const auto& g = small_geometry(4);
  std::mt19937 rng(8);
  for (int trial = 0; trial < 200; ++trial) {
    const Mask16 me = static_cast<Mask16>(rng());
    const Mask16 opp = static_cast<Mask16>(rng() & ~me);
    const std::uint64_t key = canonical_key(g, me, opp).key;
    for (int s = 0; s < SmallGeometry::kSymmetries; ++s) {
      EXPECT_EQ(canonical_key(g, g.transform(s, me), g.transform(s, opp)).key, key);
    }
  }
}

TEST(CanonicalKey, SymmetriesMapLinesToLines) {
  for (int n = 1; n <= 4; ++n) {
    const auto& g = small_geometry(n);
    for (int s = 0; s < SmallGeometry::kSymmetries; ++s) {
      for (int i = 0; i < g.line_count; ++i) {
        const Mask16 image = g.transform(s, g.lines[i]);
        EXPECT_NE(std::find(g.lines.begin(), g.lines.begin() + g.line_count, image),
                  g.lines.begin() + g.line_count);
      }
    }
  }
}

}  // namespace
}  // namespace ttt::internal::ai
