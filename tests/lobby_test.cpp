// The Lobby without sockets: fake participants say Hello, match, play and go
// away, and the test reads what the lobby sent each of them.
#include "server/lobby.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

class FakeConnection : public Participant {
 public:
  void deliver(const Outbound& message) override { received.push_back(*message.message); }
  void close() override { closed = true; }

  template <typename Pred>
  const wire::ServerMessage* last(Pred pred) const {
    for (auto it = received.rbegin(); it != received.rend(); ++it) {
      if (pred(*it)) return &*it;
    }
    return nullptr;
  }
  const wire::ServerMessage* last_error() const {
    return last([](const wire::ServerMessage& m) { return m.has_error(); });
  }

  std::vector<wire::ServerMessage> received;
  bool closed = false;
};

class LobbyTest : public ::testing::Test {
 protected:
  LobbyTest() : logic_(boost::asio::make_strand(io_)), lobby_(logic_, logic_, config()) {}

  static LobbyConfig config() {
    LobbyConfig c;
    c.bot_budget = std::chrono::milliseconds(1);
    return c;
  }

  std::shared_ptr<FakeConnection> connect() {
    auto conn = std::make_shared<FakeConnection>();
    lobby_.connected(conn);
    return conn;
  }
  void send(const std::shared_ptr<FakeConnection>& conn, wire::ClientMessage m) {
    m.set_request_id(++request_id_);
    lobby_.receive(conn, m);
    io_.poll();
  }
  std::shared_ptr<FakeConnection> player(const std::string& name) {
    auto conn = connect();
    wire::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_name(name);
    send(conn, hello);
    return conn;
  }
  void quick(const std::shared_ptr<FakeConnection>& conn, int size) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(size);
    send(conn, m);
  }

  boost::asio::io_context io_;
  boost::asio::strand<boost::asio::io_context::executor_type> logic_;
  Lobby lobby_;
  std::uint32_t request_id_ = 0;
};

TEST_F(LobbyTest, HelloIsAnsweredWithAWelcomeTokenAndSecret) {
  auto alice = player("alice");
  ASSERT_FALSE(alice->received.empty());
  const auto& welcome = alice->received.front();
  ASSERT_TRUE(welcome.has_welcome());
  EXPECT_EQ(welcome.in_reply_to(), 1u);
  EXPECT_EQ(welcome.welcome().name(), "alice");
  EXPECT_EQ(welcome.welcome().resume_token().size(), 32u);
  EXPECT_EQ(welcome.welcome().secret().size(), 32u);
  EXPECT_EQ(lobby_.stats().players, 1u);
}

TEST_F(LobbyTest, MessagesBeforeHelloCloseTheConnection) {
  auto stranger = connect();
  wire::ClientMessage list;
  list.mutable_list_games();
  send(stranger, list);
  ASSERT_NE(stranger->last_error(), nullptr);
  EXPECT_EQ(stranger->last_error()->error().code(), wire::ERROR_CODE_HELLO_REQUIRED);
  EXPECT_TRUE(stranger->closed);
}

TEST_F(LobbyTest, QuickMatchPairsTheFirstTwoOfASize) {
  auto a = player("a");
  auto b = player("b");
  auto c = player("c");
  quick(a, 3);
  quick(c, 4);
  EXPECT_EQ(lobby_.stats().queued, 2u);
  quick(b, 3);
  EXPECT_EQ(lobby_.stats().queued, 1u);
  EXPECT_EQ(lobby_.stats().rooms, 1u);
  const auto* joined_a = a->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  const auto* joined_b = b->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_TRUE(joined_a && joined_b);
  EXPECT_EQ(joined_a->joined().side(), wire::SIDE_X);
  EXPECT_EQ(joined_b->joined().side(), wire::SIDE_O);
}

TEST_F(LobbyTest, AQueuedPlayerWhoLeavesIsNotMatched) {
  auto a = player("a");
  auto b = player("b");
  quick(a, 5);
  lobby_.disconnected(a.get());
  quick(b, 5);
  EXPECT_EQ(lobby_.stats().rooms, 0u);
  EXPECT_EQ(lobby_.stats().queued, 1u);
}

TEST_F(LobbyTest, ADisconnectedPlayerInAGameIsHeldAndComesBackWithTheToken) {
  auto a = player("a");
  auto b = player("b");
  quick(a, 3);
  quick(b, 3);
  const std::string token = b->received.front().welcome().resume_token();
  lobby_.disconnected(b.get());
  EXPECT_EQ(lobby_.stats().players, 2u) << "b's seat is held";
  const auto* away = a->last([](const wire::ServerMessage& m) { return m.has_opponent(); });
  ASSERT_NE(away, nullptr);
  EXPECT_FALSE(away->opponent().connected());

  auto again = connect();
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  send(again, hello);
  ASSERT_FALSE(again->received.empty());
  EXPECT_TRUE(again->received.front().welcome().resumed());
  EXPECT_NE(again->received.front().welcome().resume_token(), token) << "tokens rotate";
  const auto* joined = again->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->in_reply_to(), request_id_);
}

TEST_F(LobbyTest, ADisconnectedPlayerOutsideAGameIsForgotten) {
  auto a = player("a");
  lobby_.disconnected(a.get());
  EXPECT_EQ(lobby_.stats().players, 0u);
  EXPECT_EQ(lobby_.stats().connections, 0u);
  EXPECT_EQ(lobby_.stats().accounts, 1u) << "the name stays owned";
}

TEST_F(LobbyTest, ATakenNameIsRefusedWithoutItsSecret) {
  auto first = player("alice");
  const std::string secret = first->received.front().welcome().secret();
  lobby_.disconnected(first.get());
  auto impostor = player("Alice");
  ASSERT_NE(impostor->last_error(), nullptr);
  EXPECT_EQ(impostor->last_error()->error().code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(impostor->closed);

  auto owner = connect();
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("alice");
  hello.mutable_hello()->set_secret(secret);
  send(owner, hello);
  ASSERT_TRUE(owner->received.front().has_welcome());
  EXPECT_TRUE(owner->received.front().welcome().secret().empty());
}

TEST_F(LobbyTest, ShutdownSaysGoodbyeToEveryConnection) {
  auto a = player("a");
  auto silent = connect();
  lobby_.shutdown("maintenance");
  for (const auto& conn : {a, silent}) {
    const auto* bye = conn->last([](const wire::ServerMessage& m) { return m.has_goodbye(); });
    ASSERT_NE(bye, nullptr);
    EXPECT_EQ(bye->goodbye().reason(), "maintenance");
    EXPECT_TRUE(conn->closed);
  }
}

}  // namespace
}  // namespace ttt::server
