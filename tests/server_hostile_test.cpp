// The server against hostile and broken peers: random bytes, absurd length
// prefixes, cut frames, garbage bodies, floods of silent connections and a
// client that stops reading. After each, a normal game still completes.
#include <sys/resource.h>

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "support/eventually.hpp"
#include "support/flood_thread.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

using wire::ServerMessage;

// Two fresh players play a short game to X's win on the server.
void expect_normal_game_completes(std::uint16_t port) {
  static int games = 0;
  ++games;
  TestClient x(port);
  TestClient o(port);
  x.hello("after-x" + std::to_string(games));
  o.hello("after-o" + std::to_string(games));
  x.create(3);
  const auto game = x.expect_joined().state().game_id();
  o.join(game);
  o.expect_joined();
  const std::pair<int, int> moves[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
  wire::GameState end;
  for (std::uint32_t i = 0; i < std::size(moves); ++i) {
    (i % 2 == 0 ? x : o).move(moves[i].first, moves[i].second);
    end = (i % 2 == 0 ? o : x)
              .expect_state([i](const wire::GameState& s) { return s.move_count() == i + 1; },
                            "the game after the attack");
  }
  EXPECT_EQ(end.status(), wire::GAME_STATUS_X_WON);
}

// A Ping from c and its Pong back, within timeout.
bool pinged(TestClient& c, std::uint64_t nonce, std::chrono::milliseconds timeout = 5s) {
  wire::ClientMessage ping;
  ping.mutable_ping()->set_nonce(nonce);
  c.send(ping);
  const auto reply = c.receive(timeout);
  return reply && reply->has_pong() && reply->pong().nonce() == nonce;
}

server::ServerConfig short_deadlines() {
  auto config = test_config();
  config.session.hello_timeout = std::chrono::milliseconds(300);
  config.session.idle_timeout = std::chrono::milliseconds(400);
  config.session.close_linger = std::chrono::milliseconds(300);
  return config;
}

TEST(ServerHostile, RandomBytesGetAnErrorAndAClose) {
  // The game protocol's framing alone: with the web client on, bytes that
  // start with a capital letter are an HTTP request (tests/web has the web
  // side's hostile cases).
  server::ServerConfig config = short_deadlines();
  config.web = false;
  TestServer server(config);
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 40; ++trial) {
    TestClient c(server.port());
    std::string bytes(1 + rng() % 2048, '\0');
    for (char& b : bytes) b = static_cast<char>(rng());
    c.send_raw(bytes);
    // Whatever the bytes say, the server ends up closing: an error for a bad
    // or oversized frame, or the Hello deadline for a frame still incomplete.
    const auto error = c.expect([](const ServerMessage& m) { return m.has_error(); }, "an error");
    EXPECT_TRUE(error.error().fatal());
    EXPECT_TRUE(c.wait_closed());
  }
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, HugeLengthPrefixIsRefusedBeforeAllocating) {
  TestServer server;
  TestClient c(server.port());
  c.send_raw(frame_header(0xFFFFFFFFu));
  const auto error = c.expect_error(wire::ERROR_CODE_FRAME_TOO_LARGE);
  EXPECT_TRUE(error.fatal());
  EXPECT_NE(error.text().find("4294967295"), std::string::npos);
  EXPECT_TRUE(c.wait_closed());
  // Just over the cap is refused too, exactly at it is read.
  TestClient over(server.port());
  over.send_raw(frame_header(wire::kDefaultMaxFrame + 1));
  over.expect_error(wire::ERROR_CODE_FRAME_TOO_LARGE);
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, TruncatedFrameThenSilenceIsDroppedAtTheDeadline) {
  TestServer server(short_deadlines());
  TestClient before_hello(server.port());
  before_hello.send_raw(frame_header(100) + "only part");
  before_hello.expect_error(wire::ERROR_CODE_HELLO_TIMEOUT);
  EXPECT_TRUE(before_hello.wait_closed());

  TestClient after_hello(server.port());
  after_hello.hello("cut");
  after_hello.send_raw(frame_header(50) + "half a message");
  after_hello.expect_error(wire::ERROR_CODE_IDLE_TIMEOUT);
  EXPECT_TRUE(after_hello.wait_closed());
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, IdleConnectionsArePingedAndKeptWhenTheyAnswer) {
  TestServer server(short_deadlines());
  TestClient c(server.port());
  c.hello("pinged");
  const auto ping = c.expect([](const ServerMessage& m) { return m.has_ping(); }, "a Ping");
  wire::ClientMessage pong;
  pong.mutable_pong()->set_nonce(ping.ping().nonce());
  c.send(pong);
  // Answering keeps it open past the idle timeout: the next thing is another ping.
  c.expect([](const ServerMessage& m) { return m.has_ping(); }, "another Ping");
  EXPECT_EQ(server.stats().connections, 1u);
}

