// Every screen of the console client fits the terminal it is on (80x24 by
// default): tables leave out their least useful columns first and cut names
// before they lose the id or the players, text wraps between words (under
// its own column), /help wraps each description under itself; and the words
// of the live game: the countdowns, the low-time warning, rating changes
// that say why they are small, a finished game in /who, who joined, the
// answers to /block and /unblock.
#include <gtest/gtest.h>

#include "console/board_render.hpp"
#include "console/command.hpp"
#include "console/game_text.hpp"
#include "console/players_text.hpp"
#include "console/record_text.hpp"
#include "console/screen_layout.hpp"
#include "console/session_text.hpp"
#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "ttt/count_text.hpp"

namespace ttt::client {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

// Every line at most width columns wide.
::testing::AssertionResult fits(const std::string& text, std::size_t width) {
  for (const std::string& line : lines_of(text)) {
    if (display_width(line) > width) {
      return ::testing::AssertionFailure()
             << display_width(line) << " columns: '" << line << "' in:\n"
             << text;
    }
  }
  return ::testing::AssertionSuccess();
}

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

TEST(WrapWords, BreaksBetweenWordsAndIndentsWhatFollows) {
  const auto pieces = wrap_words("the quick brown fox jumps over the lazy dog", 16, 2);
  EXPECT_EQ(pieces,
            (std::vector<std::string>{"the quick brown", "  fox jumps over", "  the lazy dog"}));
  // A word wider than the line is cut where it must be.
  EXPECT_EQ(wrap_words("abcdefghij", 4), (std::vector<std::string>{"abcd", "efgh", "ij"}));
  EXPECT_EQ(wrap_words("", 10), (std::vector<std::string>{""}));
  EXPECT_EQ(wrap_words("no limit at all", 0), (std::vector<std::string>{"no limit at all"}));
  EXPECT_EQ(wrap_text("  one two three\nfour", 9), "  one two\n  three\nfour");
  EXPECT_EQ(cut_to_width("alexandra", 5), "alex\xE2\x80\xA6");
  EXPECT_EQ(cut_to_width("bob", 5), "bob");
}

TEST(TextTable, LeavesOutOptionalColumnsThenCutsThenDropsTheLeastUseful) {
  TextTable table({{"id", 9, 0, true},
                   {"name", 8, 4},
                   {"note", 1, 0, false, false, 2, 0, true},
                   {"doing", 5, 6, false, true}});
  table.add_row({"12", "alexandra", "private", "waiting for an opponent"});
  EXPECT_EQ(table.render(0),
            "id  name       note     doing\n"
            "12  alexandra  private  waiting for an opponent\n");
  // The optional note goes first; then what she does wraps under itself.
  EXPECT_EQ(table.render(30),
            "id  name       doing\n"
            "12  alexandra  waiting for an\n"
            "               opponent\n");
  // Narrower: the name is cut, the id stays.
  EXPECT_TRUE(fits(table.render(14), 14)) << table.render(14);
  EXPECT_TRUE(has(table.render(14), "12  ")) << table.render(14);
}

wire::GameList a_busy_lobby() {
  wire::GameList list;
  auto add = [&](std::uint64_t id, int size, int k, wire::GameStatus status, const std::string& x,
                 const std::string& o) {
    wire::GameSummary* g = list.add_games();
    g->set_game_id(id);
    g->set_size(size);
    g->set_win_length(k);
    g->set_status(status);
    g->set_x_name(x);
    g->set_o_name(o);
    g->set_spectators(3);
  };
  add(7, 3, 0, wire::GAME_STATUS_WAITING, "alice", "");
  add(8, 15, 5, wire::GAME_STATUS_IN_PROGRESS, "bartholomew", "cassandra");
  add(1234, 19, 5, wire::GAME_STATUS_IN_PROGRESS, "dimitri", "evangeline");
  return list;
}

TEST(ScreenFit, TheGameListKeepsItsIdsAndBothPlayersOnAnyWidth) {
  const wire::GameList list = a_busy_lobby();
  for (const std::size_t width : {120u, 79u, 60u, 39u, 30u}) {
    const std::string text = game_list_text(list, width);
    EXPECT_TRUE(fits(text, width)) << width;
    const auto lines = lines_of(text);
    ASSERT_GE(lines.size(), 4u) << text;
    EXPECT_TRUE(has(lines[0], "X") && has(lines[0], "O")) << "both players' columns:\n" << text;
    EXPECT_TRUE(has(lines[1], "7") && has(lines[1], "alice")) << text;
    EXPECT_TRUE(has(lines[3], "1234") && has(lines[3], "dimi")) << text;
  }
  // At 80 nothing is cut: the board's rules and the names whole.
  const std::string wide = game_list_text(list, 79);
  EXPECT_TRUE(has(wide, "15x15, 5 in a row") && has(wide, "bartholomew") && has(wide, "cassandra"))
      << wide;
  // The hint wraps between words in the lobby panel's half of 80 columns.
  const std::string empty = game_list_text(wire::GameList(), 39);
  EXPECT_TRUE(fits(empty, 39)) << empty;
  EXPECT_TRUE(has(empty, "/quick 3 finds a player.")) << empty;
}

TEST(ScreenFit, WhoKeepsWhatEachIsDoingWholeInTheLobbyPanel) {
  wire::PlayerList list;
  wire::PlayerPresence* p = list.add_players();
  p->set_name("a-rather-long-name");
  p->set_rating(1216);
  p->set_activity(wire::ACTIVITY_WAITING);
  p->set_game_id(12);
  p->set_size(15);
  p->set_win_length(5);
  for (const std::size_t width : {40u, 79u}) {
    const std::string text = player_list_text(list, width);
    EXPECT_TRUE(fits(text, width)) << text;
    std::string joined;  // the lines, joined as one text
    for (const std::string& line : lines_of(text)) {
      const auto first = line.find_first_not_of(' ');
      if (first != std::string::npos) joined += line.substr(first) + " ";
    }
    EXPECT_TRUE(has(joined, "game 12")) << "the id is kept:\n" << text;
    EXPECT_TRUE(has(joined, "5 in a row")) << text;
  }
}

TEST(ScreenFit, HistoryLeavesOutRatedAndMovesBeforeCuttingAResult) {
  wire::History history;
  history.set_name("alice");
  for (int i = 0; i < 3; ++i) {
    wire::GameRecord* g = history.add_games();
    g->set_record_id(100 + static_cast<std::uint64_t>(i));
    g->set_size(3);
    g->set_x_name("alice");
    g->set_o_name("bot (perfect)");
    g->set_status(wire::GAME_STATUS_O_WON);
    g->set_end_reason(wire::END_REASON_TIMEOUT);
    g->set_ended_ms(1'795'356'180'000);
    g->set_move_count(4);
  }
  const std::string text = history_text(history, TimeZone::Utc, 80);
  EXPECT_TRUE(fits(text, 80)) << text;
  EXPECT_TRUE(has(text, "O wins (X ran out of time)")) << "the result whole:\n" << text;
  EXPECT_TRUE(has(text, "2026-11-22 14:03")) << text;
  EXPECT_FALSE(has(text, "unrated")) << "rated goes first:\n" << text;
}

TEST(ScreenFit, HelpWrapsEachDescriptionUnderItselfAt80Columns) {
  for (const std::size_t width : {80u, 79u, 60u}) {
    const std::string help = help_text(width);
    EXPECT_TRUE(fits(help, width)) << width;
    bool commands = false;
    for (const std::string& line : lines_of(help)) {
      commands = commands || line == "Lobby:";
      // Past the moves: a line is a section's title or indented (a command,
      // or a description's words wrapped under it).
      if (!commands || line.empty() || line[0] == ' ') continue;
      EXPECT_EQ(line.back(), ':') << "'" << line << "' at " << width;
    }
  }
  const std::string help = help_text(80);
  // The longest description is there whole, its words in order.
  std::string joined;
  for (std::string line : lines_of(help)) {
    const auto first = line.find_first_not_of(' ');
    joined += (first == std::string::npos ? "" : line.substr(first)) + " ";
  }
  EXPECT_TRUE(has(joined,
                  "rated: the result changes both ratings (default: rated between people, "
                  "unrated against the bot)"))
      << help;
  EXPECT_TRUE(has(help, "/mute NAME, /unmute NAME")) << help;
}

TEST(ScreenFit, TheLeaderboardMarksTheServersOwnBots) {
  wire::Leaderboard board;
  for (const auto& [name, server_bot] : {std::pair{"bot (hard)", true}, {"alice-bot", false}}) {
    wire::LeaderboardEntry* e = board.add_entries();
    e->set_name(name);
    e->set_rating(1300);
    e->set_games(40);
    e->set_server_bot(server_bot);
  }
  const std::string text = leaderboard_text(board, 79);
  EXPECT_TRUE(fits(text, 79)) << text;
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 3u) << text;
  EXPECT_TRUE(has(lines[1], "bot (hard)") && has(lines[1], "the server's bot")) << text;
  EXPECT_FALSE(has(lines[2], "the server's bot")) << text;
}

