// GameCommentary: a game told as it goes: who plays what, the board with the
// other side's move in words, the result once, rematches, a free seat taken,
// offers and their ends, the opponent's comings and goings.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/game_commentary.hpp"

namespace ttt::client {
namespace {

using ttt::testing::after_move;
using ttt::testing::game_in_progress;
using ttt::testing::has;
using ttt::testing::joined;
using ttt::testing::Screen;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

class GameCommentaryTest : public ::testing::Test {
 protected:
  GameCommentaryTest() { game_.set_player(1); }  // alice

  void join(const wire::GameState& state, wire::Side side, bool resumed = false,
            bool said = false) {
    const wire::Joined j = joined(state, side);
    game_.join(j, std::chrono::steady_clock::now());
    commentary_.joined(j, resumed, said);
  }
  void moves_on(const wire::GameState& state) {
    const auto before = game_.update(state, std::chrono::steady_clock::now());
    ASSERT_TRUE(before.has_value());
    commentary_.changed(*before);
  }

  Screen screen_;
  CurrentGame game_;
  WatchLinks links_{"ttt.example", 7777, true};
  GameCommentary commentary_{screen_.terminal(), game_, links_};
};

TEST_F(GameCommentaryTest, JoiningSaysWhoPlaysWhatAndShowsTheBoard) {
  join(game_in_progress(), wire::SIDE_X);
  const std::string said = screen_.take();
  EXPECT_EQ(said.rfind("You play X in game 4.\n", 0), 0u) << said;
  EXPECT_TRUE(has(said, "alice")) << "the players line: " << said;
  EXPECT_TRUE(has(said, "a   b   c")) << "the board: " << said;
  join(game_in_progress(), wire::SIDE_X, true);
  EXPECT_EQ(screen_.take().rfind("Back in game 4 as X.\n", 0), 0u);
}

TEST_F(GameCommentaryTest, WatchingIsSaidUnlessSaidAlready) {
  join(game_in_progress(), wire::SIDE_SPECTATOR);
  EXPECT_EQ(screen_.take().rfind("Watching game 4.\n", 0), 0u);
  join(game_in_progress(), wire::SIDE_SPECTATOR, false, true);
  EXPECT_FALSE(has(screen_.take(), "Watching game 4."));
}

TEST_F(GameCommentaryTest, APrivateGamesInviteCodeIsSaid) {
  wire::Joined j = joined(game_in_progress(), wire::SIDE_X);
  j.set_invite_code("k3y");
  game_.join(j, std::chrono::steady_clock::now());
  commentary_.joined(j, false, false);
  EXPECT_TRUE(has(screen_.take(), "Private game: others join with /join 4 k3y\n"));
}

TEST_F(GameCommentaryTest, TheOtherSidesMoveIsSaidInWords) {
  join(after_move(game_in_progress(), 4), wire::SIDE_X);
  screen_.take();
  moves_on(after_move(after_move(game_in_progress(), 4), 0));
  const std::string said = screen_.take();
  EXPECT_TRUE(has(said, "bob (O) played a1.\n")) << said;
}

TEST_F(GameCommentaryTest, TheResultIsSaidOnce) {
  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  over.set_end_reason(wire::END_REASON_LINE);
  over.mutable_winning_line()->set_kind(wire::LINE_KIND_ROW);
  join(over, wire::SIDE_X);
  EXPECT_EQ(count_of(screen_.take(), "Game over: X wins (row 1)"), 1u);
  join(over, wire::SIDE_X, true);  // back after a reconnect
  EXPECT_EQ(count_of(screen_.take(), "Game over"), 0u);
}

TEST_F(GameCommentaryTest, ARematchAndAFreeSeatTakenAreSaid) {
  wire::GameState waiting = game_in_progress();
  waiting.set_status(wire::GAME_STATUS_WAITING);
  waiting.clear_o();
  join(waiting, wire::SIDE_X);
  screen_.take();
  moves_on(game_in_progress());
  EXPECT_TRUE(has(screen_.take(), "bob (O) joined game 4: the game begins, your move."));

  wire::GameState round2 = game_in_progress();
  round2.set_round(2);
  round2.mutable_x()->set_player_id(2);  // the seats change sides
  round2.mutable_o()->set_player_id(1);
  moves_on(round2);
  EXPECT_TRUE(has(screen_.take(), "Rematch: round 2, you play O."));
}

TEST_F(GameCommentaryTest, WithoutABoardChangeOnlyWhatIsNewIsSaid) {
  join(game_in_progress(), wire::SIDE_X);
  screen_.take();
  wire::GameState watched = game_in_progress();
  watched.set_spectators(3);
  moves_on(watched);
  const std::string said = screen_.take();
  EXPECT_TRUE(has(said, "Game 4")) << "the players line again: " << said;
  EXPECT_FALSE(has(said, "a   b   c")) << "no board: " << said;
}

TEST_F(GameCommentaryTest, AnOfferOfAnotherGameIsNotSaid) {
  join(game_in_progress(), wire::SIDE_X);
  screen_.take();
  wire::OfferEnded ended;
  ended.set_game_id(5);
  ended.set_kind(wire::OFFER_KIND_DRAW);
  ended.set_by(wire::SIDE_O);
  ended.set_by_name("bob");
  ended.set_how(wire::OFFER_END_MOVED);
  commentary_.offer_ended(ended);
  EXPECT_EQ(screen_.take(), "");
  ended.set_game_id(4);
  commentary_.offer_ended(ended);
  EXPECT_EQ(screen_.take(), "bob's draw offer lapsed: a move was played.\n");
}

TEST_F(GameCommentaryTest, TheOpponentIsNamedToAPlayer) {
  wire::OpponentStatus back;
  back.set_game_id(4);
  back.set_connected(true);
  commentary_.opponent(back);
  EXPECT_EQ(screen_.take(), "Your opponent is back.\n") << "no game to name them from";
  join(game_in_progress(), wire::SIDE_X);
  screen_.take();
  commentary_.opponent(back);
  EXPECT_EQ(screen_.take(), "bob (O) is back.\n");
}

TEST_F(GameCommentaryTest, HowManyWatchIsOneLine) {
  wire::SpectatorCount count;
  count.set_game_id(4);
  count.set_spectators(2);
  commentary_.spectators(count);
  EXPECT_EQ(screen_.take(), "2 watching game 4.\n");
}

TEST_F(GameCommentaryTest, AServerWithAWebClientGetsWatchLinks) {
  wire::Welcome welcome;
  welcome.set_web_client(true);
  links_.welcomed(welcome);
  join(game_in_progress(), wire::SIDE_SPECTATOR);
  EXPECT_TRUE(
      has(screen_.take(), "Watching game 4.\nIn a browser: https://ttt.example:7777/game/4\n"));
  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  moves_on(over);
  EXPECT_TRUE(
      has(screen_.take(), "Watch or replay it in a browser: https://ttt.example:7777/game/4\n"));
}

TEST_F(GameCommentaryTest, WithoutAWebClientNoLinkIsSaid) {
  join(game_in_progress(), wire::SIDE_SPECTATOR);
  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  moves_on(over);
  EXPECT_FALSE(has(screen_.take(), "browser"));
}

}  // namespace
}  // namespace ttt::client