TEST(ServerHostile, ValidFrameOfGarbageIsABadFrame) {
  TestServer server;
  TestClient c(server.port());
  c.send_raw(frame_header(6) + std::string("\xff\xff\xff\xff\xff\xff", 6));
  EXPECT_TRUE(c.expect_error(wire::ERROR_CODE_BAD_FRAME).fatal());
  EXPECT_TRUE(c.wait_closed());
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, MessageBeforeHelloIsOutOfPlace) {
  TestServer server;
  TestClient c(server.port());
  c.move(0, 0);
  const auto error = c.expect_error(wire::ERROR_CODE_HELLO_REQUIRED);
  EXPECT_TRUE(error.fatal());
  EXPECT_TRUE(c.wait_closed());
}

TEST(ServerHostile, EmptyAndUnknownMessagesAreRefusedButNotFatal) {
  TestServer server;
  TestClient c(server.port());
  c.hello("curious");
  c.send(wire::ClientMessage());  // no body
  c.expect_error(wire::ERROR_CODE_UNKNOWN_MESSAGE);
  // Field 999: a message from some future protocol.
  c.send_raw(frame_header(3) + std::string("\xb8\x3e\x01", 3));
  c.expect_error(wire::ERROR_CODE_UNKNOWN_MESSAGE);
  wire::ClientMessage again;  // a second Hello
  again.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  again.mutable_hello()->set_name("again");
  c.send(again);
  c.expect_error(wire::ERROR_CODE_ALREADY_HELLO);
  c.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  c.expect([](const ServerMessage& m) { return m.has_game_list(); }, "the list");
}

TEST(ServerHostile, ThousandConnectionsThatNeverSayHelloAreDropped) {
  raise_file_limit();
  auto config = short_deadlines();
  config.session.hello_timeout = std::chrono::milliseconds(1500);
  TestServer server(config);
  std::vector<std::unique_ptr<TestClient>> silent;
  for (int i = 0; i < 1000; ++i) silent.push_back(std::make_unique<TestClient>(server.port()));
  // While they hang around, games go on.
  expect_normal_game_completes(server.port());
  for (auto& c : silent) {
    c->expect_error(wire::ERROR_CODE_HELLO_TIMEOUT, std::chrono::seconds(10));
  }
  for (auto& c : silent) EXPECT_TRUE(c->wait_closed());
  silent.clear();
  eventually([&] { return server.stats().connections == 0; }, std::chrono::seconds(5),
             std::chrono::milliseconds(20));
  EXPECT_EQ(server.stats().connections, 0u);
  expect_normal_game_completes(server.port());
}

// A server where chat is unlimited and a connection may fall 64 KiB behind.
server::ServerConfig flood_config() {
  auto config = test_config();
  config.session.max_queued_bytes = 64 * 1024;
  config.session.messages_per_second = 0;
  config.lobby.chat_per_second = 1e9;
  config.lobby.chat_burst = 1e9;
  config.lobby.address_chat_per_second = 1e9;
  config.lobby.address_chat_burst = 1e9;
  return config;
}

