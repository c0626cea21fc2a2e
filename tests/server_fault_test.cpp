// Errors by layer: an exception while one connection's message is handled
// ends that connection only — logged once, its player's seat held as after a
// disconnect — and never the server, with one I/O thread or several. The
// seam is LobbyConfig::before_message, which throws on a chosen chat line.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

bool in_progress(const wire::GameState& s) { return s.status() == wire::GAME_STATUS_IN_PROGRESS; }

class ServerFault : public ::testing::TestWithParam<int> {
 protected:
  static server::ServerConfig config() {
    server::ServerConfig c = test_config();
    c.threads = GetParam();
    c.session.close_linger = std::chrono::milliseconds(200);
    c.lobby.before_message = [](const wire::ClientMessage& m) {
      if (m.has_chat() && m.chat().text() == "boom") throw std::runtime_error("injected failure");
    };
    return c;
  }
  static void say(TestClient& client, const std::string& text) {
    wire::ClientMessage m;
    m.mutable_chat()->set_text(text);
    client.send(m);
  }
};

TEST_P(ServerFault, AFailingHandlerEndsOnlyItsConnectionAndTheSeatIsHeld) {
  TestServer server(config());
  TestClient alice(server.port());
  TestClient bob(server.port());
  const std::string token = alice.hello("alice").resume_token();
  bob.hello("bob");
  alice.create(3);
  const std::uint64_t game = alice.expect_joined().state().game_id();
  bob.join(game);
  bob.expect_joined();
  alice.expect_state(in_progress, "the game to start");

  say(alice, "boom");
  const wire::Error error = alice.expect_error(wire::ERROR_CODE_INTERNAL);
  EXPECT_TRUE(error.fatal());
  EXPECT_TRUE(alice.wait_closed());

  // bob hears alice is away, as after any disconnect, and the server serves on.
  bob.expect(
      [](const wire::ServerMessage& m) {
        return m.has_opponent() && !m.opponent().connected() && !m.opponent().left();
      },
      "alice away");
  TestClient carol(server.port());
  carol.hello("carol");
  carol.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  carol.expect([](const wire::ServerMessage& m) { return m.has_game_list(); }, "the game list");

  // alice takes her seat back and the game goes on.
  TestClient again(server.port());
  EXPECT_TRUE(again.hello("alice", token).resumed());
  again.expect_joined();
  again.move(1, 1);
  bob.expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "alice's move");
  EXPECT_EQ(server.stats().rooms, 1u);
}

TEST_P(ServerFault, RepeatedFailuresLeaveOtherPlayersServed) {
  TestServer server(config());
  TestClient bob(server.port());
  bob.hello("bob");
  for (int i = 0; i < 3; ++i) {
    TestClient alice(server.port());
    alice.hello("alice" + std::to_string(i));
    say(alice, "boom");
    alice.expect_error(wire::ERROR_CODE_INTERNAL);
    EXPECT_TRUE(alice.wait_closed());
  }
  bob.simple([](wire::ClientMessage& m) { m.mutable_get_stats(); });
  bob.expect([](const wire::ServerMessage& m) { return m.has_stats(); }, "stats");
}

INSTANTIATE_TEST_SUITE_P(Threads, ServerFault, ::testing::Values(1, 4), [](const auto& param_info) {
  return std::to_string(param_info.param) + "Threads";
});

}  // namespace
}  // namespace ttt::testing