TEST(ScreenFit, A19x19BoardFitsAnEightyByTwentyFourScreen) {
  const ScreenLayout layout = layout_screen(24, 80, 19);
  ASSERT_TRUE(layout.fits) << layout.why;
  EXPECT_GE(layout.log_height, 3);
  EXPECT_GE(layout.panel_width, 30);
  // The line mode draws it without borders when the screen is short.
  Board board(19);
  const std::string compact =
      render_board(BoardView{board, std::nullopt, std::nullopt}, RenderStyle{false, true});
  EXPECT_EQ(lines_of(compact).size(), 21u);  // the letters, 19 rows, the end
  EXPECT_TRUE(fits(compact, 80)) << compact;
  EXPECT_TRUE(has(compact, "   a   b   c")) << compact;
  EXPECT_TRUE(has(compact, "\n 1   .   .   .")) << compact;  // under their letters
}

TEST(LiveGameText, CountdownsAndTheLowTimeWarning) {
  using std::chrono::milliseconds;
  EXPECT_EQ(wait_text(milliseconds(45'000)), "45 s");
  EXPECT_EQ(wait_text(milliseconds(300'000)), "5 min");
  EXPECT_EQ(wait_text(milliseconds(270'000)), "4 min 30 s");
  EXPECT_EQ(countdown_text(milliseconds(272'000)), "4:32");
  EXPECT_EQ(countdown_text(milliseconds(9'001)), "10 s");
  EXPECT_EQ(reconnecting_prompt(milliseconds(272'000), true),
            "reconnecting (4:32 left; Ctrl-C gives up)> ");
  EXPECT_EQ(
      connection_lost_text("refused", milliseconds(300'000), milliseconds(30'000), true, true),
      "Connection lost (refused); reconnecting for up to 5 min (the server holds your seat "
      "30 s after it notices; a restarted server gives the game back)... Ctrl-C or /quit "
      "gives up.");
  EXPECT_EQ(time_warning_text(milliseconds(9'500), false),
            "10 s left to move: the game is lost when it runs out.");
  EXPECT_EQ(count_text(1, "game", "games"), "1 game");
  EXPECT_EQ(count_text(2, "move", "moves"), "2 moves");
}

wire::GameState rated_end(double before, double after, wire::RatingNote note, std::uint32_t nth) {
  wire::GameState s;
  s.set_game_id(3);
  s.set_size(3);
  s.set_cells("XXXOOEEEE");
  s.set_status(wire::GAME_STATUS_X_WON);
  s.set_end_reason(wire::END_REASON_LINE);
  s.set_rated(true);
  for (wire::PlayerInfo* p : {s.mutable_x(), s.mutable_o()}) {
    p->set_rating_before(before);
    p->set_rating(after);
    p->set_rating_note(note);
    p->set_repeat_game(nth);
  }
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  return s;
}

TEST(LiveGameText, ARatingThatMovesLessSaysWhy) {
  EXPECT_EQ(rating_change_text(rated_end(1205, 1205, wire::RATING_NOTE_REPEAT, 5), wire::SIDE_X),
            "Your rating: 1205 -> 1205 (+0: your 5th rated game against each other within 24 "
            "hours: from the 5th on they move no rating).");
  EXPECT_EQ(rating_change_text(rated_end(1200, 1204, wire::RATING_NOTE_REPEAT, 3), wire::SIDE_X),
            "Your rating: 1200 -> 1204 (+4: your 3rd rated game against each other within 24 "
            "hours counts 1/4).");
  EXPECT_EQ(
      rating_change_text(rated_end(1400, 1400, wire::RATING_NOTE_PROVISIONAL_OPPONENT, 0),
                         wire::SIDE_X),
      "Your rating: 1400 -> 1400 (+0: bob's rating is provisional: an established rating does "
      "not move against it).");
  EXPECT_EQ(rating_change_text(rated_end(1200, 1200, wire::RATING_NOTE_TOO_SHORT, 0), wire::SIDE_O),
            "Your rating: 1200 -> 1200 (+0: the game ended before both players moved).");
  auto few = rated_end(1500, 1500, wire::RATING_NOTE_FEW_OPPONENTS, 0);
  few.mutable_x()->set_opponent_variety(1);
  EXPECT_EQ(rating_change_text(few, wire::SIDE_X),
            "Your rating: 1500 -> 1500 (+0: bob has played rated games against only 1 other "
            "account: it counts 1/10).");
  few = rated_end(1500, 1503, wire::RATING_NOTE_FEW_OPPONENTS, 0);
  few.mutable_x()->set_opponent_variety(3);
  EXPECT_EQ(rating_change_text(few, wire::SIDE_X),
            "Your rating: 1500 -> 1503 (+3: bob has played rated games against only 3 other "
            "accounts: it counts 3/10).");
  EXPECT_EQ(rating_change_text(rated_end(1900, 1900.3, wire::RATING_NOTE_NONE, 0), wire::SIDE_X),
            "Your rating: 1900 -> 1900 (+0: the result the ratings expected).");
  EXPECT_EQ(rating_change_text(rated_end(1200, 1216, wire::RATING_NOTE_NONE, 0), wire::SIDE_X),
            "Your rating: 1200 -> 1216 (+16).");
}

TEST(LiveGameText, AFinishedGameIsNotPlayingAndTheServersBotsAreNamedSo) {
  wire::PlayerPresence p;
  p.set_name("bob");
  p.set_activity(wire::ACTIVITY_FINISHED);
  p.set_game_id(8);
  p.set_size(3);
  EXPECT_EQ(activity_text(p), "just finished game 8 (3x3)");  // the opponent left
  p.set_opponent("alice");
  EXPECT_EQ(activity_text(p), "just finished game 8 against alice (3x3)");
  p.set_activity(wire::ACTIVITY_PLAYING);
  p.set_opponent("bot (hard)");
  p.set_opponent_server_bot(true);
  EXPECT_EQ(activity_text(p), "playing game 8 against the server's bot (hard) (3x3)");
}

TEST(LiveGameText, WhoJoinedAndOurOwnMovesInWords) {
  wire::GameState before;
  before.set_game_id(5);
  before.set_size(3);
  before.set_cells("EEEEEEEEE");
  before.set_status(wire::GAME_STATUS_IN_PROGRESS);
  before.mutable_x()->set_player_id(1);
  before.mutable_x()->set_name("alice");
  before.mutable_o()->set_player_id(2);
  before.mutable_o()->set_name("bob");
  before.mutable_o()->set_rating(1184);
  before.mutable_o()->set_connected(true);
  before.set_to_move(wire::SIDE_X);
  EXPECT_EQ(joined_game_text(before, wire::SIDE_X),
            "bob (O, 1184) joined game 5: the game begins, your move.");
  wire::GameState after = before;
  after.set_cells("EEEEXEEEE");
  after.set_move_count(1);
  after.mutable_last_move()->set_row(1);
  after.mutable_last_move()->set_col(1);
  after.set_to_move(wire::SIDE_O);
  EXPECT_EQ(move_headline(before, after, wire::SIDE_X), "");
  EXPECT_EQ(move_headline(before, after, wire::SIDE_X, true), "You (X) played b2.");
  EXPECT_EQ(move_headline(before, after, wire::SIDE_O), "alice (X) played b2.");
}

TEST(LiveGameText, BlockAndUnblockAnswerWhatWasAsked) {
  wire::BlockList none;
  EXPECT_EQ(block_answer_text(none, "bob", false), "bob is not blocked (nobody is).");
  wire::BlockList carol;
  carol.add_names("carol");
  EXPECT_EQ(block_answer_text(carol, "bob", false), "bob is not blocked (blocked: carol).");
  wire::BlockList both = carol;
  both.add_names("Bob");
  EXPECT_EQ(block_answer_text(both, "bob", true),
            "bob is blocked: no challenges or chat from bob (blocked: bob, carol).");
}

}  // namespace
}  // namespace ttt::client
