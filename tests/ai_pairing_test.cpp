// The pairing strategy behind "never loses" from 5×5 up: a pairing exists
// and is valid for every size from 5 to 16 (and for none below), answering
// with partners blocks every line, and the safe-move check re-pairs positions
// where the fixed pairing was broken.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "ai/ai_line_board.hpp"
#include "ai/ai_pairing.hpp"
#include "ai/ai_pairing_strategy.hpp"
#include "ai_test_support.hpp"

namespace ttt::internal::ai {
namespace {

bool on_line(const LineGeometry& g, int line, int cell) {
  for (int i = 0; i < g.size; ++i) {
    if (g.line_cells[line][i] == cell) return true;
  }
  return false;
}

TEST(Pairing, GivesEveryLineTwoCellsOfItsOwnOnEverySizeFrom5To16) {
  for (int n = 5; n <= Board::kMaxSize; ++n) {
    const LineGeometry& g = line_geometry(n);
    const std::vector<CellPair>& pairs = board_pairing(n);
    ASSERT_EQ(static_cast<int>(pairs.size()), 2 * n + 2) << n;
    std::set<int> used;
    for (int i = 0; i < static_cast<int>(pairs.size()); ++i) {
      const CellPair& pair = pairs[i];
      EXPECT_EQ(pair.line, i);
      EXPECT_TRUE(on_line(g, pair.line, pair.first)) << n;
      EXPECT_TRUE(on_line(g, pair.line, pair.second)) << n;
      EXPECT_TRUE(used.insert(pair.first).second) << "cell used twice, n=" << n;
      EXPECT_TRUE(used.insert(pair.second).second) << "cell used twice, n=" << n;
    }
  }
}

TEST(Pairing, DoesNotExistBelow5x5) {
  for (int n = 1; n <= 4; ++n) EXPECT_TRUE(board_pairing(n).empty()) << n;
}

TEST(Pairing, IsBuiltOnceAndSharedByThreads) { EXPECT_EQ(&board_pairing(7), &board_pairing(7)); }

// The player that only answers partners (and otherwise plays at random)
// never loses to random play, as X or as O, on any size from 5 to 16.
TEST(Pairing, AnsweringPartnersBlocksEveryLine) {
  std::mt19937 rng(5);
  for (int n = 5; n <= Board::kMaxSize; ++n) {
    const std::vector<CellPair>& pairs = board_pairing(n);
    std::vector<int> partner(n * n, -1);
    for (const CellPair& p : pairs) {
      partner[p.first] = p.second;
      partner[p.second] = p.first;
    }
    for (int game_index = 0; game_index < testing::scaled(40, 4); ++game_index) {
      const Player pairer = game_index % 2 ? Player::O : Player::X;
      Game game(n);
      int last = -1;
      while (!game.over()) {
        std::vector<int> empty;
        for (int c = 0; c < n * n; ++c) {
          if (game.board().at_index(c) == Cell::Empty) empty.push_back(c);
        }
        int cell = empty[rng() % empty.size()];
        if (game.to_move() == pairer && last >= 0 && partner[last] >= 0 &&
            game.board().at_index(partner[last]) == Cell::Empty) {
          cell = partner[last];
        }
        game.play(game.to_move(), cell / n, cell % n);
        last = cell;
      }
      ASSERT_GE(testing::result_for(game, pairer), 0) << game.board().to_string();
    }
  }
}

TEST(PairingStrategy, EveryMoveIsSafeOnTheEmptyBoardFrom5x5) {
  for (int n = 5; n <= Board::kMaxSize; ++n) {
    const LineBoard board{Board(n)};
    EXPECT_TRUE(pairing_advice(board).intact);
    EXPECT_EQ(pairing_advice(board).answer, std::nullopt);
    EXPECT_TRUE(is_safe_move(board, 0));
  }
}

TEST(PairingStrategy, AnswersAMoveInAPairWithItsPartner) {
  const CellPair pair = board_pairing(6).front();
  Board board(6);
  board.place(pair.first, Player::X);
  const LineBoard line_board(board);
  const PairingAdvice advice = pairing_advice(line_board);
  EXPECT_TRUE(advice.intact);
  EXPECT_EQ(advice.answer, pair.second);
  EXPECT_TRUE(is_safe_move(line_board, pair.second));
}

TEST(PairingStrategy, TheFixedPairingNeverHoldsBelow5x5) {
  for (int n = 1; n <= 4; ++n) EXPECT_FALSE(pairing_advice(LineBoard{Board(n)}).intact) << n;
}

TEST(PairingStrategy, OnlyTheCentreOpeningOn3x3HasAPairing) {
  // After the centre, the 4 outer lines share the 8 other cells exactly.
  for (int cell = 0; cell < 9; ++cell) {
    EXPECT_EQ(is_safe_move(LineBoard{Board(3)}, cell), cell == 4) << cell;
  }
}

TEST(PairingStrategy, ACornerOpeningOn4x4AlreadyHasAPairing) {
  // The 7 lines missing the corner get 14 of the other 15 cells.
  EXPECT_TRUE(is_safe_move(LineBoard{Board(4)}, 0));
}

// X holds both cells of row 0's pair, yet row 0 still has empty cells to
// re-pair: the fixed pairing is broken, a fresh one still proves safe moves.
TEST(PairingStrategy, RepairsAPositionWhereTheFixedPairingIsBroken) {
  const CellPair row0 = board_pairing(7).front();
  Board board(7);
  board.place(row0.first, Player::X);
  board.place(48, Player::O);
  board.place(row0.second, Player::X);
  const LineBoard line_board(board);
  EXPECT_FALSE(pairing_advice(line_board).intact);
  SearchLimits limits = SearchLimits::unlimited();
  std::vector<int> candidates{24};
  for (int cell = 0; cell < 7; ++cell) {
    if (line_board.is_empty(cell)) candidates.push_back(cell);
  }
  const std::vector<int> safe = safe_moves(line_board, candidates, limits);
  EXPECT_FALSE(safe.empty());
  for (int cell : safe) EXPECT_TRUE(is_safe_move(line_board, cell));
}

TEST(PairingStrategy, AnOpenLineWithOneEmptyCellLeftIsNeverSafeToIgnore) {
  // O to move; X threatens row 0 of a 5×5 board: only the block is safe.
  const Board board = *Board::parse(
      "XXXXE"
      "OOOEE"
      "EEEEE"
      "EEEEE"
      "EEEEE");
  const LineBoard line_board(board);
  EXPECT_TRUE(is_safe_move(line_board, 4));
  EXPECT_FALSE(is_safe_move(line_board, 24));
}

}  // namespace
}  // namespace ttt::internal::ai
