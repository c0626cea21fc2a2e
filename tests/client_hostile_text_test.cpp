// Every sentence of ttt-client that quotes the server, given hostile text:
// the exact line that comes out (escape sequences as plain text, bidi and
// invisible characters marked, names cut to their column with an ellipsis,
// columns kept aligned by display width), and nothing read out of bounds.
#include <gtest/gtest.h>

#include "console/game_text.hpp"
#include "console/record_text.hpp"
#include "console/replay.hpp"
#include "console/session_text.hpp"

namespace ttt::client {
namespace {

// The issue's name: retitles the terminal, clears it, paints it red, reverses what follows.
const std::string kIssueName =
    "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[31mEVIL\x1b[0m\xe2\x80\xae"
    "esrever";
const std::string kRed = "\x1b[31mRED\x1b[0m";  // shown as ^[[31mRED^[[0m, 14 columns
const std::string kReversed =
    "\xe2\x80\xae"
    "esrever";  // shown as <U+202E>esrever, 15 columns
const std::string kJapanese = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e";  // 日本語, 6 columns
const std::string kEllipsis = "\xe2\x80\xa6";

wire::GameState game_with(const std::string& x_name, const std::string& o_name) {
  wire::GameState s;
  s.set_game_id(4);
  s.set_size(3);
  s.set_cells("EEEEEEEEE");
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(wire::SIDE_X);
  s.set_round(1);
  s.set_rated(true);
  int id = 1;
  for (auto [info, name] : {std::pair{s.mutable_x(), x_name}, {s.mutable_o(), o_name}}) {
    info->set_player_id(static_cast<std::uint64_t>(id++));
    info->set_name(name);
    info->set_connected(true);
    info->set_rating(1200);
  }
  return s;
}

TEST(HostileText, PlayersLineShowsNamesHarmlessly) {
  EXPECT_EQ(players_line(game_with(kRed, kReversed)),
            "Game 4, 3x3, rated: ^[[31mRED^[[0m (X, 1200) vs <U+202E>esrever (O, 1200)");
  EXPECT_EQ(players_line(game_with(kIssueName, "bob")),
            "Game 4, 3x3, rated: ^[]0;PWNED-TITLE^G^[[2J^[[31mEV" + kEllipsis +
                " (X, 1200) vs bob (O, 1200)");
}

TEST(HostileText, ConnectedLineShowsTheNameHarmlessly) {
  wire::Welcome welcome;
  welcome.set_name(kRed + "\n");
  welcome.set_rating(1216.4);
  EXPECT_EQ(connected_line("192.0.2.10:7777", welcome, false),
            "Connected to 192.0.2.10:7777 as ^[[31mRED^[[0m^J (rating 1216). Type /help for "
            "commands.");
  EXPECT_EQ(connected_line("h:1", welcome, true).substr(0, 16), "Reconnected to h");
}

TEST(HostileText, TurnLineShowsTheMoversNameHarmlessly) {
  wire::GameState s = game_with("alice", "\x1b[2Jeve\n");
  s.set_to_move(wire::SIDE_O);
  EXPECT_EQ(turn_line(s, wire::SIDE_X), "Waiting for ^[[2Jeve^J (O) to move.");
}

TEST(HostileText, MoveHeadlineShowsTheMoversNameHarmlessly) {
  const wire::GameState before = game_with("alice", "\x1b[2Jeve");
  wire::GameState after = before;
  after.set_cells("EEEEOEEEE");
  after.set_move_count(1);
  after.mutable_last_move()->set_row(1);
  after.mutable_last_move()->set_col(1);
  EXPECT_EQ(move_headline(before, after, wire::SIDE_X), "^[[2Jeve (O) played b2.");
  EXPECT_EQ(move_headline(before, after, wire::SIDE_O), "") << "our own move";
}

TEST(HostileText, MoveHeadlineIgnoresALastMoveOffTheBoard) {
  const wire::GameState before = game_with("alice", "bob");
  wire::GameState after = before;
  after.set_cells("EEEEOEEEE");
  after.set_move_count(1);
  after.mutable_last_move()->set_row(1'000'000);
  after.mutable_last_move()->set_col(-5);
  EXPECT_EQ(move_headline(before, after, wire::SIDE_X), "");
  after.set_cells("EE");  // and cells that are no board
  after.mutable_last_move()->set_row(1);
  after.mutable_last_move()->set_col(1);
  EXPECT_EQ(move_headline(before, after, wire::SIDE_X), "");
}

TEST(HostileText, AnUnreadableBoardIsOneHarmlessLine) {
  wire::GameState s = game_with("alice", "bob");
  s.set_cells("\x1b[2J\x1b[H" + std::string(100, 'X'));
  EXPECT_EQ(
      state_text(s, wire::SIDE_X, "", RenderStyle{}, false),
      "The server sent a board that can't be read: ^[[2J^[[HXXXXXXXXXXXXXX" + kEllipsis + "\n");
}

TEST(HostileText, ChatLineShowsSenderAndTextHarmlessly) {
  wire::ChatMessage chat;
  chat.set_from("\x1b]0;T\x07mallory");
  chat.set_from_side(wire::SIDE_X);
  chat.set_text(kIssueName);
  EXPECT_EQ(chat_line(chat),
            "[^[]0;T^Gmallory (X)] ^[]0;PWNED-TITLE^G^[[2J^[[31mEVIL^[[0m<U+202E>esrever");
  chat.set_from_side(wire::SIDE_SPECTATOR);
  chat.set_text("line one\n[alice (X)] forged line two\r\x1b[K");
  EXPECT_EQ(chat_line(chat),
            "[^[]0;T^Gmallory (watching)] line one^J[alice (X)] forged line two^M^[[K");
}

TEST(HostileText, ChatLineIsCutToItsWidth) {
  wire::ChatMessage chat;
  chat.set_from("bob");
  chat.set_from_side(wire::SIDE_O);
  chat.set_text(std::string(5000, 'z'));
  EXPECT_EQ(chat_line(chat), "[bob (O)] " + std::string(239, 'z') + kEllipsis);
}

TEST(HostileText, ErrorTextIsOneHarmlessLine) {
  wire::Error error;
  error.set_code(wire::ERROR_CODE_BAD_REQUEST);
  error.set_text("bad\x1b]52;c;SGk=\x07\nFORGED LINE");
  EXPECT_EQ(error_text(error), "Bad^[]52;c;SGk=^G^JFORGED LINE");
  error.set_text(
      "\xc2\x9b"
      "2J\xff");
  EXPECT_EQ(error_text(error), "<U+009B>2J\xef\xbf\xbd");
}

TEST(HostileText, GameListKeepsItsColumnsWithHostileAndWideNames) {
  wire::GameList list;
  auto add = [&list](std::uint64_t id, const std::string& x, const std::string& o) {
    wire::GameSummary* g = list.add_games();
    g->set_game_id(id);
    g->set_size(3);
    g->set_status(wire::GAME_STATUS_WAITING);
    g->set_x_name(x);
    g->set_o_name(o);
  };
  add(3, kRed, kReversed);
  add(4, kJapanese, "abcdefghijklmnopqrstuvwxyz");
  add(5, kIssueName, "");
  EXPECT_EQ(game_list_text(list),
            "   id  board              status       X                O\n"
            "    3  3x3                waiting      ^[[31mRED^[[0m   <U+202E>esrever\n"
            "    4  3x3                waiting      " +
                kJapanese + "           abcdefghijklmno" + kEllipsis +
                "\n"
                "    5  3x3                waiting      ^[]0;PWNED-TITL" +
                kEllipsis +
                " -\n"
                "Join with /join ID, watch with /watch ID.");
}

TEST(HostileText, LeaderboardKeepsItsColumnsWithHostileAndWideNames) {
  wire::Leaderboard board;
  for (const std::string& name : {kRed, kJapanese + kJapanese + kJapanese + kJapanese}) {
    wire::LeaderboardEntry* e = board.add_entries();
    e->set_name(name);
    e->set_rating(1200);
    e->set_games(1);
  }
  EXPECT_EQ(leaderboard_text(board),
            "rank  name                rating  games     W     L     D\n"
            "   1  ^[[31mRED^[[0m        1200      1     0     0     0\n"
            "   2  " +
                kJapanese + kJapanese + "\xe6\x97\xa5\xe6\x9c\xac" + kEllipsis +
                "     1200      1     0     0     0");
}

TEST(HostileText, HistoryShowsTheNameAndPlayersHarmlessly) {
  wire::History history;
  history.set_name("\x1b[2J" + kReversed);
  EXPECT_EQ(history_text(history, TimeZone::Utc),
            "^[[2J<U+202E>esrever has no finished games yet.");
  wire::GameRecord* g = history.add_games();
  g->set_record_id(8);
  g->set_size(3);
  g->set_x_name(kRed);
  g->set_o_name("\x1b]0;T\x07" + std::string(30, 'o'));
  g->set_status(wire::GAME_STATUS_DRAW);
  g->set_end_reason(wire::END_REASON_BOARD_FULL);
  g->set_ended_ms(1'795'356'180'000);
  g->set_move_count(9);
  EXPECT_EQ(history_text(history, TimeZone::Utc),
            "Recent games of ^[[2J<U+202E>esrever, newest first:\n"
            "record  ended             board              X                  O                  "
            "result                           rated   moves\n"
            "     8  2026-11-22 14:03  3x3                ^[[31mRED^[[0m     ^[]0;T^Gooooooooo" +
                kEllipsis +
                " draw                             unrated     9\n"
                "Step through one with /replay RECORD.");
}

TEST(HostileText, ReplayShowsThePlayersHarmlessly) {
  wire::GameRecord g;
  g.set_record_id(2);
  g.set_game_id(1);
  g.set_round(1);
  g.set_size(3);
  g.set_x_name(kRed);
  g.set_o_name(kReversed);
  g.set_status(wire::GAME_STATUS_DRAW);
  g.set_end_reason(wire::END_REASON_ABORTED);
  g.set_started_ms(1'795'356'180'000);
  wire::MoveRecord* m = g.add_moves();
  m->set_row(1);
  m->set_col(1);
  m->set_at_ms(1'795'356'181'000);
  std::string error;
  auto replay = Replay::of(g, error);
  ASSERT_TRUE(replay) << error;
  EXPECT_EQ(replay->header(TimeZone::Utc),
            "Replay of record 2 (game 1), 2026-11-22 14:03: 3x3, unrated.\n"
            "^[[31mRED^[[0m (X) vs <U+202E>esrever (O): no result (the server shut down) after "
            "1 move.");
  EXPECT_EQ(replay->next(RenderStyle{}).substr(0, 46),
            "Move 1 of 1 (+1.0 s): ^[[31mRED^[[0m (X) playe");
}

TEST(HostileText, ProfileShowsTheNameHarmlessly) {
  wire::Profile profile;
  profile.set_name(kRed + "\n");
  profile.set_rating(1216.4);
  profile.set_games(3);
  profile.set_wins(2);
  profile.set_losses(1);
  profile.set_rank(1);
  profile.set_ranked(2);
  EXPECT_EQ(profile_text(profile),
            "^[[31mRED^[[0m^J: rating 1216, rank 1 of 2; 3 games: 2 wins, 1 loss, 0 draws.");
}

TEST(HostileText, LeftNamesThePlayersHarmlessly) {
  wire::Left left;
  left.set_reason(wire::LEFT_REASON_PLAYERS_LEFT);
  left.add_players(kReversed);
  left.add_players("\x1b[2Jbob\r");
  EXPECT_EQ(left_text(left), "<U+202E>esrever and ^[[2Jbob^M left; back in the lobby.");
}

TEST(HostileText, AnEndedOfferNamesItsMakerHarmlessly) {
  const wire::GameState state = game_with("alice", kRed);
  wire::OfferEnded ended;
  ended.set_kind(wire::OFFER_KIND_DRAW);
  ended.set_by(wire::SIDE_O);
  ended.set_by_name(kIssueName);
  ended.set_how(wire::OFFER_END_MOVED);
  EXPECT_EQ(offer_ended_text(ended, state, wire::SIDE_X), "^[]0;PWNED-TITLE^G^[[2J^[[31mEV" +
                                                              kEllipsis +
                                                              "'s draw offer lapsed: a move was "
                                                              "played.");
  ended.set_how(wire::OFFER_END_DECLINED);
  ended.set_by(wire::SIDE_X);
  ended.set_by_name("alice");
  EXPECT_EQ(offer_ended_text(ended, state, wire::SIDE_SPECTATOR),
            "^[[31mRED^[[0m (O) declined alice's draw offer.");
}

TEST(HostileText, AGameDecidedWhileAwayNamesTheOpponentHarmlessly) {
  wire::Welcome welcome;
  wire::AwayResult* r = welcome.add_decided_while_away();
  r->set_game_id(3);
  r->set_side(wire::SIDE_X);
  r->set_status(wire::GAME_STATUS_O_WON);
  r->set_end_reason(wire::END_REASON_DISCONNECT);
  r->set_opponent("bob\n\x1b[31mWhile you were away, you won");
  EXPECT_EQ(away_results_text(welcome),
            "While you were away, game 3 against bob^J^[[31mWhile you were away," + kEllipsis +
                " ended: O wins (X disconnected). You lost.");
}

}  // namespace
}  // namespace ttt::client
