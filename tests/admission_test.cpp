// Admission alone, with a fake lobby around it and the real parts it works
// with (HelloDesk, NodeRouter, GameHoldings, PlayerTable, RoomRegistry) on
// one node: a Hello in the wrong protocol version or said twice is refused;
// a new name is registered and Welcomed, a known one let in with its secret
// and refused with a wrong one; a resume token takes a player back from its
// old connection; a second connection takes the session only when it asks
// to; Welcome hands over the results decided while the player was away; a
// Hello waits while the node checks which games are its own; a new secret
// replaces the player's token.
#include "lobby/admission.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <memory>
#include <vector>

#include "executor_check.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "support/fake_game_holders.hpp"
#include "support/fake_participant.hpp"
#include "support/fake_routed_connection.hpp"
#include "support/instant_journal.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeGameHolders;
using testing::FakeParticipant;
using testing::FakeRoutedConnection;
using testing::InstantJournal;
using testing::MemoryAccounts;

constexpr const char* kSecret = "alices-secret-0123456789abcdef-0123";

// This node alone ("a"), and node "b", alive, for the answers that send a
// player there. Tokens held are kept for the test; a hold may be refused as
// if "b" held the player (refuse_holds).
class OneNode : public testing::TwoNodeCluster {
 public:
  void find_player(AccountId, PlayerDone done) override { done(player_at, true); }
  void hold(AccountId account, const std::string& hash, milliseconds, const std::string&,
            HoldDone done) override {
    held.push_back({account, hash});
    if (done) done(refuse_holds);
  }

  std::vector<std::pair<AccountId, std::string>> held;
  std::string player_at = "a";  // where find_player says the player is ("": nowhere)
  std::string refuse_holds;     // the node that holds every player instead ("": none)
};

// The lobby as the admission (and the router, registry and holdings under
// it) sees it: the players are the table's, the connections the test's.
class FakeLobby : public AdmissionHost,
                  public RoutingHost,
                  public RoomHost,
                  public HoldingsHost,
                  public testing::DeliveredReplies {
 public:
  explicit FakeLobby(PlayerTable& players) : players_(players) {}

  // AdmissionHost (connection_of and still_open are RoutingHost's too)
  std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const override {
    auto open = connection.lock();
    if (!open || !open->participant()) return nullptr;
    return open;
  }
  RoutedConnection* connection_of(const LobbyPlayer& player) override {
    return static_cast<FakeRoutedConnection*>(player.inbox);
  }
  void held_elsewhere(AccountId account, const std::string& node) override {
    elsewhere.emplace_back(account, node);
  }
  // PlayerReplies
  LobbyPlayer* player_of(SeatId id) override { return players_.get(id); }
  // RoutingHost: nobody is sent here or away in these tests.
  void hand_off(LobbyPlayer&) override { ADD_FAILURE() << "nobody is handed off"; }
  void enter_sent(RoutedConnection&, const StoredPlayer&, const wire::Hello&, std::uint32_t,
                  const std::function<void(LobbyPlayer&)>&) override {
    ADD_FAILURE() << "nobody arrives with a reservation";
  }
  void took_kept_seat(LobbyPlayer&, wire::Rated) override {}
  void challenge_here(LobbyPlayer&, const wire::Challenge&) override {}
  std::shared_ptr<GameRoom> find_room(GameId) const override { return nullptr; }
  LobbyPlayer* online(std::string_view) override { return nullptr; }
  std::optional<std::pair<wire::ErrorCode, std::string>> challenge_refusal(
      const LobbyPlayer&, AccountId) const override {
    return std::nullopt;
  }
  std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest&) override { return nullptr; }
  void wait_again(SeatId, const SeatRequest&) override {}
  bool draining() const noexcept override { return false; }
  bool shutting_down() const noexcept override { return false; }
  // RoomHost
  void connect_bot(LobbyPlayer&, const std::shared_ptr<HouseBot>&) override {}
  void took_seat(LobbyPlayer&) override {}
  void forget(SeatId player) override { players_.erase(player); }
  void round_may_be_over(GameRoom&) override {}
  // HoldingsHost: no games here.
  bool has_room(GameId) const override { return false; }
  std::vector<RecordId> records_here(bool) const override { return {}; }
  bool take_over(const ClaimedGame&, const std::string&) override { return false; }
  bool drop_game(RecordId, const std::string&) override { return false; }

  std::vector<std::pair<AccountId, std::string>> elsewhere;  // held_elsewhere's calls

 private:
  PlayerTable& players_;
};

