// NodeRouter alone, with a fake lobby and a fake second node around it: a
// place another node asks for is kept and taken by the player who arrives
// with its code (and shows it is the player), one arrival at a time; a place
// nobody takes lapses; a redirect hands the player over (its token held
// there) and goes once the records hold it; a draining node sends newcomers
// to another node, or refuses them when none takes players.
#include "lobby/node_router.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <deque>
#include <map>
#include <set>

#include "executor_check.hpp"
#include "limits/log_limiter.hpp"
#include "support/eventually.hpp"
#include "support/fake_participant.hpp"
#include "support/fake_routed_connection.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeParticipant;
using testing::FakeRoutedConnection;
using testing::MemoryAccounts;
using testing::UnusedRoomDependencies;

constexpr const char* kSecret = "alices-secret-0123456789abcdef-0123";

// The lobby as the router sees it: its players, connections and rooms, and
// what the router asked of it.
class FakeLobby : public RoutingHost, public testing::DeliveredReplies {
 public:
  explicit FakeLobby(boost::asio::io_context& io) : io_(io) {}

  // A player online here on a connection of its own.
  LobbyPlayer& add(std::uint64_t id, const std::string& name) {
    auto& player = players_[SeatId{id}];
    player = std::make_unique<LobbyPlayer>();
    player->id = SeatId{id};
    player->account = AccountId{id};
    player->name = name;
    auto connection = std::make_shared<FakeRoutedConnection>();
    connection->attach(*player);
    connections_[SeatId{id}] = connection;
    return *player;
  }
  FakeRoutedConnection& connection(std::uint64_t id) { return *connections_.at(SeatId{id}); }
  // A room waiting for its second player, `waiting` seated in it.
  std::shared_ptr<GameRoom> open_room(std::uint64_t id, LobbyPlayer& waiting,
                                      const std::string& invite_code = "") {
    RoomSettings settings;
    settings.is_private = !invite_code.empty();
    settings.invite_code = invite_code;
    settings.rated = true;
    auto room = std::make_shared<GameRoom>(GameId{id}, settings, io_.get_executor(),
                                           RoomDependencies{deps_, deps_, deps_});
    rooms_[GameId{id}] = room;
    waiting.room = room;
    room->seat(waiting.ref(), wire::SIDE_X, 0);
    return room;
  }

  LobbyPlayer* player_of(SeatId id) override {
    const auto it = players_.find(id);
    return it == players_.end() ? nullptr : it->second.get();
  }
  RoutedConnection* connection_of(const LobbyPlayer& player) override {
    const auto it = connections_.find(player.id);
    return it == connections_.end() ? nullptr : it->second.get();
  }
  std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const override {
    auto open = connection.lock();
    if (!open || !open->participant()) return nullptr;
    return open;
  }
  void hand_off(LobbyPlayer& player) override {
    const SeatId id = player.id;
    handed_off.push_back(id);
    if (player.room) player.room->leave(id, 0);
    connection(number(id)).detach();
    connections_.erase(id);
    players_.erase(id);
  }
  void enter_sent(RoutedConnection& connection, const StoredPlayer& account, const wire::Hello&,
                  std::uint32_t, const std::function<void(LobbyPlayer&)>& place) override {
    const std::uint64_t id = static_cast<std::uint64_t>(account.id);
    LobbyPlayer& player = add(id, account.name);
    // The router's connection is the player's now.
    auto& arrived = static_cast<FakeRoutedConnection&>(connection);
    connections_[player.id] = arrived.shared_from_this();
    arrived.attach(player);
    entered.push_back(player.id);
    place(player);
  }
  void took_kept_seat(LobbyPlayer& player, wire::Rated asked) override {
    seats_taken.push_back({player.id, asked});
  }
  void challenge_here(LobbyPlayer& player, const wire::Challenge& challenge) override {
    challenges.push_back({player.id, challenge.name()});
  }
  std::shared_ptr<GameRoom> find_room(GameId id) const override {
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second;
  }
  LobbyPlayer* online(std::string_view name) override {
    for (auto& [id, player] : players_) {
      if (player->name == name && connections_.contains(id)) return player.get();
    }
    return nullptr;
  }
  std::optional<std::pair<wire::ErrorCode, std::string>> challenge_refusal(
      const LobbyPlayer&, AccountId) const override {
    return refuses_challenges;
  }
  std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest& request) override {
    LobbyPlayer* waiting = player_of(request.waiting);
    return waiting ? waiting->room : nullptr;
  }
  void wait_again(SeatId waiting, const SeatRequest&) override { waiting_again.push_back(waiting); }
  bool draining() const noexcept override { return draining_now; }
  bool shutting_down() const noexcept override { return shutting_down_now; }

  std::vector<SeatId> handed_off;
  std::vector<SeatId> entered;
  std::vector<std::pair<SeatId, wire::Rated>> seats_taken;
  std::vector<std::pair<SeatId, std::string>> challenges;
  std::vector<SeatId> waiting_again;
  std::optional<std::pair<wire::ErrorCode, std::string>> refuses_challenges;
  bool draining_now = false;
  bool shutting_down_now = false;

 private:
  boost::asio::io_context& io_;
  UnusedRoomDependencies deps_;
  std::map<SeatId, std::unique_ptr<LobbyPlayer>> players_;
  std::map<SeatId, std::shared_ptr<FakeRoutedConnection>> connections_;
  std::map<GameId, std::shared_ptr<GameRoom>> rooms_;
};

