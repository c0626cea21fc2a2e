// ttt-bot and ttt-client whose connection drops in a game that the server
// then no longer has (its node went down just after the last move, or the
// seat's grace ran out): a scripted stand-in server takes the move, hangs
// up without the result and welcomes the program back with no game. The
// bot counts the round from the Welcome's games decided while away, or from
// its history, and only a round found in neither is an error; the client
// says how the game ended when its history has it.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"
#include "client_support/fake_server.hpp"
#include "client_support/scripted_games.hpp"

namespace ttt::testing {
namespace {

bool is_hello(const wire::ClientMessage& m) { return m.has_hello(); }
bool is_quick(const wire::ClientMessage& m) { return m.has_quick_match(); }
bool is_move(const wire::ClientMessage& m) { return m.has_make_move(); }
bool is_history(const wire::ClientMessage& m) { return m.has_get_history(); }

void seat(FakeServer& server, const wire::GameState& game, std::uint32_t in_reply_to) {
  wire::ServerMessage joined;
  joined.set_in_reply_to(in_reply_to);
  joined.mutable_joined()->set_side(wire::SIDE_X);
  *joined.mutable_joined()->mutable_state() = game;
  server.send(joined);
}

// The program (X in game 7, named `name`) is seated, moves, and the server
// hangs up before the result; its Hello again is returned.
std::optional<wire::ClientMessage> drop_after_the_move(FakeServer& server, ChildProcess& bot,
                                                       const std::string& name = "dropper") {
  const auto first = server.expect(is_hello);
  if (!first) return std::nullopt;
  server.welcome(*first);
  const auto quick = server.expect(is_quick);
  if (!quick) return std::nullopt;
  seat(server, fresh_game(name), quick->request_id());
  if (!server.expect(is_move)) return std::nullopt;
  server.close_connection();
  auto again = server.expect(is_hello, 10s);
  EXPECT_TRUE(again) << bot.output();
  if (again) {
    EXPECT_EQ(again->hello().resume_token(), "token");
  }
  return again;
}

wire::GameRecord won_by_x(std::uint64_t game, std::uint32_t round,
                          const std::string& x_name = "dropper") {
  wire::GameRecord g;
  g.set_game_id(game);
  g.set_round(round);
  g.set_size(3);
  g.set_x_name(x_name);
  g.set_o_name("rival");
  g.set_status(wire::GAME_STATUS_X_WON);
  g.set_end_reason(wire::END_REASON_RESIGNATION);
  return g;
}

void send_history(FakeServer& server, std::uint32_t in_reply_to,
                  const std::vector<wire::GameRecord>& games) {
  wire::ServerMessage reply;
  reply.set_in_reply_to(in_reply_to);
  reply.mutable_history()->set_name("dropper");
  for (const wire::GameRecord& g : games) *reply.mutable_history()->add_games() = g;
  server.send(reply);
}

std::vector<std::string> bot_flags() {
  return {"--name", "dropper", "--budget", "5", "--log-level", "info"};
}

TEST(BotDroppedGame, ARoundThatEndedWhileTheLinkWasDownIsCountedFromTheHistory) {
  FakeServer server;
  TempDir config;
  auto bot = start_bot(server.port(), config, bot_flags());
  const auto hello = drop_after_the_move(server, *bot);
  ASSERT_TRUE(hello) << bot->output();
  server.welcome(*hello);  // no game: it ended as the link dropped
  const auto ask = server.expect(is_history);
  ASSERT_TRUE(ask) << "the bot looks for its round's end\n" << bot->output();
  EXPECT_TRUE(ask->get_history().name().empty()) << "its own history";
  send_history(server, ask->request_id(), {won_by_x(7, 2), won_by_x(7, 1), won_by_x(3, 1)});
  EXPECT_TRUE(server.hang_up_after_the_client()) << bot->output();

  ASSERT_EQ(bot->wait_exit(10s), 0) << bot->output();
  const std::string& out = bot->output();
  EXPECT_EQ(count_of(out, "game 7 round 1 ended while the connection was down"), 1u) << out;
  EXPECT_EQ(out.find("lost its game"), std::string::npos) << out;
  const auto summary = last_line_summary(out);
  ASSERT_TRUE(summary) << out;
  EXPECT_EQ(summary->games, 1);
  EXPECT_EQ(summary->wins, 1);
  EXPECT_EQ(summary->errors, 0);
}

TEST(BotDroppedGame, ARoundDecidedWhileAwayIsCountedFromTheWelcome) {
  FakeServer server;
  TempDir config;
  auto bot = start_bot(server.port(), config, bot_flags());
  const auto hello = drop_after_the_move(server, *bot);
  ASSERT_TRUE(hello) << bot->output();
  wire::ServerMessage welcome = FakeServer::welcome_message(*hello);
  wire::AwayResult* away = welcome.mutable_welcome()->add_decided_while_away();
  away->set_game_id(7);
  away->set_round(1);
  away->set_side(wire::SIDE_X);
  away->set_status(wire::GAME_STATUS_O_WON);
  away->set_end_reason(wire::END_REASON_DISCONNECT);
  away->set_opponent("rival");
  server.send(welcome);
  EXPECT_FALSE(server.expect(is_history)) << "nothing to look for\n" << bot->output();
  server.close_connection();

  ASSERT_EQ(bot->wait_exit(10s), 0) << bot->output();
  const auto summary = last_line_summary(bot->output());
  ASSERT_TRUE(summary) << bot->output();
  EXPECT_EQ(summary->games, 1);
  EXPECT_EQ(summary->losses, 1);
  EXPECT_EQ(summary->errors, 0) << bot->output();
}

TEST(BotDroppedGame, ARoundFoundNowhereIsLostAndTheBotPlaysOn) {
  FakeServer server;
  TempDir config;
  auto bot = start_bot(server.port(), config, bot_flags());
  const auto hello = drop_after_the_move(server, *bot);
  ASSERT_TRUE(hello) << bot->output();
  server.welcome(*hello);
  const auto ask = server.expect(is_history);
  ASSERT_TRUE(ask) << bot->output();
  send_history(server, ask->request_id(), {won_by_x(3, 1)});  // an older game only
  const auto quick = server.expect(is_quick);
  ASSERT_TRUE(quick) << "the bot asks for another game\n" << bot->output();
  wire::GameState game = fresh_game("dropper");
  game.set_game_id(8);
  seat(server, game, quick->request_id());
  const auto move = server.expect(is_move);
  ASSERT_TRUE(move) << bot->output();
  server.state(won_by_resignation(game, move->make_move()));
  EXPECT_TRUE(server.hang_up_after_the_client()) << bot->output();

  ASSERT_EQ(bot->wait_exit(10s), 1) << "an error happened\n" << bot->output();
  const std::string& out = bot->output();
  EXPECT_EQ(count_of(out, "lost its game when the connection dropped"), 1u) << out;
  const auto summary = last_line_summary(out);
  ASSERT_TRUE(summary) << out;
  EXPECT_EQ(summary->games, 1);
  EXPECT_EQ(summary->wins, 1);
  EXPECT_EQ(summary->errors, 1);
}

TEST(ClientDroppedGame, TheClientSaysHowTheGameTheLinkDroppedEnded) {
  FakeServer server;
  TempDir config;
  auto client = start_client(server.port(), config, {});
  client->write("/quick 3\nb2\n");
  client->close_stdin();
  const auto hello = drop_after_the_move(server, *client, "tester");
  ASSERT_TRUE(hello) << client->output();
  server.welcome(*hello);
  const auto ask = server.expect(is_history);
  ASSERT_TRUE(ask) << "the client looks for the game's end\n" << client->output();
  send_history(server, ask->request_id(), {won_by_x(7, 1, "tester")});
  EXPECT_TRUE(server.hang_up_after_the_client()) << client->output();

  ASSERT_EQ(client->wait_exit(10s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_EQ(count_of(out, "The server no longer holds your game: you are in the lobby.\n"), 1u)
      << out;
  EXPECT_EQ(count_of(out, "Game 7 against rival ended while you were away: X wins"), 1u) << out;
  EXPECT_EQ(count_of(out, "You won."), 1u) << out;
}

}  // namespace
}  // namespace ttt::testing
