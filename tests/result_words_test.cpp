// The one wording of results, shared by the game screen, /history, replays
// and the server's export and log.
#include "ttt/wire/result_words.hpp"

#include <gtest/gtest.h>

namespace ttt::wire {
namespace {

TEST(ResultWords, AWinByALineNamesTheLine) {
  EXPECT_EQ(
      result_text(GAME_STATUS_X_WON, END_REASON_LINE, ttt::Line{ttt::LineKind::AntiDiagonal, 0}),
      "X wins (anti-diagonal)");
  EXPECT_EQ(result_text(GAME_STATUS_X_WON, END_REASON_LINE, ttt::Line{ttt::LineKind::Diagonal, 0}),
            "X wins (diagonal)");
  EXPECT_EQ(result_text(GAME_STATUS_O_WON, END_REASON_LINE, ttt::Line{ttt::LineKind::Column, 1}),
            "O wins (column b)");
  EXPECT_EQ(result_text(GAME_STATUS_X_WON, END_REASON_LINE, ttt::Line{ttt::LineKind::Row, 2}),
            "X wins (row 3)");
}

TEST(ResultWords, AWinByALineWithoutTheLineStillSaysHow) {
  EXPECT_EQ(result_text(GAME_STATUS_O_WON, END_REASON_LINE, std::nullopt), "O wins (a line)");
}

TEST(ResultWords, OtherWinsNameWhatTheLoserDid) {
  EXPECT_EQ(result_text(GAME_STATUS_X_WON, END_REASON_RESIGNATION, std::nullopt),
            "X wins (O resigned)");
  EXPECT_EQ(result_text(GAME_STATUS_O_WON, END_REASON_TIMEOUT, std::nullopt),
            "O wins (X ran out of time)");
  EXPECT_EQ(result_text(GAME_STATUS_X_WON, END_REASON_DISCONNECT, std::nullopt),
            "X wins (O disconnected)");
}

TEST(ResultWords, DrawsAndAbortedGames) {
  EXPECT_EQ(result_text(GAME_STATUS_DRAW, END_REASON_BOARD_FULL, std::nullopt), "draw");
  EXPECT_EQ(result_text(GAME_STATUS_DRAW, END_REASON_DRAW_AGREED, std::nullopt), "draw (agreed)");
  EXPECT_EQ(result_text(GAME_STATUS_DRAW, END_REASON_ABORTED, std::nullopt),
            "no result (the server shut down)");
}

TEST(ResultWords, AGameNotOverSaysSo) {
  EXPECT_EQ(result_text(GAME_STATUS_IN_PROGRESS, END_REASON_NONE, std::nullopt), "in progress");
  EXPECT_EQ(result_text(GAME_STATUS_WAITING, END_REASON_NONE, std::nullopt),
            "waiting for an opponent");
}

}  // namespace
}  // namespace ttt::wire
