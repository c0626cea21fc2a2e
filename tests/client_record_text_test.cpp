// The words of the records: the leaderboard, a player's history, results and
// the refusals of /top, /history and /replay.
#include <gtest/gtest.h>

#include "console/record_text.hpp"

namespace ttt::client {
namespace {

constexpr std::uint64_t kNov22At1403Utc = 1'795'356'180'000;  // 2026-11-22 14:03:00 UTC

wire::GameRecord record(std::uint64_t id, const std::string& x, const std::string& o,
                        wire::GameStatus status, wire::EndReason reason) {
  wire::GameRecord g;
  g.set_record_id(id);
  g.set_game_id(id + 100);
  g.set_size(3);
  g.set_x_name(x);
  g.set_o_name(o);
  g.set_status(status);
  g.set_end_reason(reason);
  g.set_started_ms(kNov22At1403Utc - 60'000);
  g.set_ended_ms(kNov22At1403Utc);
  return g;
}

Command query(CommandKind kind) {
  Command c;
  c.kind = kind;
  return c;
}

TEST(RecordText, TimesAreMinutesInTheChosenZone) {
  EXPECT_EQ(time_text(kNov22At1403Utc, TimeZone::Utc), "2026-11-22 14:03");
  EXPECT_EQ(time_text(kNov22At1403Utc + 59'999, TimeZone::Utc), "2026-11-22 14:03");
  EXPECT_EQ(time_text(kNov22At1403Utc, TimeZone::Local).size(), 16u);
}

TEST(RecordText, LeaderboardRanksPlayersWithRoundedRatings) {
  wire::Leaderboard board;
  EXPECT_EQ(leaderboard_text(board), "Nobody has finished a game on this server yet.");
  auto add = [&board](const std::string& name, double rating, int w, int l, int d) {
    wire::LeaderboardEntry* e = board.add_entries();
    e->set_name(name);
    e->set_rating(rating);
    e->set_games(static_cast<std::uint64_t>(w + l + d));
    e->set_wins(static_cast<std::uint64_t>(w));
    e->set_losses(static_cast<std::uint64_t>(l));
    e->set_draws(static_cast<std::uint64_t>(d));
  };
  add("alice", 1231.49, 2, 0, 1);
  add("bot (perfect)", 1184.5, 0, 1, 0);
  EXPECT_EQ(leaderboard_text(board),
            "rank  name                rating  games     W     L     D\n"
            "   1  alice                 1231      3     2     0     1\n"
            "   2  bot (perfect)         1185      1     0     1     0");
}

TEST(RecordText, LeaderboardMarksProvisionalRatings) {
  wire::Leaderboard board;
  for (const bool provisional : {false, true}) {
    wire::LeaderboardEntry* e = board.add_entries();
    e->set_name(provisional ? "newcomer" : "veteran");
    e->set_rating(provisional ? 1690 : 1300);
    e->set_games(provisional ? 3 : 40);
    e->set_wins(provisional ? 3 : 20);
    e->set_losses(provisional ? 0 : 20);
    e->set_provisional(provisional);
  }
  EXPECT_EQ(leaderboard_text(board),
            "rank  name                rating  games     W     L     D\n"
            "   1  veteran               1300     40    20    20     0\n"
            "   2  newcomer              1690      3     3     0     0  provisional");
}

TEST(RecordText, ResultsSayWhoWonAndWhy) {
  wire::GameRecord by_line = record(1, "a", "b", wire::GAME_STATUS_X_WON, wire::END_REASON_LINE);
  EXPECT_EQ(record_result_text(by_line), "X wins (a line)");  // a server that sends no line
  by_line.mutable_winning_line()->set_kind(wire::LINE_KIND_ANTI_DIAGONAL);
  EXPECT_EQ(record_result_text(by_line), "X wins (anti-diagonal)");  // as the game screen said
  EXPECT_EQ(record_result_text(
                record(1, "a", "b", wire::GAME_STATUS_O_WON, wire::END_REASON_RESIGNATION)),
            "O wins (X resigned)");
  EXPECT_EQ(
      record_result_text(record(1, "a", "b", wire::GAME_STATUS_DRAW, wire::END_REASON_BOARD_FULL)),
      "draw");
  EXPECT_EQ(
      record_result_text(record(1, "a", "b", wire::GAME_STATUS_DRAW, wire::END_REASON_ABORTED)),
      "no result (the server shut down)");
}

TEST(RecordText, HistoryListsEachGameWithItsRecordId) {
  wire::History history;
  history.set_name("alice");
  EXPECT_EQ(history_text(history, TimeZone::Utc), "alice has no finished games yet.");
  wire::GameRecord won = record(17, "alice", "bob", wire::GAME_STATUS_X_WON, wire::END_REASON_LINE);
  won.mutable_winning_line()->set_kind(wire::LINE_KIND_ROW);
  won.mutable_winning_line()->set_index(0);
  won.set_rated(true);
  won.set_move_count(5);
  *history.add_games() = won;
  wire::GameRecord lost =
      record(9, "bot (hard)", "alice", wire::GAME_STATUS_X_WON, wire::END_REASON_DISCONNECT);
  lost.set_size(7);
  lost.set_win_length(4);
  lost.set_move_count(12);
  *history.add_games() = lost;
  EXPECT_EQ(history_text(history, TimeZone::Utc),
            "Recent games of alice, newest first:\n"
            "record  ended             board              X                  O                  "
            "result                           rated   moves\n"
            "    17  2026-11-22 14:03  3x3                alice              bob                "
            "X wins (row 1)                   rated       5\n"
            "     9  2026-11-22 14:03  7x7, 4 in a row    bot (hard)         alice              "
            "X wins (O disconnected)          unrated    12\n"
            "Step through one with /replay RECORD.");
}

TEST(RecordText, RefusalsOfRecordQueriesSayWhatWasAsked) {
  wire::Error e;
  e.set_code(wire::ERROR_CODE_NO_RECORD);
  e.set_text("no player is called 'carol'");
  Command history = query(CommandKind::History);
  history.text = "carol";
  EXPECT_EQ(record_error_text(e, history), "No player called 'carol' on this server");
  Command replay = query(CommandKind::Replay);
  replay.record_id = 42;
  e.set_text("no finished game has record 42");
  EXPECT_EQ(record_error_text(e, replay),
            "No finished game has record 42 (/history shows the record ids)");

  e.set_code(wire::ERROR_CODE_NO_DATABASE);
  EXPECT_EQ(record_error_text(e, query(CommandKind::Top)),
            "This server keeps no game records (it runs without a database), so /top has "
            "nothing to show");
  e.set_code(wire::ERROR_CODE_STORAGE);
  EXPECT_EQ(record_error_text(e, replay),
            "The server could not read its records just now (a database error): try /replay "
            "again in a moment");
  e.set_code(wire::ERROR_CODE_RATE_LIMITED);
  e.set_text("slow down");
  EXPECT_EQ(record_error_text(e, replay), "Slow down");
}

}  // namespace
}  // namespace ttt::client
