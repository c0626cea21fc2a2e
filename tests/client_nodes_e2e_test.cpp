// ttt-client and ttt-bot against a lobby of several nodes, with
// scripted stand-ins for the nodes: a node answers a quick match with a
// Redirect and the program goes on at the node named (one line for the user,
// no error for the bot; the bot over TLS, pinned by the fingerprint the first
// node vouched for), a --host list whose first address refuses, and bad
// --host lists refused as flag errors.
#include <gtest/gtest.h>

#include <filesystem>

#include "client_support/client_programs.hpp"
#include "client_support/fake_server.hpp"
#include "client_support/scripted_games.hpp"
#include "client_support/test_certificates.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

bool is_hello(const wire::ClientMessage& m) { return m.has_hello(); }
bool is_quick(const wire::ClientMessage& m) { return m.has_quick_match(); }
bool is_move(const wire::ClientMessage& m) { return m.has_make_move(); }

std::string where(const FakeServer& node) { return "127.0.0.1:" + std::to_string(node.port()); }

void seat(FakeServer& node, const wire::GameState& game, std::uint32_t in_reply_to) {
  wire::ServerMessage joined;
  joined.set_in_reply_to(in_reply_to);
  joined.mutable_joined()->set_side(wire::SIDE_X);
  *joined.mutable_joined()->mutable_state() = game;
  node.send(joined);
}

TEST(ClientRedirect, TheClientGoesOnAtTheNodeThatKeptItsSeatAndSaysOneLine) {
  FakeServer node1, node2;
  TempDir config;
  auto client = start_client(node1.port(), config, {});
  client->write("/quick 3\nb2\n");
  client->close_stdin();
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first) << client->output();
  node1.welcome(*first, "", "node1");
  const auto quick = node1.expect(is_quick);
  ASSERT_TRUE(quick) << client->output();
  wire::Redirect redirect;
  redirect.set_host("127.0.0.1");
  redirect.set_port(node2.port());
  redirect.set_reservation("seat-7");
  redirect.set_game_id(7);
  redirect.set_reason("your opponent waits on another node\x1b[2J");
  node1.redirect(redirect, quick->request_id());

  const auto hello = node2.expect(is_hello);
  ASSERT_TRUE(hello) << client->output();
  EXPECT_EQ(hello->hello().resume_token(), "token");
  EXPECT_EQ(hello->hello().reservation(), "seat-7");
  node2.welcome(*hello, "", "node2", 7);
  // The client asks for a page of games to know when Joined has come.
  const auto barrier = node2.expect([](const auto& m) { return m.has_list_games(); });
  ASSERT_TRUE(barrier) << client->output();
  const wire::GameState game = fresh_game("tester");
  seat(node2, game, 0);
  wire::ServerMessage page;
  page.set_in_reply_to(barrier->request_id());
  page.mutable_game_list();
  node2.send(page);
  const auto move = node2.expect(is_move);
  ASSERT_TRUE(move) << "the move typed ahead is played at the new node\n" << client->output();
  node2.state(won_by_resignation(game, move->make_move()));
  EXPECT_TRUE(node2.hang_up_after_the_client()) << client->output();

  ASSERT_EQ(client->wait_exit(5s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_EQ(count_of(out, "Moved to node " + where(node2) +
                              ": your opponent waits on another node^[[2J\n"),
            1u)
      << "one line, the server's reason made harmless:\n"
      << out;
  EXPECT_EQ(count_of(out, "You play X in game 7."), 1u) << out;
  for (const char* not_said : {"Reconnected", "Connection lost", "restarted", "Back in"}) {
    EXPECT_EQ(out.find(not_said), std::string::npos) << not_said << " in:\n" << out;
  }
}

TEST(BotRedirect, ABotSentOnOverTlsAsksForItsGameAgainThereWithoutAnError) {
  TempDir config;
  TestCa ca(config.path());
  const CertificateFiles cert1 = ca.issue(config.path(), "node1", {"127.0.0.1"});
  const CertificateFiles cert2 = ca.issue(config.path(), "node2", {"127.0.0.1"});
  FakeServer node1(cert1), node2(cert2);
  // --fingerprint of node 1 only: node 2 is trusted on node 1's word.
  auto bot = start_bot(node1.port(), config,
                       {"--name", "patient", "--budget", "5", "--log-level", "info"});
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first) << bot->output();
  node1.welcome(*first, "", "node1");
  const auto quick = node1.expect(is_quick);
  ASSERT_TRUE(quick) << bot->output();
  wire::Redirect redirect;
  redirect.set_host("127.0.0.1");
  redirect.set_port(node2.port());
  redirect.set_fingerprint(cert2.fingerprint);
  redirect.set_reason("node 1 is draining");
  node1.redirect(redirect, quick->request_id());

  const auto hello = node2.expect(is_hello);
  ASSERT_TRUE(hello) << bot->output();
  EXPECT_EQ(hello->hello().resume_token(), "token");
  EXPECT_EQ(hello->hello().reservation(), "");
  node2.welcome(*hello, "", "node2");
  const auto again = node2.expect(is_quick);
  ASSERT_TRUE(again) << "the quick match is asked for again at node 2\n" << bot->output();
  const wire::GameState game = fresh_game("patient");
  seat(node2, game, again->request_id());
  const auto move = node2.expect(is_move);
  ASSERT_TRUE(move) << bot->output();
  node2.state(won_by_resignation(game, move->make_move()));
  EXPECT_TRUE(node2.hang_up_after_the_client()) << bot->output();

  ASSERT_EQ(bot->wait_exit(5s), 0) << bot->output();
  EXPECT_EQ(count_of(bot->output(), "moved to node " + where(node2) + ": node 1 is draining"), 1u)
      << bot->output();
  const auto summary = last_line_summary(bot->output());
  ASSERT_TRUE(summary) << bot->output();
  EXPECT_EQ(summary->games, 1);
  EXPECT_EQ(summary->wins, 1);
  EXPECT_EQ(summary->errors, 0) << "a redirect is no error";
}

