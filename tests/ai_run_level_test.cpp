// The levels on boards whose win length k is less than their size: the exact
// values of the small boards (3×3 k=3 a draw, 4×4 k=3 a first-player win,
// 4×4 k=4 a draw) and perfect play keeping them, the contract of every level
// (legal moves, wins taken, losses blocked, determinism, preconditions), and
// the levels' order on 15×15 with five in a row.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "ai/ai_exact_solver.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_run_levels.hpp"
#include "ai/ai_run_prover.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai_run_positions.hpp"
#include "ai_test_support.hpp"
#include "ttt/ai.hpp"
#include "ttt/rules.hpp"

namespace ttt {
namespace {

using internal::ai::ExactSolver;
using internal::ai::ExactTable;
using internal::ai::Mask16;
using internal::ai::SearchLimits;
using internal::ai::SmallPosition;
using std::chrono::milliseconds;

constexpr Level kLevels[] = {Level::Random, Level::Easy, Level::Medium, Level::Hard,
                             Level::Perfect};

// Plain minimax over the rules library (which answers by the board's k),
// scored like the engine: a win leaving e empty cells is worth 1 + e.
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

int exact_value(const Board& board) {
  static ExactTable table(16);
  SearchLimits limits = SearchLimits::unlimited();
  ExactSolver solver(table, limits);
  const auto& g = internal::ai::small_geometry(board.size(), board.win_length());
  const Player me = next_player(board);
  auto bits = [&](Player p) { return static_cast<Mask16>(board.marks(p).to_ulong()); };
  return *solver.value(SmallPosition{&g, bits(me), bits(opponent(me))});
}

TEST(SmallBoardValues, ThreeByThreeIsADraw) { EXPECT_EQ(exact_value(Board(3, 3)), 0); }

TEST(SmallBoardValues, FourByFourWithThreeInARowIsAFirstPlayerWin) {
  EXPECT_GT(exact_value(Board(4, 3)), 0);
}

TEST(SmallBoardValues, FourByFourWithFourInARowIsADraw) { EXPECT_EQ(exact_value(Board(4, 4)), 0); }

TEST(SmallBoardValues, TheSolverAgreesWithPlainMinimaxWithThreeInARow) {
  std::mt19937 rng(43);
  int checked = 0;
  while (checked < testing::scaled(80, 20)) {
    Board board(4, 3);
    const int marks = 8 + static_cast<int>(rng() % 6);  // plain minimax: 8 empties at most
    for (int i = 0; i < marks && !winner(board); ++i) {
      int cell;
      do cell = static_cast<int>(rng() % 16);
      while (board.at_index(cell) != Cell::Empty);
      board.place(cell, next_player(board));
    }
    if (winner(board) || board.full()) continue;
    ASSERT_EQ(exact_value(board), plain_value(board)) << board.to_string();
    ++checked;
  }
}

// Perfect as X against every sequence of O's replies on 4×4 with k = 3: X
// wins every game, each move keeping the exact value (the fastest win; the
// solver is checked against plain minimax above).
void expect_x_always_wins(Board board, int& games) {
  if (winner(board)) {
    EXPECT_EQ(winner(board), Player::X) << board.to_string();
    ++games;
    return;
  }
  ASSERT_FALSE(board.full()) << "a draw: " << board.to_string();
  if (next_player(board) == Player::X) {
    const int value = exact_value(board);
    const Move m = calculate_next_move(board, Player::X, {Level::Perfect, milliseconds(1000), 5});
    board.place(m.row * 4 + m.col, Player::X);
    const int empties = board.cell_count() - board.count(Player::X) - board.count(Player::O);
    EXPECT_EQ(winner(board) ? 1 + empties : -exact_value(board), value) << board.to_string();
    expect_x_always_wins(board, games);
    return;
  }
  for (int cell = 0; cell < 16; ++cell) {
    if (board.at_index(cell) != Cell::Empty) continue;
    Board next = board;
    next.place(cell, Player::O);
    expect_x_always_wins(next, games);
  }
}

TEST(SmallBoardPlay, PerfectConvertsTheFourByFourWinWithThreeInARowAgainstEveryReply) {
  int games = 0;
  expect_x_always_wins(Board(4, 3), games);
  EXPECT_GT(games, 100);
  RecordProperty("games", games);
}

TEST(SmallBoardPlay, PerfectKeepsTheValueOfEveryPositionItIsGiven) {
  // Won positions are converted, drawn ones never lost (4×4, k = 3 and 4).
  std::mt19937 rng(9);
  for (int k : {3, 4}) {
    for (int trial = 0; trial < testing::scaled(60, 15); ++trial) {
      Board board(4, k);
      const int marks = 3 + static_cast<int>(rng() % 8);
      for (int i = 0; i < marks && !winner(board); ++i) {
        int cell;
        do cell = static_cast<int>(rng() % 16);
        while (board.at_index(cell) != Cell::Empty);
        board.place(cell, next_player(board));
      }
      if (winner(board) || board.full()) continue;
      const Player p = next_player(board);
      const int value = exact_value(board);
      const Move m = calculate_next_move(board, p, {Level::Perfect, milliseconds(1000), 1});
      Board after = board;
      after.place(m.row * 4 + m.col, p);
      const int empties = after.cell_count() - after.count(Player::X) - after.count(Player::O);
      const int kept = winner(after) ? 1 + empties : after.full() ? 0 : -exact_value(after);
      EXPECT_EQ(kept, value) << board.to_string() << " k=" << k;
    }
  }
}

// --- the contract of every level ---------------------------------------------

TEST(RunLevels, EveryLevelPlaysOnlyLegalMovesOnEverySizeAndWinLength) {
  for (auto [n, k] : {std::pair{4, 3}, {5, 4}, {7, 5}, {15, 5}, {19, 5}, {12, 11}, {9, 3}}) {
    for (Level level : kLevels) {
      const testing::Policy p = testing::engine(level, 3, milliseconds(20), 300);
      const Game game = testing::play_game(n, p, p, k);
      EXPECT_TRUE(game.over()) << n << " " << k;
    }
  }
}

TEST(RunLevels, EasyAndUpTakeAWinAndBlockALoss) {
  // X: three in a row on row 8 (h..j) with k = 4, O: three on row 2.
  Board board(15, 4);
  for (int c : {7, 8, 9}) board.place(7 * 15 + c, Player::X);
  for (int c : {3, 4, 5}) board.place(1 * 15 + c, Player::O);
  for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    const Move win = calculate_next_move(board, Player::X, {level, milliseconds(50), 1});
    Board after = make_move(board, win.row, win.col, Player::X);
    EXPECT_EQ(winner(after), Player::X) << to_string(level);
  }
  board.place(14 * 15 + 14, Player::X);  // now O to move: O wins, X must block
  Board blocked = board;
  blocked.place(0, Player::O);
  for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    const Move win = calculate_next_move(board, Player::O, {level, milliseconds(50), 1});
    EXPECT_EQ(winner(make_move(board, win.row, win.col, Player::O)), Player::O) << to_string(level);
  }
  // X to move, O threatens on row 2 and X cannot win at once: X blocks.
  Board defend(15, 4);
  for (int c : {3, 4, 5}) defend.place(1 * 15 + c, Player::O);
  for (Move m : {Move{7, 7}, Move{9, 9}, Move{11, 7}, Move{13, 13}}) {
    defend.place(m.row * 15 + m.col, Player::X);
  }
  defend.place(14 * 15, Player::O);
  for (Level level : {Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    const Move m = calculate_next_move(defend, Player::X, {level, milliseconds(50), 1});
    const Board after = make_move(defend, m.row, m.col, Player::X);
    const bool blocks = after.at(1, 2) == Cell::X || after.at(1, 6) == Cell::X;
    EXPECT_TRUE(blocks) << to_string(level) << " played " << m.row << "," << m.col;
  }
}

TEST(RunLevels, TheSameInputsGiveTheSameMove) {
  Board board(15, 5);
  for (Move m : {Move{7, 7}, Move{7, 8}, Move{8, 8}, Move{6, 6}, Move{9, 9}}) {
    board = make_move(board, m.row, m.col, next_player(board));
  }
  for (Level level : kLevels) {
    const AiOptions options{level, milliseconds(5000), 77, 3000};
    const Move first = calculate_next_move(board, Player::O, options);
    EXPECT_EQ(calculate_next_move(board, Player::O, options), first) << to_string(level);
  }
}

TEST(RunLevels, RefusesFinishedBoardsByTheirOwnWinLength) {
  Board board(15, 5);
  for (int c = 0; c < 5; ++c) board.place(7 * 15 + c, Player::X);
  for (int c = 0; c < 4; ++c) board.place(0 * 15 + c * 2, Player::O);
  EXPECT_THROW(calculate_next_move(board, Player::O), std::invalid_argument);
  // The same marks under the whole-line rule are a game still in progress.
  const Board whole = *Board::from_cells(board.to_string());
  EXPECT_NO_THROW(calculate_next_move(whole, Player::O, {Level::Easy}));
}

TEST(RunLevels, AZeroBudgetAnswersAtOnceWithASensibleMove) {
  Board board(15, 5);
  for (int c : {5, 6, 7}) board.place(7 * 15 + c, Player::X);
  for (int c : {0, 2}) board.place(c, Player::O);
  for (Level level : kLevels) {
    const Move m = calculate_next_move(board, Player::O, {level, milliseconds(0), 1});
    EXPECT_TRUE(is_valid_move(board, m.row, m.col, Player::O)) << to_string(level);
  }
  // Even at once, Perfect answers the open three.
  const Move m = calculate_next_move(board, Player::O, {Level::Perfect, milliseconds(0), 1});
  EXPECT_TRUE(m.row == 7 && (m.col == 4 || m.col == 8 || m.col == 3 || m.col == 9))
      << m.row << "," << m.col;
}

TEST(RunLevels, PerfectOpensInTheCentre) {
  for (int size : {15, 19, 20}) {
    const Board board(size, 5);
    const Move m =
        calculate_next_move(board, Player::X, {Level::Perfect, milliseconds(60000), 1, 20000u});
    EXPECT_EQ(m.row, size / 2) << size;
    EXPECT_EQ(m.col, size / 2) << size;
  }
}

// --- the levels' order ---------------------------------------------------------
// Tournaments at real budgets are in docs/ai.md (bench/ai_levels_arena); here
// the cheap pairings play a few games, and the strong levels show on positions
// what the level below them cannot do. Node caps, not the clock, end every
// search, so the games are the same on every machine.

// Points of `stronger` minus points of `weaker` over `games` games on 15×15
// with five in a row, colours alternating.
int score_difference(Level stronger, Level weaker, int games, std::uint64_t nodes = 3000) {
  int difference = 0;
  for (int g = 0; g < games; ++g) {
    const testing::Policy s = testing::engine(stronger, 11 * g + 1, milliseconds(60000), nodes);
    const testing::Policy w = testing::engine(weaker, 11 * g + 2, milliseconds(60000), nodes);
    const bool stronger_is_x = g % 2 == 0;
    const Game game =
        stronger_is_x ? testing::play_game(15, s, w, 5) : testing::play_game(15, w, s, 5);
    difference += testing::result_for(game, stronger_is_x ? Player::X : Player::O);
  }
  return difference;
}

TEST(RunLevels, EasyBeatsRandomAndMediumBeatsEasyWithFiveInARow) {
  const int games = testing::scaled(8, 4);
  EXPECT_EQ(score_difference(Level::Easy, Level::Random, games), games);
  EXPECT_EQ(score_difference(Level::Medium, Level::Easy, games), games);
}

TEST(RunLevels, HardBeatsMediumWithFiveInARow) {
  const int games = testing::scaled(4, 2);
  EXPECT_EQ(score_difference(Level::Hard, Level::Medium, games, 20000), games);
}

// Plays `level` as `side` from `start` against Perfect for at most `plies`
// plies; the winner, if any. `level` may search `nodes` positions a move.
std::optional<Player> play_out(Level level, Player side, const Board& start, int plies,
                               std::uint64_t nodes = 60000) {
  Board board = start;
  for (int ply = 0; ply < plies && !winner(board) && !board.full(); ++ply) {
    const Player p = next_player(board);
    const AiOptions options{p == side ? level : Level::Perfect, milliseconds(60000), 5,
                            p == side ? nodes : 20000u};
    const Move m = calculate_next_move(board, p, options);
    board = make_move(board, m.row, m.col, p);
  }
  return winner(board);
}

// Whether `attacker`, the side to move at `start`, wins within `plies`.
bool converts(Level attacker, const Board& start, int plies, std::uint64_t nodes = 60000) {
  const Player side = next_player(start);
  return play_out(attacker, side, start, plies, nodes) == side;
}

// Whether X, to move after `level` answered as O, has a VCF (of up to
// kMaxVcfFours fours), by the threat search without limits.
bool vcf_after_answer(Level level, const Board& start) {
  const Move m = calculate_next_move(start, Player::O, {level, milliseconds(60000), 5, 60000u});
  const internal::ai::RunBoard after(make_move(start, m.row, m.col, Player::O));
  SearchLimits limits = SearchLimits::unlimited();
  internal::ai::SearchTable table(16);
  return internal::ai::find_vcf(after, limits, table, internal::ai::kMaxVcfFours).has_value();
}

TEST(RunLevels, HardStopsVcfsThatMediumDoesNot) {
  for (std::size_t i = 0; i < internal::ai::kVcfThreats.size(); ++i) {
    const Board start = internal::ai::from_rows(internal::ai::kVcfThreats[i], 5);
    EXPECT_FALSE(vcf_after_answer(Level::Hard, start)) << i;
  }
  // Medium has no threat search: it leaves the VCF of the first position
  // (it finds the second's defence by its evaluation) and loses.
  const Board start = internal::ai::from_rows(internal::ai::kVcfThreats[0], 5);
  EXPECT_TRUE(vcf_after_answer(Level::Medium, start));
  EXPECT_EQ(play_out(Level::Medium, Player::O, start, 20), Player::X);
}

TEST(RunLevels, PerfectConvertsVcts) {
  for (std::size_t i = 0; i < internal::ai::kVcts.size(); ++i) {
    const Board start = internal::ai::from_rows(internal::ai::kVcts[i], 5);
    EXPECT_TRUE(converts(Level::Perfect, start, 24)) << i;
  }
}

TEST(RunLevels, PerfectLeavesNoWinByThreatsWhereAMoveDoes) {
  // X to move (from a game Perfect lost to a depth-1 engine): 3 of its 100
  // candidates leave O no win by threats; Perfect played one of the others.
  const Board start = internal::ai::from_moves(
      {"f7", "e6", "i10", "f5", "h11", "g4", "d7", "g5", "g7", "e7", "j9", "h3", "i2", "g12"}, 5);
  const Move m =
      calculate_next_move(start, Player::X, {Level::Perfect, milliseconds(60000), 1, 400000u});
  Board after = start;
  after.place(m.row * start.size() + m.col, Player::X);
  internal::ai::ProofTable table(16);
  SearchLimits limits(SearchLimits::Clock::time_point::max(), 400000);
  EXPECT_FALSE(internal::ai::prove_threat_win(internal::ai::RunBoard(after), limits, table, {}))
      << "after " << m.row << "," << m.col;
}

TEST(RunLevels, PerfectConvertsADeepVctThatHardDoesNot) {
  // O to move wins by threats in nine moves; Hard has no threat search
  // beyond the VCF, and its eight plies do not see the win.
  const Board deep = internal::ai::from_moves({"f11", "j9", "i8", "j7", "g10", "k7", "h10"}, 5);
  EXPECT_TRUE(converts(Level::Perfect, deep, 40, 60000));
  EXPECT_FALSE(converts(Level::Hard, deep, 40, 60000));
}

}  // namespace
}  // namespace ttt
