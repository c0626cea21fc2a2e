// The client's sentences: the Game over line for every ending, whose turn it
// is, the game list and refusals.
#include <gtest/gtest.h>

#include "console/game_text.hpp"
#include "console/session_text.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::client {
namespace {

wire::GameState ended(wire::GameStatus status, wire::EndReason reason) {
  wire::GameState s;
  s.set_game_id(4);
  s.set_size(3);
  s.set_status(status);
  s.set_end_reason(reason);
  return s;
}

TEST(GameText, GameOverNamesTheWinningLine) {
  wire::GameState s = ended(wire::GAME_STATUS_O_WON, wire::END_REASON_LINE);
  s.mutable_winning_line()->set_kind(wire::LINE_KIND_COLUMN);
  s.mutable_winning_line()->set_index(1);
  EXPECT_EQ(game_over_line(s), "Game over: O wins (column b)");
  s.set_status(wire::GAME_STATUS_X_WON);
  s.mutable_winning_line()->set_kind(wire::LINE_KIND_ROW);
  s.mutable_winning_line()->set_index(2);
  EXPECT_EQ(game_over_line(s), "Game over: X wins (row 3)");
  s.mutable_winning_line()->set_kind(wire::LINE_KIND_ANTI_DIAGONAL);
  s.mutable_winning_line()->set_index(0);
  EXPECT_EQ(game_over_line(s), "Game over: X wins (anti-diagonal)");
}

TEST(GameText, GameOverSaysWhyForOtherEndings) {
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_DRAW, wire::END_REASON_BOARD_FULL)),
            "Game over: draw");
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_DRAW, wire::END_REASON_DRAW_AGREED)),
            "Game over: draw (agreed)");
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_X_WON, wire::END_REASON_RESIGNATION)),
            "Game over: X wins (O resigned)");
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_O_WON, wire::END_REASON_TIMEOUT)),
            "Game over: O wins (X ran out of time)");
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_X_WON, wire::END_REASON_DISCONNECT)),
            "Game over: X wins (O disconnected)");
  EXPECT_EQ(game_over_line(ended(wire::GAME_STATUS_DRAW, wire::END_REASON_ABORTED)),
            "Game over: no result (the server shut down)");
}

TEST(GameText, PersonalResultFollowsTheSide) {
  const wire::GameState s = ended(wire::GAME_STATUS_X_WON, wire::END_REASON_LINE);
  EXPECT_EQ(personal_result(s, wire::SIDE_X), "You won.");
  EXPECT_EQ(personal_result(s, wire::SIDE_O), "You lost.");
  EXPECT_EQ(personal_result(s, wire::SIDE_SPECTATOR), "");
}

