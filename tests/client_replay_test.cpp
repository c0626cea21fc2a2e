// Replaying a finished game from its record: the board after each move, who
// moved and when, the result at the end, and records that are not games.
#include <gtest/gtest.h>

#include "console/replay.hpp"

namespace ttt::client {
namespace {

constexpr std::uint64_t kStart = 1'795'356'180'000;  // 2026-11-22 14:03:00 UTC

// X takes the main diagonal: a1, O b1, X b2, O c1, X c3.
wire::GameRecord diagonal_win() {
  wire::GameRecord g;
  g.set_record_id(17);
  g.set_game_id(9);
  g.set_round(2);
  g.set_size(3);
  g.set_x_name("alice");
  g.set_o_name("bob");
  g.set_status(wire::GAME_STATUS_X_WON);
  g.set_end_reason(wire::END_REASON_LINE);
  g.set_rated(true);
  g.set_started_ms(kStart);
  g.set_ended_ms(kStart + 75'000);
  const int cells[][2] = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {2, 2}};
  std::uint64_t at = kStart;
  for (const auto& cell : cells) {
    at += 4'200;
    wire::MoveRecord* m = g.add_moves();
    m->set_row(cell[0]);
    m->set_col(cell[1]);
    m->set_at_ms(at);
  }
  g.mutable_moves(4)->set_at_ms(kStart + 75'000);
  g.set_move_count(5);
  return g;
}

TEST(Replay, HeaderSaysWhatTheGameWas) {
  std::string error;
  const auto replay = Replay::of(diagonal_win(), error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->header(TimeZone::Utc),
            "Replay of record 17 (game 9, round 2), 2026-11-22 14:03: 3x3, rated.\n"
            "alice (X) vs bob (O): X wins (diagonal) after 5 moves.");
  EXPECT_EQ(replay->moves(), 5u);
  EXPECT_EQ(replay->shown(), 0u);
}

TEST(Replay, EachStepIsTheBoardAfterOneMoveWithItsMover) {
  std::string error;
  auto replay = Replay::of(diagonal_win(), error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->next({}),
            "Move 1 of 5 (+4.2 s): alice (X) played a1.\n"
            "    a   b   c\n"
            "  +---+---+---+\n"
            "1 |[X]|   |   |\n"
            "  +---+---+---+\n"
            "2 |   |   |   |\n"
            "  +---+---+---+\n"
            "3 |   |   |   |\n"
            "  +---+---+---+\n");
  EXPECT_EQ(replay->next({}).substr(0, 44), "Move 2 of 5 (+8.4 s): bob (O) played b1.\n   ");
  replay->next({});
  replay->next({});
  EXPECT_FALSE(replay->done());
  EXPECT_EQ(replay->next({}),
            "Move 5 of 5 (+1:15): alice (X) played c3.\n"
            "    a   b   c\n"
            "  +---+---+---+\n"
            "1 |*X*| O | O |\n"
            "  +---+---+---+\n"
            "2 |   |*X*|   |\n"
            "  +---+---+---+\n"
            "3 |   |   |*X*|\n"
            "  +---+---+---+\n"
            "Game over: X wins (diagonal)\n");
  EXPECT_TRUE(replay->done());
  EXPECT_EQ(replay->shown(), 5u);
}

TEST(Replay, AGameWithoutMovesIsDoneAtOnce) {
  wire::GameRecord g = diagonal_win();
  g.clear_moves();
  g.set_status(wire::GAME_STATUS_O_WON);
  g.set_end_reason(wire::END_REASON_RESIGNATION);
  std::string error;
  const auto replay = Replay::of(g, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_TRUE(replay->done());
  EXPECT_NE(replay->header(TimeZone::Utc).find("O wins (X resigned) after 0 moves."),
            std::string::npos);
}

TEST(Replay, AGameOfKInARowShowsItsRulesAndItsRun) {
  wire::GameRecord g;
  g.set_record_id(3);
  g.set_game_id(2);
  g.set_round(1);
  g.set_size(7);
  g.set_win_length(4);
  g.set_x_name("alice");
  g.set_o_name("bob");
  g.set_status(wire::GAME_STATUS_X_WON);
  g.set_end_reason(wire::END_REASON_LINE);
  g.set_started_ms(kStart);
  // X: b2 c3 d4 e5 (a diagonal run of 4); O: a7 b7 c7.
  const int cells[][2] = {{1, 1}, {6, 0}, {2, 2}, {6, 1}, {3, 3}, {6, 2}, {4, 4}};
  for (const auto& cell : cells) {
    wire::MoveRecord* m = g.add_moves();
    m->set_row(cell[0]);
    m->set_col(cell[1]);
    m->set_at_ms(kStart + 1'000);
  }
  std::string error;
  auto replay = Replay::of(g, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->header(TimeZone::Utc),
            "Replay of record 3 (game 2), 2026-11-22 14:03: 7x7, 4 in a row, unrated.\n"
            "alice (X) vs bob (O): X wins (diagonal from b2 to e5) after 7 moves.");
  std::string last;
  while (!replay->done()) last = replay->next({});
  EXPECT_NE(last.find("5 |   |   |   |   |*X*|   |   |"), std::string::npos) << last;
  EXPECT_NE(last.find("Game over: X wins (diagonal from b2 to e5)"), std::string::npos) << last;

  g.set_win_length(2);
  EXPECT_FALSE(Replay::of(g, error));
  EXPECT_EQ(error, "the record's win length 2 does not fit its 7x7 board");
  g.set_win_length(0);  // an older server's record: the whole line, so no win here
  EXPECT_TRUE(Replay::of(g, error));
}

TEST(Replay, RecordsThatAreNotLegalGamesAreRefused) {
  std::string error;
  wire::GameRecord taken = diagonal_win();
  taken.mutable_moves(2)->set_row(0);
  taken.mutable_moves(2)->set_col(0);
  EXPECT_FALSE(Replay::of(taken, error));
  EXPECT_EQ(error, "move 3 of the record (row 0, column 0) is not a legal move");

  wire::GameRecord off_board = diagonal_win();
  off_board.mutable_moves(0)->set_col(3);
  EXPECT_FALSE(Replay::of(off_board, error));

  wire::GameRecord huge = diagonal_win();
  huge.set_size(40);
  EXPECT_FALSE(Replay::of(huge, error));
  EXPECT_NE(error.find("size 40"), std::string::npos);
}

}  // namespace
}  // namespace ttt::client