// Seats the sleeper (a tiny receive buffer) and the talker in one game. From
// then on the sleeper reads nothing; the talker floods the room with chat and
// reads its own echoes, so only the sleeper falls behind.
void seat_sleeper_and_talker(TestClient& sleeper, TestClient& talker) {
  sleeper.set_receive_buffer(4096);
  sleeper.hello("sleeper");
  talker.hello("talker");
  sleeper.create(3);
  const auto game = sleeper.expect_joined().state().game_id();
  talker.join(game);
  talker.expect_joined();
}

wire::ClientMessage long_chat() {
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text(std::string(200, 'z'));
  return chat;
}

TEST(ServerHostile, ClientThatNeverReadsIsDisconnectedWhileItsOpponentPlaysOn) {
  auto config = flood_config();
  config.lobby.reconnect_grace = std::chrono::milliseconds(100);
  TestServer server(config);
  TestClient sleeper(server.port());
  TestClient talker(server.port());
  seat_sleeper_and_talker(sleeper, talker);
  const wire::ClientMessage chat = long_chat();
  bool forfeited = false;
  for (int batch = 0; batch < 400 && !forfeited; ++batch) {
    for (int i = 0; i < 100; ++i) talker.send(chat);
    for (int i = 0; i < 100 && !forfeited; ++i) {
      const auto m = talker.expect(
          [](const ServerMessage& r) {
            return r.has_chat() || (r.has_state() && is_over(r.state()));
          },
          "an echo");
      forfeited = m.has_state();
    }
  }
  if (!forfeited) {
    // The sleeper's queue overflowed; it is closed when the linger for its
    // last Error runs out, and its seat is forfeited after the grace.
    const auto end =
        talker.expect([](const ServerMessage& r) { return r.has_state() && is_over(r.state()); },
                      "the sleeper's forfeit", 10s);
    forfeited = end.has_state();
  }
  ASSERT_TRUE(forfeited) << "the sleeper was never disconnected";
  EXPECT_EQ(server.stats().connections, 1u);
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, AClientThatFallsTooFarBehindIsToldWhyBeforeItIsClosed) {
  auto config = flood_config();
  config.session.close_linger = std::chrono::milliseconds(30'000);
  config.session.socket_send_buffer = 16 * 1024;
  TestServer server(config);
  TestClient sleeper(server.port());
  TestClient talker(server.port());
  seat_sleeper_and_talker(sleeper, talker);
  // 2 MB: far more than the sleeper's 64 KiB queue and the sockets' buffers hold.
  const wire::ClientMessage chat = long_chat();
  for (int batch = 0; batch < 100; ++batch) {
    for (int i = 0; i < 100; ++i) talker.send(chat);
    for (int i = 0; i < 100; ++i) {
      talker.expect([](const ServerMessage& r) { return r.has_chat(); }, "an echo");
    }
  }
  // The sleeper wakes up: behind what was already on its way comes the reason.
  const auto error = sleeper.expect_error(wire::ERROR_CODE_SLOW_CONSUMER, 10s);
  EXPECT_TRUE(error.fatal());
  EXPECT_TRUE(sleeper.wait_closed());
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, BytesThatNeverMakeAFrameDoNotKeepAConnectionAlive) {
  auto config = test_config();
  config.session.idle_timeout = std::chrono::milliseconds(400);
  TestServer server(config);
  TestClient trickler(server.port());
  trickler.hello("trickler");
  // A frame that declares 1,000 bytes, fed one byte every 50 ms: never finished.
  ASSERT_TRUE(trickler.send_raw(std::string("\0\0\x03\xe8", 4)));
  bool closed = false;
  for (int i = 0; i < 100 && !closed; ++i) {
    closed = !trickler.send_raw("x");
    if (!closed) closed = trickler.wait_closed(50ms);
  }
  EXPECT_TRUE(closed) << "a trickle of bytes kept the connection open";
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, ServerFullIsSaidPlainly) {
  auto config = test_config();
  config.max_connections = 3;
  TestServer server(config);
  TestClient a(server.port()), b(server.port()), c(server.port());
  a.hello("a");
  b.hello("b");
  c.hello("c");
  TestClient d(server.port());
  const auto error = d.expect_error(wire::ERROR_CODE_SERVER_FULL);
  EXPECT_TRUE(error.fatal());
  EXPECT_NE(error.text().find("server full"), std::string::npos);
  EXPECT_TRUE(d.wait_closed());
}

TEST(ServerHostile, MessageFloodIsRateLimited) {
  auto config = test_config();
  config.session.messages_per_second = 20;
  config.session.message_burst = 40;
  TestServer server(config);
  TestClient c(server.port());
  c.hello("flood");
  for (int i = 0; i < 200; ++i) c.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  EXPECT_FALSE(c.expect_error(wire::ERROR_CODE_RATE_LIMITED).fatal());
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, ManyRandomFramedMessagesNeverCrashTheServer) {
  // Well-framed but arbitrary protobuf bodies after a valid Hello.
  TestServer server;
  std::mt19937 rng(77);
  for (int trial = 0; trial < 20; ++trial) {
    TestClient c(server.port());
    c.hello("fuzz" + std::to_string(trial));
    for (int i = 0; i < 30; ++i) {
      std::string body(rng() % 40, '\0');
      for (char& b : body) b = static_cast<char>(rng());
      if (!c.send_raw(frame_header(static_cast<std::uint32_t>(body.size())) + body)) break;
    }
  }
  expect_normal_game_completes(server.port());
}

TEST(ServerHostile, AFloodOfPongsIsCutOff) {
  // Every frame counts against the rate, pongs too; a peer that goes on a
  // burst past the warning is closed.
  TestServer server;
  TestClient victim(server.port());
  victim.hello("victim");
  TestClient flooder(server.port());
  flooder.hello("flooder");
  flooder.send_raw(pong_frames(4000));
  const auto warned = flooder.expect_error(wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_FALSE(warned.fatal());
  const auto cut =
      flooder.expect([](const ServerMessage& m) { return m.has_error() && m.error().fatal(); },
                     "the end of the flood");
  EXPECT_EQ(cut.error().code(), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(cut.error().text().find("flooding"), std::string::npos) << cut.error().text();
  EXPECT_TRUE(flooder.wait_closed());
  EXPECT_TRUE(pinged(victim, 7));
}

TEST(ServerHostile, AConnectionStreamingFramesLeavesOthersServedWhileItStreams) {
  // No rate limit: only the reader's turns stand between one connection's
  // stream and everyone else. With one thread, the victim's ping is answered
  // while the flood goes on, not after it.
  auto config = test_config();
  config.session.messages_per_second = 0;
  TestServer server(config);
  TestClient victim(server.port());
  victim.hello("victim");
  TestClient flooder(server.port());
  flooder.hello("flooder");
  FloodThread flood(flooder, pong_frames(128 * 1024), 10s);
  ASSERT_TRUE(eventually([&] { return flood.sent() > (2u << 20) || !flood.running(); }));
  EXPECT_TRUE(pinged(victim, 7, 15s));
  EXPECT_TRUE(flood.running()) << "the ping was answered only once the flood had ended";
  flood.stop();
  EXPECT_FALSE(flood.cut_off());
  EXPECT_TRUE(pinged(victim, 8));
}

TEST(ServerHostile, APeerStreamingPastItsErrorIsClosedWhenTheLingerEnds) {
  // A peer told why it is closed keeps streaming bytes: the server drains
  // it only until the linger ends, and serves the others meanwhile.
  auto config = short_deadlines();
  config.session.messages_per_second = 0;
  TestServer server(config);
  TestClient victim(server.port());
  victim.hello("victim");
  TestClient streamer(server.port());
  wire::ClientMessage ping;
  ping.mutable_ping()->set_nonce(1);
  streamer.send(ping);  // not a Hello: told so, and closed after the linger
  FloodThread flood(streamer, std::string(64 * 1024, '\0'), 10s);
  EXPECT_TRUE(pinged(victim, 7, 15s));
  EXPECT_TRUE(eventually([&] { return !flood.running(); }, 12s));
  EXPECT_TRUE(flood.cut_off()) << "still open after its linger: sent " << flood.sent() << " bytes";
}

}  // namespace
}  // namespace ttt::testing