TEST(GameText, TurnLineSaysWhoMoves) {
  wire::GameState s;
  s.set_game_id(2);
  s.set_size(3);
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(wire::SIDE_O);
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_x()->set_connected(true);
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  s.mutable_o()->set_connected(true);
  EXPECT_EQ(turn_line(s, wire::SIDE_O), "Your turn (O): type a cell like b2.");
  EXPECT_EQ(turn_line(s, wire::SIDE_X), "Waiting for bob (O) to move.");
  EXPECT_EQ(turn_line(s, wire::SIDE_SPECTATOR), "bob (O) to move.");
  s.set_move_time_left_ms(41'200);
  EXPECT_EQ(turn_line(s, wire::SIDE_O), "Your turn (O): type a cell like b2 (42 s left).");
  s.set_move_time_left_ms(0);
  s.set_draw_offered_by(wire::SIDE_X);
  EXPECT_EQ(turn_line(s, wire::SIDE_O),
            "Your turn (O): type a cell like b2.\n"
            "alice (X) offers a draw: /draw to accept, /decline to refuse.");
  EXPECT_EQ(players_line(s), "Game 2, 3x3, unrated: alice (X) vs bob (O)");
  s.mutable_o()->set_connected(false);
  s.set_spectators(2);
  EXPECT_EQ(players_line(s), "Game 2, 3x3, unrated: alice (X) vs bob (O) [away], 2 watching");
  s.mutable_o()->set_away_ms_left(19'001);
  EXPECT_EQ(players_line(s),
            "Game 2, 3x3, unrated: alice (X) vs bob (O) [away, 20 s left], 2 watching");
}

TEST(GameText, AnOfferSaysOnlyTheOfferNotTheTurnLineAgain) {
  wire::GameState before;
  before.set_game_id(2);
  before.set_size(3);
  before.set_status(wire::GAME_STATUS_IN_PROGRESS);
  before.set_to_move(wire::SIDE_O);
  before.mutable_x()->set_player_id(1);
  before.mutable_x()->set_name("alice");
  before.mutable_o()->set_player_id(2);
  before.mutable_o()->set_name("bob");
  wire::GameState after = before;
  after.set_draw_offered_by(wire::SIDE_X);
  EXPECT_EQ(offers_news(before, after, wire::SIDE_X), "You offered a draw.");
  EXPECT_EQ(offers_news(before, after, wire::SIDE_O),
            "alice (X) offers a draw: /draw to accept, /decline to refuse.");
  EXPECT_EQ(offers_news(before, after, wire::SIDE_SPECTATOR), "alice (X) offers a draw.");
  EXPECT_EQ(offers_news(after, after, wire::SIDE_O), "") << "nothing new";
  EXPECT_EQ(offers_news(after, before, wire::SIDE_O), "") << "an offer gone says nothing";

  before.set_status(wire::GAME_STATUS_X_WON);
  after = before;
  after.set_rematch_requested_by(wire::SIDE_O);
  EXPECT_EQ(offers_news(before, after, wire::SIDE_X),
            "bob (O) asks for a rematch: /rematch to accept, /decline to refuse.");
  EXPECT_EQ(offers_news(before, after, wire::SIDE_O), "You asked for a rematch.");
}

TEST(GameText, PlayersLineShowsRatingsAndWhetherTheGameIsRated) {
  wire::GameState s;
  s.set_game_id(5);
  s.set_size(4);
  s.set_status(wire::GAME_STATUS_WAITING);
  s.set_rated(true);
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_x()->set_connected(true);
  s.mutable_x()->set_rating(1215.6);
  EXPECT_EQ(players_line(s), "Game 5, 4x4, rated: alice (X, 1216) vs (free) (O)");
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  s.mutable_o()->set_rating(1184.4);
  s.set_round(2);
  EXPECT_EQ(players_line(s),
            "Game 5, 4x4, round 2, rated: alice (X, 1216) vs bob (O, 1184) [away]");
}

TEST(GameText, RatingsAreRoundedToWholeNumbers) {
  EXPECT_EQ(rating_text(1200), "1200");
  EXPECT_EQ(rating_text(1215.5), "1216");
  EXPECT_EQ(rating_text(1184.49), "1184");
}

TEST(GameText, GameListShowsEveryGame) {
  wire::GameList list;
  EXPECT_NE(game_list_text(list).find("No games yet"), std::string::npos);
  wire::GameSummary* g = list.add_games();
  g->set_game_id(7);
  g->set_size(4);
  g->set_x_name("alice");
  g->set_status(wire::GAME_STATUS_WAITING);
  g->set_is_private(true);
  const std::string text = game_list_text(list);
  EXPECT_NE(
      text.find(
          "    7  4x4                waiting      alice            -                 private"),
      std::string::npos)
      << text;
}

TEST(GameText, GameListSaysWhichNodeHoldsAGameAndKeepsHostileNodeNamesHarmless) {
  wire::GameList list;
  wire::GameSummary* g = list.add_games();
  g->set_game_id(3);
  g->set_size(3);
  g->set_x_name("alice");
  g->set_status(wire::GAME_STATUS_WAITING);
  g->set_node("b.example.net:7777");
  wire::GameSummary* hostile = list.add_games();
  hostile->set_game_id(4);
  hostile->set_size(3);
  hostile->set_status(wire::GAME_STATUS_WAITING);
  hostile->set_node("evil\x1b[2J\u202e" + std::string(500, 'x'));
  const std::string text = game_list_text(list);
  EXPECT_NE(text.find("alice            -                 at b.example.net:7777\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << "no escape reaches the terminal";
  EXPECT_EQ(text.find("\u202e"), std::string::npos);
  EXPECT_EQ(text.find(std::string(100, 'x')), std::string::npos) << "cut short";
}

TEST(GameText, GameListNamesTheWinLength) {
  wire::GameList list;
  wire::GameSummary* g = list.add_games();
  g->set_game_id(8);
  g->set_size(15);
  g->set_win_length(5);
  g->set_x_name("alice");
  g->set_o_name("bob");
  g->set_status(wire::GAME_STATUS_IN_PROGRESS);
  wire::GameSummary* whole = list.add_games();
  whole->set_game_id(9);
  whole->set_size(19);
  whole->set_win_length(19);
  whole->set_status(wire::GAME_STATUS_WAITING);
  const std::string text = game_list_text(list);
  EXPECT_NE(text.find("   id  board              status       X                O\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    8  15x15, 5 in a row  playing      alice            bob\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    9  19x19              waiting      -                -\n"),
            std::string::npos)
      << text;
}

TEST(GameText, PlayersLineNamesTheWinLengthAndARunWinsByName) {
  wire::GameState s;
  s.set_game_id(4);
  s.set_size(15);
  s.set_win_length(5);
  s.set_rated(true);
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_x()->set_connected(true);
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  s.mutable_o()->set_connected(true);
  EXPECT_EQ(players_line(s), "Game 4, 15x15, 5 in a row, rated: alice (X) vs bob (O)");
  s.set_status(wire::GAME_STATUS_X_WON);
  s.set_end_reason(wire::END_REASON_LINE);
  *s.mutable_winning_line() = wire::wire_line_of(Line{LineKind::Diagonal, 1, Move{1, 2}, 5});
  EXPECT_EQ(game_over_line(s), "Game over: X wins (diagonal from c2 to g6)");
  s.set_win_length(0);  // an older server: the whole line
  EXPECT_EQ(players_line(s), "Game 4, 15x15, rated: alice (X) vs bob (O)");
}

TEST(GameText, TheQueueLineNamesTheWinLength) {
  wire::Queued queued;
  queued.set_size(15);
  EXPECT_EQ(queued_text(queued), "Waiting for another player who wants a 15x15 game...");
  queued.set_win_length(15);
  EXPECT_EQ(queued_text(queued), "Waiting for another player who wants a 15x15 game...");
  queued.set_win_length(5);
  queued.set_bot_fallback_s(30);
  EXPECT_EQ(queued_text(queued),
            "Waiting for another player who wants a 15x15 game with 5 in a row (a bot steps in "
            "after 30 s)...");
}

TEST(GameText, RefusedMovesGetThePlayersWords) {
  wire::Error e;
  e.set_code(wire::ERROR_CODE_OCCUPIED);
  e.set_text("that cell is already taken");
  EXPECT_EQ(error_text(e), "That cell is already taken");
  e.set_code(wire::ERROR_CODE_GAME_FULL);
  e.set_text("game 3 has no free seat (watch it instead)");
  EXPECT_EQ(error_text(e), "Game 3 has no free seat (watch it instead)");
}

TEST(GameText, StorageAndDatabaseRefusalsSayWhatHappened) {
  wire::Error e;
  e.set_code(wire::ERROR_CODE_STORAGE);
  e.set_text("the server could not save that move; nothing changed, try again");
  EXPECT_EQ(error_text(e),
            "The server could not store that (its database refused); nothing changed: try again");
  e.set_code(wire::ERROR_CODE_NO_DATABASE);
  EXPECT_EQ(error_text(e), "This server keeps no game records (it runs without a database)");
}

TEST(SessionText, QuittingMidGameSaysWhatHappensToTheGame) {
  EXPECT_EQ(mid_game_goodbye("./ttt client", false, true),
            "Your seat is held for a while: run ./ttt client again to take it back.");
  EXPECT_EQ(mid_game_goodbye("ttt-client", false, false),
            "Your seat is held for a while: run ttt-client again to take it back.");
  EXPECT_EQ(mid_game_goodbye("./ttt play", true, true),
            "Your game is kept: run ./ttt play again to take it back.");
  EXPECT_EQ(mid_game_goodbye("./ttt play", true, false),
            "The game ends here: the server stops with this client.");
}

}  // namespace
}  // namespace ttt::client