wire::Hello hello_as(const std::string& name, const std::string& secret = kSecret) {
  wire::Hello hello;
  hello.set_protocol_version(wire::kProtocolVersion);
  hello.set_name(name);
  hello.set_secret(secret);
  return hello;
}

wire::Hello resuming(const std::string& token) {
  wire::Hello hello;
  hello.set_protocol_version(wire::kProtocolVersion);
  hello.set_resume_token(token);
  return hello;
}

const wire::Welcome* welcome_of(const FakeParticipant& peer) {
  const auto* message = peer.last([](const wire::ServerMessage& m) { return m.has_welcome(); });
  return message ? &message->welcome() : nullptr;
}

wire::ErrorCode error_code(const FakeParticipant& peer) {
  const auto* error = peer.last_error();
  return error ? error->error().code() : wire::ERROR_CODE_UNSPECIFIED;
}

class AdmissionTest : public ::testing::Test {
 protected:
  AdmissionTest()
      : rooms_(io_.get_executor(), io_.get_executor(), accounts_, journal_, directory_, log_,
               nullptr, players_, invites_, lobby_, RoomTerms{}),
        router_(io_.get_executor(), cluster_, accounts_, desk_, lobby_, RoutingLimits{}) {
    AdmissionTerms terms;
    terms.server_version = "9.8.7";
    terms.reconnect_grace = milliseconds(4'000);
    terms.move_timeout = milliseconds(30'000);
    terms.web_client = true;
    terms.web_url = "https://ttt.example/";
    terms.heartbeat_timeout = milliseconds(9'000);
    admission_ = std::make_unique<Admission>(desk_, router_, holdings_, players_, rooms_, accounts_,
                                             cluster_, log_, lobby_, terms);
  }

  // A new connection from `address`.
  std::shared_ptr<FakeRoutedConnection> connect(const std::string& address = "10.0.0.9") {
    auto connection = std::make_shared<FakeRoutedConnection>();
    connection->address = address;
    connections_.push_back(connection);
    return connection;
  }
  // The connection says Hello.
  void say(FakeRoutedConnection& connection, const wire::Hello& hello,
           std::uint32_t request_id = 1) {
    admission_->hello(connection, hello, request_id);
  }
  // A connection whose player `name` (registered if new) is in the lobby.
  std::shared_ptr<FakeRoutedConnection> entered(const std::string& name,
                                                const std::string& address = "10.0.0.9") {
    auto connection = connect(address);
    say(*connection, hello_as(name));
    EXPECT_NE(welcome_of(*connection->peer), nullptr) << name << " is in";
    return connection;
  }
  // The account of `name`, owned by kSecret, with no player here.
  AccountId account(const std::string& name) {
    std::optional<Identified> made;
    desk_.register_name(hello_as(name), "10.0.0.1", [&](Identified who) { made = std::move(who); });
    EXPECT_TRUE(made && made->kind == Identified::Kind::kKnown);
    return made ? made->account : AccountId{};
  }

  // The test's thread runs the lobby's executor, as the server's logic
  // thread would (the sanitizer build checks).
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  OneNode cluster_;
  LogLimiter log_;
  InstantJournal journal_;
  LocalGameDirectory directory_;
  PlayerTable players_;
  FakeLobby lobby_{players_};
  HelloDesk desk_{accounts_, cluster_, log_, HelloLimits{},
                  [this](SeatId seat) { return players_.contains(seat); }};
  InviteCodes invites_{directory_, lobby_, InviteLimits{}};
  RoomRegistry rooms_;
  NodeRouter router_;
  FakeGameHolders holders_;
  GameHoldings holdings_{io_.get_executor(), holders_, cluster_, lobby_, milliseconds(2'500)};
  std::unique_ptr<Admission> admission_;
  std::vector<std::shared_ptr<FakeRoutedConnection>> connections_;
};

// --- refused at the door -------------------------------------------------------------

TEST_F(AdmissionTest, AHelloInAnotherProtocolVersionIsRefusedAndClosed) {
  auto connection = connect();
  wire::Hello hello = hello_as("alice");
  hello.set_protocol_version(wire::kProtocolVersion + 1);
  say(*connection, hello, 7);
  EXPECT_EQ(error_code(*connection->peer), wire::ERROR_CODE_VERSION_UNSUPPORTED);
  EXPECT_EQ(connection->peer->last_error()->in_reply_to(), 7u);
  EXPECT_NE(connection->peer->last_error()->error().text().find("protocol version"),
            std::string::npos);
  EXPECT_TRUE(connection->peer->closed);
  EXPECT_EQ(connection->player, nullptr);
  EXPECT_EQ(players_.size(), 0u);
  EXPECT_TRUE(accounts_.created.empty()) << "no name registered";
}

TEST_F(AdmissionTest, ASecondHelloOnAConnectionIsRefusedAndTheConnectionStays) {
  auto connection = entered("alice");
  LobbyPlayer* alice = connection->player;
  ASSERT_NE(alice, nullptr);
  say(*connection, hello_as("bob"), 2);
  EXPECT_EQ(error_code(*connection->peer), wire::ERROR_CODE_ALREADY_HELLO);
  EXPECT_FALSE(connection->peer->closed);
  EXPECT_EQ(connection->player, alice) << "it still speaks for alice";
  EXPECT_EQ(players_.size(), 1u);
}

// --- names and secrets ------------------------------------------------------------------

TEST_F(AdmissionTest, ANewNameIsRegisteredAndWelcomedWithATokenAndTheServerInstance) {
  auto connection = connect("10.0.0.5");
  say(*connection, hello_as("alice"), 3);
  const wire::Welcome* welcome = welcome_of(*connection->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_EQ(connection->peer->received.back().in_reply_to(), 3u);
  EXPECT_EQ(welcome->name(), "alice");
  EXPECT_FALSE(welcome->resumed());
  EXPECT_TRUE(welcome->secret().empty()) << "the client chose its secret";
  EXPECT_FALSE(welcome->resume_token().empty());
  EXPECT_EQ(welcome->server_instance(), admission_->instance());
  EXPECT_FALSE(admission_->instance().empty());
  const Admission restarted(desk_, router_, holdings_, players_, rooms_, accounts_, cluster_, log_,
                            lobby_, AdmissionTerms{});
  EXPECT_NE(restarted.instance(), admission_->instance()) << "a new one with every start";
  EXPECT_EQ(welcome->protocol_version(), wire::kProtocolVersion);
  EXPECT_EQ(welcome->server_version(), "9.8.7");
  EXPECT_EQ(welcome->reconnect_grace_ms(), 4'000u);
  EXPECT_EQ(welcome->move_timeout_ms(), 30'000u);
  EXPECT_TRUE(welcome->web_client());
  EXPECT_EQ(welcome->web_url(), "https://ttt.example/");
  EXPECT_EQ(welcome->heartbeat_timeout_ms(), 9'000u);
  EXPECT_EQ(welcome->heartbeat_ms(), 3'000u);
  EXPECT_EQ(welcome->game_id(), 0u);

  ASSERT_EQ(accounts_.created, std::vector<std::string>{"alice"});
  LobbyPlayer* alice = connection->player;
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(welcome->player_id(), number(alice->id));
  EXPECT_EQ(alice->name, "alice");
  EXPECT_EQ(alice->key, name_key("alice"));
  EXPECT_EQ(alice->address, "10.0.0.5");
  EXPECT_EQ(alice->inbox, connection.get());
  EXPECT_FALSE(connection->routing);
  // The token is the player's, and held in the shared state by its hash.
  EXPECT_EQ(desk_.tokens().hash_of(alice->id), sha256_hex(welcome->resume_token()));
  ASSERT_EQ(cluster_.held.size(), 1u);
  EXPECT_EQ(cluster_.held[0].first, alice->account);
  EXPECT_EQ(cluster_.held[0].second, sha256_hex(welcome->resume_token()));
}

TEST_F(AdmissionTest, ANewNameWithoutASecretIsGivenOneOnce) {
  auto connection = connect();
  say(*connection, hello_as("alice", ""));
  const wire::Welcome* welcome = welcome_of(*connection->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_TRUE(is_valid_secret(welcome->secret())) << welcome->secret();
}

TEST_F(AdmissionTest, AKnownNameWithItsSecretIsLetIn) {
  const AccountId alice = account("alice");
  auto connection = connect();
  say(*connection, hello_as("alice"));
  const wire::Welcome* welcome = welcome_of(*connection->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_EQ(welcome->name(), "alice");
  EXPECT_FALSE(welcome->resumed());
  EXPECT_TRUE(welcome->secret().empty()) << "a secret is told only when it is made";
  ASSERT_NE(connection->player, nullptr);
  EXPECT_EQ(connection->player->account, alice);
  EXPECT_EQ(accounts_.created.size(), 1u) << "no second account";
}

TEST_F(AdmissionTest, AKnownNameWithAWrongSecretIsRefusedAndClosed) {
  account("alice");
  auto connection = connect();
  say(*connection, hello_as("alice", "not-alices-secret-0123456789abcdef"), 4);
  EXPECT_EQ(error_code(*connection->peer), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_EQ(connection->peer->last_error()->in_reply_to(), 4u);
  EXPECT_TRUE(connection->peer->closed);
  EXPECT_EQ(welcome_of(*connection->peer), nullptr);
  EXPECT_EQ(connection->player, nullptr);
  EXPECT_EQ(players_.size(), 0u);
}

// --- one session per name --------------------------------------------------------------

TEST_F(AdmissionTest, AResumeTokenTakesThePlayerBackFromItsOldConnection) {
  auto first = entered("alice");
  LobbyPlayer* alice = first->player;
  ASSERT_NE(alice, nullptr);
  const std::string token = welcome_of(*first->peer)->resume_token();

  auto second = connect("10.0.0.7");
  say(*second, resuming(token), 5);
  const wire::Welcome* welcome = welcome_of(*second->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_TRUE(welcome->resumed());
  EXPECT_EQ(welcome->player_id(), number(alice->id));
  EXPECT_NE(welcome->resume_token(), token) << "a fresh token on every Hello";
  EXPECT_EQ(second->player, alice);
  EXPECT_EQ(alice->inbox, second.get());
  EXPECT_EQ(alice->address, "10.0.0.7");
  EXPECT_EQ(players_.size(), 1u);

  EXPECT_EQ(error_code(*first->peer), wire::ERROR_CODE_REPLACED);
  EXPECT_NE(first->peer->last_error()->error().text().find("continued on a new connection"),
            std::string::npos);
  EXPECT_TRUE(first->peer->closed);
  EXPECT_EQ(first->player, nullptr) << "its closing no longer concerns alice";

  auto third = connect();
  say(*third, resuming(token));
  EXPECT_EQ(error_code(*third->peer), wire::ERROR_CODE_BAD_RESUME_TOKEN)
      << "the old token stopped working";
  EXPECT_TRUE(third->peer->closed);
}

TEST_F(AdmissionTest, ASecondConnectionIsRefusedTheSessionUnlessItAsksToTakeItOver) {
  auto first = entered("alice");
  LobbyPlayer* alice = first->player;

  auto second = connect();
  say(*second, hello_as("alice"));
  EXPECT_EQ(error_code(*second->peer), wire::ERROR_CODE_SESSION_ACTIVE);
  EXPECT_TRUE(second->peer->closed);
  EXPECT_EQ(second->player, nullptr);
  EXPECT_EQ(first->player, alice) << "the first keeps the session";
  EXPECT_FALSE(first->peer->closed);

  auto third = connect();
  wire::Hello take_over = hello_as("alice");
  take_over.set_take_over(true);
  say(*third, take_over, 6);
  const wire::Welcome* welcome = welcome_of(*third->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_TRUE(welcome->resumed());
  EXPECT_EQ(third->player, alice);
  EXPECT_EQ(error_code(*first->peer), wire::ERROR_CODE_REPLACED);
  EXPECT_NE(first->peer->last_error()->error().text().find("taken over by another connection"),
            std::string::npos);
  EXPECT_TRUE(first->peer->closed);
  EXPECT_FALSE(first->peer->heartbeat);
  EXPECT_EQ(first->player, nullptr);
}

TEST_F(AdmissionTest, AnAwayPlayerIsTakenBackByItsNameAndSecret) {
  auto first = entered("alice");
  LobbyPlayer* alice = first->player;
  first->detach();  // its connection dropped; the lobby holds the player
  auto second = connect();
  say(*second, hello_as("alice"));
  const wire::Welcome* welcome = welcome_of(*second->peer);
  ASSERT_NE(welcome, nullptr);
  EXPECT_TRUE(welcome->resumed());
  EXPECT_EQ(second->player, alice);
  EXPECT_EQ(first->peer->last_error(), nullptr) << "the dropped connection is told nothing";
}

// --- what Welcome hands over ------------------------------------------------------------

TEST_F(AdmissionTest, WelcomeCarriesTheResultsDecidedWhileThePlayerWasAwayOnce) {
  const AccountId alice = account("alice");
  wire::AwayResult result;
  result.set_game_id(12);
  result.set_opponent("bob");
  result.set_end_reason(wire::END_REASON_TIMEOUT);
  rooms_.decided_while_away(alice, result);

  auto first = connect();
  say(*first, hello_as("alice"));
  const wire::Welcome* welcome = welcome_of(*first->peer);
  ASSERT_NE(welcome, nullptr);
  ASSERT_EQ(welcome->decided_while_away_size(), 1);
  EXPECT_EQ(welcome->decided_while_away(0).game_id(), 12u);
  EXPECT_EQ(welcome->decided_while_away(0).opponent(), "bob");
  EXPECT_EQ(welcome->decided_while_away(0).end_reason(), wire::END_REASON_TIMEOUT);

  auto second = connect();
  say(*second, resuming(welcome->resume_token()));
  ASSERT_NE(welcome_of(*second->peer), nullptr);
  EXPECT_EQ(welcome_of(*second->peer)->decided_while_away_size(), 0) << "told once";
}

// --- several nodes on one path -------------------------------------------------------

TEST_F(AdmissionTest, AHelloWaitsWhileTheNodeChecksWhichGamesAreItsOwn) {
  holdings_.check();
  ASSERT_TRUE(holdings_.checking());
  ASSERT_EQ(holders_.checks.size(), 1u);
  auto connection = connect();
  say(*connection, hello_as("alice"));
  EXPECT_TRUE(connection->routing) << "what the peer says meanwhile is held";
  EXPECT_EQ(welcome_of(*connection->peer), nullptr);
  EXPECT_TRUE(accounts_.created.empty());

  auto dropped = connect();
  say(*dropped, hello_as("bob"));
  dropped->gone = true;  // it closes while it waits

  holders_.checks.front().second(std::map<RecordId, std::string>{});
  EXPECT_FALSE(connection->routing);
  ASSERT_NE(welcome_of(*connection->peer), nullptr);
  EXPECT_EQ(welcome_of(*connection->peer)->name(), "alice");
  EXPECT_EQ(accounts_.created, std::vector<std::string>{"alice"}) << "nothing done for bob";
}

TEST_F(AdmissionTest, PastTenThousandHellosWaitingForTheCheckTheNextIsToldToComeBack) {
  holdings_.check();
  ASSERT_TRUE(holdings_.checking());
  constexpr int kMostWaiting = 10'000;
  for (int i = 0; i < kMostWaiting; ++i) say(*connect(), hello_as("p" + std::to_string(i)));
  ASSERT_EQ(holdings_.waiting_for_check(), static_cast<std::size_t>(kMostWaiting));

  auto late = connect();
  say(*late, hello_as("late"), 9);
  EXPECT_EQ(error_code(*late->peer), wire::ERROR_CODE_CLUSTER_UNAVAILABLE);
  EXPECT_EQ(late->peer->last_error()->in_reply_to(), 9u);
  EXPECT_TRUE(late->peer->closed);
  EXPECT_FALSE(late->routing) << "nothing of it waits";
  EXPECT_EQ(holdings_.waiting_for_check(), static_cast<std::size_t>(kMostWaiting));
}

TEST_F(AdmissionTest, APlayerNoLiveNodeHoldsEntersOnceItsGamesAreTakenOver) {
  account("alice");
  cluster_.player_at = "";
  auto connection = connect();
  say(*connection, hello_as("alice"));
  EXPECT_TRUE(connection->routing);
  EXPECT_EQ(welcome_of(*connection->peer), nullptr);
  ASSERT_EQ(holders_.games_asked.size(), 1u);
  holders_.games_asked.front().second(std::vector<HeldGame>{});
  EXPECT_FALSE(connection->routing);
  ASSERT_NE(welcome_of(*connection->peer), nullptr);
  EXPECT_NE(connection->player, nullptr);
}

TEST_F(AdmissionTest, APlayerWhoseGameALiveNodeHoldsIsSentThere) {
  account("alice");
  cluster_.player_at = "";
  auto connection = connect();
  say(*connection, hello_as("alice"));
  ASSERT_EQ(holders_.games_asked.size(), 1u);
  HeldGame game;
  game.game.id = 40;
  game.game.room_id = 4;
  game.game.node = "b";
  holders_.games_asked.front().second(std::vector<HeldGame>{game});
  const auto* redirect =
      connection->peer->last([](const wire::ServerMessage& m) { return m.has_redirect(); });
  ASSERT_NE(redirect, nullptr);
  EXPECT_EQ(redirect->redirect().host(), "127.0.0.2");
  EXPECT_EQ(welcome_of(*connection->peer), nullptr);
  EXPECT_EQ(connection->player, nullptr);
  EXPECT_EQ(players_.size(), 0u);
}

TEST_F(AdmissionTest, APlayerAnotherLiveNodeHoldsInsteadIsLeftToTheLobbyToSendThere) {
  cluster_.refuse_holds = "b";
  auto connection = entered("alice");
  ASSERT_EQ(lobby_.elsewhere.size(), 1u);
  EXPECT_EQ(lobby_.elsewhere[0].first, connection->player->account);
  EXPECT_EQ(lobby_.elsewhere[0].second, "b");
}

// --- a new secret ----------------------------------------------------------------------

TEST_F(AdmissionTest, AnInvalidNewSecretIsRefusedAndTheTokenStays) {
  auto connection = entered("alice");
  LobbyPlayer& alice = *connection->player;
  const auto token_hash = desk_.tokens().hash_of(alice.id);
  wire::RotateSecret rotate;
  rotate.set_new_secret("short");
  admission_->rotate_secret(alice, rotate, 8);
  EXPECT_EQ(error_code(*connection->peer), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(connection->peer->last_error()->in_reply_to(), 8u);
  EXPECT_FALSE(connection->peer->closed);
  EXPECT_EQ(desk_.tokens().hash_of(alice.id), token_hash);
}

TEST_F(AdmissionTest, ANewSecretReplacesThePlayersTokenToldOnlyToIt) {
  auto connection = entered("alice");
  LobbyPlayer& alice = *connection->player;
  const std::string old_token = welcome_of(*connection->peer)->resume_token();
  wire::RotateSecret rotate;
  rotate.set_new_secret("alices-new-secret-0123456789abcdef");
  admission_->rotate_secret(alice, rotate, 9);
  const auto* rotated =
      connection->peer->last([](const wire::ServerMessage& m) { return m.has_secret_rotated(); });
  ASSERT_NE(rotated, nullptr);
  EXPECT_EQ(rotated->in_reply_to(), 9u);
  const std::string& token = rotated->secret_rotated().resume_token();
  EXPECT_FALSE(token.empty());
  EXPECT_NE(token, old_token);
  EXPECT_EQ(desk_.tokens().hash_of(alice.id), sha256_hex(token));
  EXPECT_EQ(cluster_.held.back().second, sha256_hex(token)) << "held in the shared state";

  auto with_old = connect();
  say(*with_old, resuming(old_token));
  EXPECT_EQ(error_code(*with_old->peer), wire::ERROR_CODE_BAD_RESUME_TOKEN);
  auto with_new = connect();
  say(*with_new, resuming(token));
  ASSERT_NE(welcome_of(*with_new->peer), nullptr);
  EXPECT_EQ(with_new->player, &alice);
}

TEST_F(AdmissionTest, ANewSecretTheRecordsRefuseIsReportedAndTheOldTokenStays) {
  auto connection = entered("alice");
  LobbyPlayer& alice = *connection->player;
  const auto token_hash = desk_.tokens().hash_of(alice.id);
  accounts_.secret_write_fails = true;
  wire::RotateSecret rotate;
  rotate.set_new_secret("alices-new-secret-0123456789abcdef");
  admission_->rotate_secret(alice, rotate, 10);
  EXPECT_EQ(error_code(*connection->peer), wire::ERROR_CODE_STORAGE);
  EXPECT_EQ(connection->peer->last_error()->in_reply_to(), 10u);
  EXPECT_EQ(desk_.tokens().hash_of(alice.id), token_hash);
  EXPECT_EQ(
      connection->peer->last([](const wire::ServerMessage& m) { return m.has_secret_rotated(); }),
      nullptr);
}

TEST_F(AdmissionTest, APlayerGoneBeforeItsNewSecretIsStoredIsToldNothing) {
  auto connection = entered("alice");
  LobbyPlayer& alice = *connection->player;
  const SeatId id = alice.id;
  const AccountId account = alice.account;
  accounts_.answer_later = true;
  wire::RotateSecret rotate;
  rotate.set_new_secret("alices-new-secret-0123456789abcdef");
  admission_->rotate_secret(alice, rotate, 11);
  // It leaves meanwhile, as the Lobby forgets a player: its token revoked.
  connection->detach();
  desk_.tokens().revoke(id, account);
  players_.erase(id);
  const std::size_t told = connection->peer->received.size();
  accounts_.run_later();
  EXPECT_EQ(connection->peer->received.size(), told);
  EXPECT_FALSE(desk_.tokens().hash_of(id).has_value()) << "no token issued for a player gone";
}

}  // namespace
}  // namespace ttt::server