// This node "a" and, unless the test says no, node "b" alive and taking
// players; tokens held and seats asked are kept for the test to look at
// (and answer).
class TwoNodes : public testing::TwoNodeCluster {
 public:
  TwoNodes() { other_.fingerprint = "ab:cd"; }
  std::optional<NodeInfo> node(const std::string& id) const override {
    if (id == self_.id) return self_;
    if (id == other_.id && other_alive) return other_;
    return std::nullopt;
  }
  std::optional<NodeInfo> another_node() const override {
    return other_alive ? std::optional<NodeInfo>(other_) : std::nullopt;
  }
  void hold(AccountId account, const std::string& hash, milliseconds, const std::string& to,
            HoldDone) override {
    held.push_back({account, hash, to});
  }
  void request_seat(const std::string& to, const SeatRequest& request, SeatDone done) override {
    seats.push_back({to, request, std::move(done)});
  }

  struct Held {
    AccountId account;
    std::string hash;
    std::string to;
  };
  struct Asked {
    std::string to;
    SeatRequest request;
    SeatDone done;
  };
  std::vector<Held> held;
  std::deque<Asked> seats;
  bool other_alive = true;
};

wire::Hello arriving(const std::string& name, const std::string& reservation,
                     const std::string& secret = kSecret) {
  wire::Hello hello;
  hello.set_name(name);
  hello.set_secret(secret);
  hello.set_reservation(reservation);
  return hello;
}

SeatRequest joining(GameId game, AccountId account, const std::string& name) {
  SeatRequest request;
  request.kind = SeatRequest::Kind::kJoin;
  request.game = game;
  request.account = account;
  request.name = name;
  request.rated = wire::RATED_NO;
  request.address = "10.0.0.9";
  return request;
}

