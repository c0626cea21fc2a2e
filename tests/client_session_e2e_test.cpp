// The conversation around a game, end to end over loopback: offers that are
// declined or lapse, rating changes after a rated game, /me, and one session
// per name (a second terminal refused, or taking the session over).
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"
#include "client_support/tmux.hpp"
#include "client_support/two_players.hpp"

namespace ttt::testing {
namespace {

class SessionE2E : public TwoPlayers {
 protected:
  SessionE2E() : TwoPlayers({"--db", ":memory:"}) {}
};

TEST_F(SessionE2E, ADeclinedDrawOfferIsToldToBoth) {
  start_game();
  ASSERT_TRUE(step(*alice_, "/draw", *bob_,
                   "alice (X) offers a draw: /draw to accept, /decline to refuse.\n"));
  ASSERT_TRUE(step(*bob_, "/decline", *alice_, "bob (O) declined your draw offer.\n"));
  EXPECT_TRUE(bob_->wait_for_text("You declined alice's draw offer.\n", 5s)) << bob_->output();
  ASSERT_TRUE(
      step(*bob_, "/decline", *bob_, "Your opponent has no draw offer or rematch request pending"));
}

TEST_F(SessionE2E, ADrawOfferLapsesWhenAMoveIsPlayed) {
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));
  ASSERT_TRUE(step(*alice_, "/draw", *bob_, "alice (X) offers a draw"));
  ASSERT_TRUE(step(*bob_, "a1", *alice_, "Your draw offer lapsed: a move was played.\n"));
  EXPECT_TRUE(bob_->wait_for_text("alice's draw offer lapsed: a move was played.\n", 5s))
      << bob_->output();
}

TEST_F(SessionE2E, ARematchRequestLapsesWhenItsAskerLeaves) {
  start_game();
  ASSERT_TRUE(step(*bob_, "/resign", *alice_, "You won."));
  ASSERT_TRUE(step(*bob_, "/rematch", *alice_, "bob (O) asks for a rematch"));
  ASSERT_TRUE(step(*bob_, "/leave", *alice_,
                   "bob's rematch request lapsed: bob left or lost the connection.\n"));
}

TEST_F(SessionE2E, EachPlayerSeesTheRatingChangeAndMeShowsIt) {
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));  // two moves each: a rated game
  ASSERT_TRUE(step(*bob_, "a1", *alice_, "Your turn (X)"));
  ASSERT_TRUE(step(*alice_, "c1", *bob_, "alice (X) played c1."));
  ASSERT_TRUE(step(*bob_, "a3", *alice_, "bob (O) played a3."));
  ASSERT_TRUE(step(*bob_, "/resign", *bob_, "You lost.\nYour rating: 1200 -> 1184 (-16).\n"));
  EXPECT_TRUE(alice_->wait_for_text("You won.\nYour rating: 1200 -> 1216 (+16).\n", 5s))
      << alice_->output();
  ASSERT_TRUE(step(*alice_, "/me", *alice_,
                   "alice: rating 1216, rank 1 of 2; 1 game: 1 win, 0 losses, 0 draws.\n"));
  ASSERT_TRUE(step(*bob_, "/me", *bob_,
                   "bob: rating 1184, rank 2 of 2; 1 game: 0 wins, 1 loss, 0 draws.\n"));
}

TEST_F(SessionE2E, ASpectatorIsToldWhoLeft) {
  start_game();
  auto carol = start_client(server_.port(), config_, {"--name", "carol"});
  ASSERT_TRUE(step(*carol, "/watch 1", *carol, "Watching game 1."));
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));  // two moves each: a rated game
  ASSERT_TRUE(step(*bob_, "a1", *alice_, "Your turn (X)"));
  ASSERT_TRUE(step(*alice_, "c1", *bob_, "alice (X) played c1."));
  ASSERT_TRUE(step(*bob_, "a3", *alice_, "bob (O) played a3."));
  ASSERT_TRUE(step(*bob_, "/resign", *carol, "Game over: X wins (O resigned)"));
  EXPECT_TRUE(
      carol->wait_for_text("Ratings: alice 1200 -> 1216 (+16), bob 1200 -> 1184 (-16).", 5s))
      << carol->output();
  ASSERT_TRUE(step(*alice_, "/leave", *alice_, "You are in the lobby"));  // bob is still seated
  ASSERT_TRUE(step(*bob_, "/leave", *carol, "alice and bob left; back in the lobby.\n"));
}

TEST_F(SessionE2E, ASecondTerminalIsRefusedUnlessItTakesOver) {
  start_game();
  ASSERT_TRUE(alice_->wait_for_text("Connected to", 5s));
  // The second terminal keeps its token apart (the .2 file) but has the secret.
  auto second = start_client(server_.port(), config_, {"--name", "alice"});
  ASSERT_EQ(second->wait_exit(10s), 3) << second->output();
  EXPECT_NE(second->output().find("ttt-client: alice is connected from another terminal; "
                                  "`--take-over` moves the session here"),
            std::string::npos)
      << second->output();
  EXPECT_EQ(alice_->output().find("taken over"), std::string::npos) << alice_->output();

  const std::size_t bob_before = bob_->output().size();
  auto here = start_client(server_.port(), config_, {"--name", "alice", "--take-over"});
  ASSERT_TRUE(here->wait_for_text("back in game 1.", 10s)) << here->output();
  ASSERT_TRUE(here->wait_for_text("Your turn (X)", 5s)) << here->output();
  ASSERT_EQ(alice_->wait_exit(10s), 1) << alice_->output();
  EXPECT_NE(alice_->output().find("This session was taken over by another terminal"),
            std::string::npos)
      << alice_->output();
  ASSERT_TRUE(step(*here, "b2", *bob_, "alice (X) played b2."));
  EXPECT_EQ(bob_->output().find("is back", bob_before), std::string::npos) << bob_->output();
  EXPECT_EQ(bob_->output().find("lost the connection", bob_before), std::string::npos)
      << bob_->output();
}

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

TEST(SessionTmux, ResignAndLeaveInAGameAskForConfirmationOnATerminal) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server;
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name tmux --play-bot random"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Your turn (X)"); }, 10s))
      << tmux.screen();
  tmux.type("/resign");
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) {
        return has(s,
                   "Resign game 1 against bot (random)? Type y to confirm, anything else to "
                   "play on.");
      },
      5s))
      << tmux.screen();
  tmux.type("n");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Playing on."); }, 5s))
      << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "Game over")) << tmux.screen();
  tmux.type("/leave");
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "That resigns it. Type y to confirm"); }, 5s))
      << tmux.screen();
  tmux.type("y");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "You are in the lobby"); }, 5s))
      << tmux.screen();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.screen();
}

TEST_F(SessionE2E, AScriptIsNeverAskedToConfirm) {
  start_game();
  ASSERT_TRUE(step(*alice_, "/resign", *bob_, "Game over: O wins (X resigned)"));
  EXPECT_EQ(alice_->output().find("Type y to confirm"), std::string::npos) << alice_->output();
}

TEST(SessionScript, TheReadmeExampleFinishesItsGame) {
  ServerProcess server;
  TempDir config;
  auto client = start_client(server.port(), config, {"--name", "scripted"});
  client->write("/create 3 bot easy\nb2\na1\na3\nc1\nc3\na2\nb1\nb3\nc2\n");
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(20s), 0) << client->output();
  EXPECT_NE(client->output().find("Game over: "), std::string::npos) << client->output();
  EXPECT_EQ(client->output().find("Your seat is held"), std::string::npos) << client->output();
}

}  // namespace
}  // namespace ttt::testing