TEST(ClientNodes, AHostListGoesOnToTheSecondAddressWhenTheFirstRefuses) {
  FakeServer node;
  TempDir config;
  const FakeServer* gone = new FakeServer;  // listens, then stops: its port refuses
  const std::uint16_t first = gone->port();
  delete gone;
  auto client = start_client(node.port(), config,
                             {"--host", "127.0.0.1:" + std::to_string(first) + "," + where(node)});
  client->close_stdin();
  const auto hello = node.expect(is_hello);
  ASSERT_TRUE(hello) << client->output();
  node.welcome(*hello);
  EXPECT_TRUE(node.hang_up_after_the_client()) << client->output();
  ASSERT_EQ(client->wait_exit(5s), 0) << client->output();
  EXPECT_NE(client->output().find("Connected to " + where(node) + " as tester ("),
            std::string::npos)
      << client->output();
  // The identity files are the lobby's, under its first address.
  bool keyed_by_first = false;
  for (const auto& entry : fs::directory_iterator(config.path() + "/ttt/secrets")) {
    keyed_by_first |= entry.path().filename().string().find("-" + std::to_string(first) + "-") !=
                      std::string::npos;
  }
  EXPECT_TRUE(keyed_by_first);
}

TEST(ClientNodes, BadHostListsAreFlagErrorsNamingTheEntry) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a,,b", "--host: entry 2 of 'a,,b' is empty"},
      {"a:0",
       "--host: 'a:0' (entry 1 of 1): the port must be a whole number from 1 to 65535, "
       "not '0'"},
      {"a,b c", "--host: 'b c' (entry 2 of 2): the host 'b c' contains byte 0x20"},
      {"[::1", "--host: '[::1' (entry 1 of 1): an IPv6 address opened with '[' needs its ']'"},
  };
  for (const std::string program : {"ttt-client", "ttt-bot"}) {
    for (const auto& [list, error] : cases) {
      const auto result = run_command({bin_dir() + "/" + program, "--host", list});
      EXPECT_EQ(result.exit_code, 2) << program << " " << list << ": " << result.output;
      EXPECT_NE(result.output.find(program + ": " + error), std::string::npos)
          << program << " " << list << ": " << result.output;
    }
  }
}

}  // namespace
}  // namespace ttt::testing