class NodeRouterTest : public ::testing::Test {
 protected:
  NodeRouter& router(milliseconds seat_hold = milliseconds(60'000)) {
    router_ = std::make_unique<NodeRouter>(io_.get_executor(), cluster_, accounts_, desk_, lobby_,
                                           RoutingLimits{seat_hold, milliseconds(3'600'000)});
    return *router_;
  }
  // An account of that name, owned by kSecret.
  AccountId account(const std::string& name) {
    wire::Hello hello;
    hello.set_name(name);
    hello.set_secret(kSecret);
    std::optional<Identified> made;
    desk_.register_name(hello, "10.0.0.1", [&](Identified who) { made = std::move(who); });
    EXPECT_TRUE(made && made->kind == Identified::Kind::kKnown);
    return made ? made->account : AccountId{};
  }
  // Another node's request, and this node's answer to it.
  SeatReply ask(const SeatRequest& request) {
    std::optional<SeatReply> answer;
    router_->seat_request(request, [&](const SeatReply& reply) { answer = reply; });
    EXPECT_TRUE(answer.has_value()) << "answered at once";
    return answer.value_or(SeatReply{});
  }
  // Runs the io_context's ready handlers until `done` holds (or 5 s pass).
  template <typename Condition>
  bool run_until(Condition done) {
    return testing::eventually([&] {
      io_.restart();
      io_.poll();
      return done();
    });
  }
  // What the records were asked meanwhile is answered now.
  void answer_records() { accounts_.run_later(); }

  // The test's thread runs the lobby's executor, as the server's logic
  // thread would (the sanitizer build checks).
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  TwoNodes cluster_;
  LogLimiter log_;
  HelloDesk desk_{accounts_, cluster_, log_, HelloLimits{}, [](SeatId) { return false; }};
  FakeLobby lobby_{io_};
  std::unique_ptr<NodeRouter> router_;
};

const wire::ServerMessage* redirect_of(const FakeParticipant& peer) {
  return peer.last([](const wire::ServerMessage& m) { return m.has_redirect(); });
}

// --- places kept for players other nodes send here -------------------------------

TEST_F(NodeRouterTest, AFreeSeatAnotherNodeAsksForIsKeptAndTheArrivingPlayerTakesIt) {
  NodeRouter& routing = router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  auto room = lobby_.open_room(5, bob);
  const AccountId alice = account("alice");
  const SeatReply reply = ask(joining(GameId{5}, alice, "alice"));
  ASSERT_FALSE(reply.reservation.empty()) << reply.text;
  EXPECT_EQ(reply.game, GameId{5});
  EXPECT_TRUE(routing.seat_kept(GameId{5}));

  auto arrival = std::make_shared<FakeRoutedConnection>();
  EXPECT_TRUE(routing.arrive(*arrival, arriving("alice", reply.reservation), 3));
  ASSERT_EQ(lobby_.entered.size(), 1u);
  EXPECT_EQ(lobby_.entered[0], seat_of(alice));
  ASSERT_NE(arrival->player, nullptr);
  EXPECT_EQ(arrival->player->room, room) << "placed before its Welcome";
  ASSERT_EQ(lobby_.seats_taken.size(), 1u);
  EXPECT_EQ(lobby_.seats_taken[0].second, wire::RATED_NO) << "its own rating wish applies";
  EXPECT_TRUE(room->is_seated(seat_of(alice)));
  EXPECT_FALSE(room->waiting());
  EXPECT_FALSE(arrival->routing);
  EXPECT_EQ(routing.reservations(), 0u);
  EXPECT_FALSE(routing.arrive(*arrival, arriving("alice", reply.reservation), 4))
      << "a code is taken once";
}

TEST_F(NodeRouterTest, ARequestForAGameItCannotSeatIsRefusedWithWhy) {
  router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  LobbyPlayer& carol = lobby_.add(101, "carol");
  lobby_.open_room(6, carol, "SECRET-CODE");
  const AccountId alice = account("alice");
  const AccountId dave = account("dave");

  EXPECT_EQ(ask(joining(GameId{9}, alice, "alice")).code, wire::ERROR_CODE_UNKNOWN_GAME);
  SeatRequest wrong_code = joining(GameId{6}, alice, "alice");
  wrong_code.invite_code = "guess";
  EXPECT_EQ(ask(wrong_code).code, wire::ERROR_CODE_WRONG_INVITE_CODE);
  SeatRequest right_code = joining(GameId{6}, alice, "alice");
  right_code.invite_code = "secret-code";
  EXPECT_FALSE(ask(right_code).reservation.empty()) << "the code is compared normalized";

  ASSERT_FALSE(ask(joining(GameId{5}, alice, "alice")).reservation.empty());
  SeatRequest second = joining(GameId{5}, dave, "dave");
  second.address = "10.0.0.10";
  const SeatReply full = ask(second);
  EXPECT_EQ(full.code, wire::ERROR_CODE_GAME_FULL) << "its free seat is kept for alice";
  EXPECT_TRUE(full.reservation.empty());
}

TEST_F(NodeRouterTest, ADrainingOrStoppingNodeKeepsNoPlace) {
  router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  const AccountId alice = account("alice");
  lobby_.draining_now = true;
  EXPECT_EQ(ask(joining(GameId{5}, alice, "alice")).code, wire::ERROR_CODE_DRAINING);
  lobby_.draining_now = false;
  lobby_.shutting_down_now = true;
  EXPECT_EQ(ask(joining(GameId{5}, alice, "alice")).code, wire::ERROR_CODE_DRAINING);
  EXPECT_EQ(router_->reservations(), 0u);
}

TEST_F(NodeRouterTest, AChallengerIsKeptAPlaceOnlyForATargetOnlineAndTakingChallenges) {
  NodeRouter& routing = router();
  lobby_.add(100, "bob");
  const AccountId alice = account("alice");
  SeatRequest request;
  request.kind = SeatRequest::Kind::kChallenge;
  request.account = alice;
  request.name = "alice";
  request.challenge.set_name("nobody");
  EXPECT_EQ(ask(request).code, wire::ERROR_CODE_PLAYER_OFFLINE);
  request.challenge.set_name("bob");
  SeatRequest self = request;
  self.account = AccountId{100};
  EXPECT_EQ(ask(self).code, wire::ERROR_CODE_BAD_REQUEST);
  lobby_.refuses_challenges =
      std::pair{wire::ERROR_CODE_CHALLENGE_REFUSED, std::string("bob takes no challenges")};
  EXPECT_EQ(ask(request).code, wire::ERROR_CODE_CHALLENGE_REFUSED);
  lobby_.refuses_challenges.reset();

  const SeatReply reply = ask(request);
  ASSERT_FALSE(reply.reservation.empty()) << reply.text;
  EXPECT_EQ(reply.game, GameId{}) << "a place to challenge from, no seat";
  auto arrival = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*arrival, arriving("alice", reply.reservation), 1));
  ASSERT_EQ(lobby_.challenges.size(), 1u);
  EXPECT_EQ(lobby_.challenges[0].first, seat_of(alice));
  EXPECT_EQ(lobby_.challenges[0].second, "bob") << "the challenge is made here on arrival";
  EXPECT_TRUE(lobby_.seats_taken.empty());
}

TEST_F(NodeRouterTest, APairedNewcomerWhoNeverComesPutsTheOneWaitingBackInTheQueue) {
  NodeRouter& routing = router(milliseconds(1));
  LobbyPlayer& bob = lobby_.add(100, "bob");
  auto room = lobby_.open_room(5, bob);
  SeatRequest request;
  request.kind = SeatRequest::Kind::kPair;
  request.waiting = bob.id;
  request.account = account("alice");
  request.name = "alice";
  const SeatReply reply = ask(request);
  ASSERT_FALSE(reply.reservation.empty()) << reply.text;
  EXPECT_EQ(reply.game, GameId{5});

  ASSERT_TRUE(run_until([&] { return routing.reservations() == 0; }));
  ASSERT_EQ(lobby_.waiting_again.size(), 1u);
  EXPECT_EQ(lobby_.waiting_again[0], bob.id);
  EXPECT_FALSE(room->is_seated(bob.id)) << "out of the room kept for both";
  EXPECT_FALSE(routing.arrive(*std::make_shared<FakeRoutedConnection>(),
                              arriving("alice", reply.reservation), 1))
      << "a lapsed code is no longer kept";
}

// --- arrivals ----------------------------------------------------------------------

TEST_F(NodeRouterTest, ASecondArrivalIsRefusedWhileTheFirstIsBeingChecked) {
  NodeRouter& routing = router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  const SeatReply reply = ask(joining(GameId{5}, account("alice"), "alice"));
  accounts_.answer_later = true;  // the records are read elsewhere: the check waits

  auto first = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*first, arriving("alice", reply.reservation), 1));
  EXPECT_TRUE(first->routing) << "what it says meanwhile waits";
  auto second = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*second, arriving("alice", reply.reservation), 2));
  const auto* refused = second->peer->last_error();
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->error().code(), wire::ERROR_CODE_RESERVATION_GONE);
  EXPECT_EQ(refused->in_reply_to(), 2u);
  EXPECT_TRUE(second->peer->closed);

  answer_records();
  EXPECT_EQ(lobby_.entered.size(), 1u) << "the first takes the seat";
  EXPECT_EQ(first->player, lobby_.player_of(lobby_.entered.at(0)));
  EXPECT_FALSE(first->routing);
}

TEST_F(NodeRouterTest, AnArrivalThatIsNotThePlayerIsRefusedAndTheSeatStaysKept) {
  NodeRouter& routing = router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  const SeatReply reply = ask(joining(GameId{5}, account("alice"), "alice"));

  auto impostor = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*impostor, arriving("alice", reply.reservation, "wrong"), 1));
  ASSERT_NE(impostor->peer->last_error(), nullptr);
  EXPECT_TRUE(impostor->peer->closed);
  EXPECT_TRUE(lobby_.entered.empty());
  EXPECT_EQ(routing.reservations(), 1u);

  auto alice = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*alice, arriving("alice", reply.reservation), 2));
  EXPECT_EQ(lobby_.entered.size(), 1u) << "the seat was released for the next arrival";
}

TEST_F(NodeRouterTest, AnArrivalThatDropsWhileCheckedLeavesTheSeatKeptForTheNext) {
  NodeRouter& routing = router();
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  const SeatReply reply = ask(joining(GameId{5}, account("alice"), "alice"));
  accounts_.answer_later = true;
  auto dropped = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*dropped, arriving("alice", reply.reservation), 1));
  dropped->gone = true;
  answer_records();
  EXPECT_TRUE(lobby_.entered.empty());

  accounts_.answer_later = false;
  auto again = std::make_shared<FakeRoutedConnection>();
  ASSERT_TRUE(routing.arrive(*again, arriving("alice", reply.reservation), 2));
  EXPECT_EQ(lobby_.entered.size(), 1u);
  EXPECT_EQ(again->peer->last_error(), nullptr);
}

// --- sending players to other nodes --------------------------------------------------

TEST_F(NodeRouterTest, ARedirectHandsThePlayerOverItsTokenHeldThereOnceTheRecordsHaveIt) {
  NodeRouter& routing = router();
  LobbyPlayer& alice = lobby_.add(7, "alice");
  desk_.tokens().issue(alice.id, alice.account);
  const std::string hash = *desk_.tokens().hash_of(alice.id);
  FakeRoutedConnection& connection = lobby_.connection(7);
  auto kept = connection.shared_from_this();  // the lobby lets go of it
  accounts_.answer_later = true;

  routing.redirect(connection, *cluster_.node("b"), "seat-1", GameId{4}, "game 4 is at node b");
  ASSERT_EQ(cluster_.held.size(), 1u);
  EXPECT_EQ(cluster_.held[0].account, AccountId{7});
  EXPECT_EQ(cluster_.held[0].hash, hash);
  EXPECT_EQ(cluster_.held[0].to, "b") << "its token is held there now";
  ASSERT_EQ(lobby_.handed_off.size(), 1u);
  EXPECT_EQ(connection.player, nullptr);
  EXPECT_TRUE(connection.routing) << "what it says is held, never answered";
  EXPECT_EQ(redirect_of(*connection.peer), nullptr) << "not before the records hold its token";

  answer_records();
  const auto* sent = redirect_of(*connection.peer);
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent->redirect().host(), "127.0.0.2");
  EXPECT_EQ(sent->redirect().port(), 4000u);
  EXPECT_EQ(sent->redirect().fingerprint(), "ab:cd");
  EXPECT_EQ(sent->redirect().reservation(), "seat-1");
  EXPECT_EQ(sent->redirect().game_id(), 4u);
  EXPECT_EQ(sent->redirect().reason(), "game 4 is at node b");
  EXPECT_TRUE(connection.peer->closed);
  EXPECT_FALSE(connection.peer->heartbeat);
  EXPECT_EQ(routing.redirects(), 1u);
}

TEST_F(NodeRouterTest, ASeatAtAnotherNodeSendsThePlayerToIt) {
  NodeRouter& routing = router();
  LobbyPlayer& alice = lobby_.add(7, "alice");
  alice.address = "10.0.0.7";
  SeatRequest watch;
  watch.kind = SeatRequest::Kind::kWatch;
  watch.game = GameId{4};
  routing.seat_elsewhere(alice, "b", watch, 9);
  ASSERT_EQ(cluster_.seats.size(), 1u);
  const auto& asked = cluster_.seats.front();
  EXPECT_EQ(asked.to, "b");
  EXPECT_EQ(asked.request.account, AccountId{7});
  EXPECT_EQ(asked.request.name, "alice");
  EXPECT_EQ(asked.request.address, "10.0.0.7");
  FakeRoutedConnection& connection = lobby_.connection(7);
  auto kept = connection.shared_from_this();  // the lobby lets go of it
  asked.done(SeatReply{"seat-2", GameId{4}, wire::ERROR_CODE_UNSPECIFIED, ""});
  const auto* sent = redirect_of(*connection.peer);
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent->redirect().reservation(), "seat-2");
  EXPECT_EQ(sent->redirect().reason(), "game 4 is at node 127.0.0.2:4000");
  EXPECT_EQ(lobby_.handed_off, std::vector<SeatId>{SeatId{7}});
}

TEST_F(NodeRouterTest, ARefusedSeatAtAnotherNodeIsAnErrorAndThePlayerStays) {
  NodeRouter& routing = router();
  LobbyPlayer& alice = lobby_.add(7, "alice");
  routing.seat_elsewhere(alice, "b", joining(GameId{4}, AccountId{}, ""), 9);
  ASSERT_EQ(cluster_.seats.size(), 1u);
  cluster_.seats.front().done(
      SeatReply{"", GameId{}, wire::ERROR_CODE_GAME_FULL, "game 4 has no free seat"});
  const auto* error = lobby_.connection(7).peer->last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_GAME_FULL);
  EXPECT_EQ(error->in_reply_to(), 9u);
  EXPECT_FALSE(lobby_.connection(7).peer->closed);
  EXPECT_TRUE(lobby_.handed_off.empty());

  // Seated here while the other node answered: that game goes on.
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  routing.seat_elsewhere(alice, "b", joining(GameId{4}, AccountId{}, ""), 10);
  lobby_.open_room(6, alice);
  cluster_.seats.back().done(SeatReply{"seat-3", GameId{4}, wire::ERROR_CODE_UNSPECIFIED, ""});
  EXPECT_EQ(lobby_.connection(7).peer->last_error()->error().code(),
            wire::ERROR_CODE_ALREADY_IN_GAME);
  EXPECT_EQ(redirect_of(*lobby_.connection(7).peer), nullptr);
}

TEST_F(NodeRouterTest, ADrainingNodeSendsANewcomerToAnotherNode) {
  NodeRouter& routing = router();
  auto newcomer = std::make_shared<FakeRoutedConnection>();
  EXPECT_FALSE(routing.send_away(*newcomer, nullptr)) << "not draining: it stays";
  lobby_.draining_now = true;
  LobbyPlayer& bob = lobby_.add(100, "bob");
  lobby_.open_room(5, bob);
  EXPECT_FALSE(routing.send_away(*newcomer, &bob)) << "its game here plays on";

  EXPECT_TRUE(routing.send_away(*newcomer, nullptr));
  const auto* sent = redirect_of(*newcomer->peer);
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent->redirect().reason(), "this node is being drained");
  EXPECT_TRUE(newcomer->peer->closed);
  EXPECT_EQ(routing.redirects(), 1u);
}

TEST_F(NodeRouterTest, ADrainingNodeWithNoOtherNodeRefusesANewcomer) {
  NodeRouter& routing = router();
  lobby_.draining_now = true;
  cluster_.other_alive = false;
  auto newcomer = std::make_shared<FakeRoutedConnection>();
  EXPECT_TRUE(routing.send_away(*newcomer, nullptr));
  EXPECT_EQ(redirect_of(*newcomer->peer), nullptr);
  const auto* refused = newcomer->peer->last_error();
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->error().code(), wire::ERROR_CODE_DRAINING);
  EXPECT_TRUE(newcomer->peer->closed);
  EXPECT_EQ(routing.redirects(), 0u);
}

}  // namespace
}  // namespace ttt::server
