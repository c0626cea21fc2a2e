// QuickMatch alone, with a fake lobby around it: players waiting by the same
// rules are paired, others wait (Queued), the bot steps in after the
// fallback time unless another node paired the player first, and a player
// paired with one waiting at another node is sent to the seat kept there.
// The same code runs with the local queues (one node) and with queues that
// answer later (several nodes).
#include "lobby/quick_match.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <deque>
#include <map>

#include "support/eventually.hpp"
#include "support/fake_participant.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeParticipant;
using testing::UnusedRoomDependencies;

// The lobby as quick match sees it: its players, what it says to them, and
// the rooms and redirects quick match asks for.
class FakeLobby : public QuickMatchHost, public testing::RecordedReplies {
 public:
  explicit FakeLobby(boost::asio::io_context& io) : io_(io) {}

  LobbyPlayer& add(std::uint64_t id) {
    return RecordedReplies::add(id, "p" + std::to_string(id), "10.0.0." + std::to_string(id));
  }
  std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                      LobbyPlayer* player, const MatchRequest& rules,
                                      std::uint32_t) override {
    RoomSettings settings;
    settings.size = rules.size;
    settings.win_length = rules.win_length;
    auto room = std::make_shared<GameRoom>(GameId{++rooms_}, settings, io_.get_executor(),
                                           RoomDependencies{deps_, deps_, deps_});
    waiting.room = room;
    if (player != nullptr) player->room = room;
    pairs.push_back({waiting.id, player ? player->id : SeatId{}, waiting_rated, rules});
    return room;
  }
  void send_to_seat(LobbyPlayer& player, const NodeInfo& node, const std::string& reservation,
                    GameId game, const std::string&) override {
    sent.push_back({player.id, node.id, reservation, game});
  }
  bool bot_free_for(const LobbyPlayer&) override {
    ++bot_asked;
    return bot_free;
  }
  void play_bot(LobbyPlayer& player, const MatchRequest& rules) override {
    bots.push_back({player.id, rules});
  }

  struct Pair {
    SeatId waiting;
    SeatId player;  // 0: comes later, to a kept seat
    wire::Rated waiting_rated;
    MatchRequest rules;
  };
  struct Sent {
    SeatId player;
    std::string node;
    std::string reservation;
    GameId game;
  };
  std::vector<Pair> pairs;
  std::vector<Sent> sent;
  std::vector<std::pair<SeatId, MatchRequest>> bots;
  bool bot_free = true;
  int bot_asked = 0;

 private:
  boost::asio::io_context& io_;
  UnusedRoomDependencies deps_;
  std::uint64_t rooms_ = 0;
};

// Queues shared by several nodes, as the lobby sees them: every call is
// answered later, by the test.
class LaterMatchmaker : public Matchmaker {
 public:
  void match(const MatchRequest& request, Done done) override {
    matches.push_back({request, std::move(done)});
  }
  void cancel(SeatId player, Cancelled done) override {
    cancels.push_back({player, std::move(done)});
  }
  std::size_t waiting() const override { return 0; }

  std::deque<std::pair<MatchRequest, Done>> matches;
  std::deque<std::pair<SeatId, Cancelled>> cancels;
};

// Another node "b" alive; seat requests are answered by the test.
class TwoNodes : public ttt::testing::TwoNodeCluster {
 public:
  std::optional<NodeInfo> another_node() const override { return other_; }
  void request_seat(const std::string& to, const SeatRequest& request, SeatDone done) override {
    seats.push_back({to, request, std::move(done)});
  }

  struct Asked {
    std::string to;
    SeatRequest request;
    SeatDone done;
  };
  std::deque<Asked> seats;

 private:
};

MatchRequest wish(const LobbyPlayer& player, int size = 3,
                  wire::Rated rated = wire::RATED_DEFAULT) {
  MatchRequest request;
  request.player_id = player.id;
  request.account = player.account;
  request.name = player.name;
  request.size = size;
  request.win_length = size;
  request.rated = rated;
  return request;
}

SeatRequest pairing_with(SeatId waiting, int size = 3) {
  SeatRequest request;
  request.kind = SeatRequest::Kind::kPair;
  request.waiting = waiting;
  request.size = size;
  request.win_length = size;
  return request;
}

// Runs the io_context's ready handlers until `done` holds (or 5 s pass).
template <typename Condition>
bool run_until(boost::asio::io_context& io, Condition done) {
  return testing::eventually([&] {
    io.restart();
    io.poll();
    return done();
  });
}

class QuickMatchTest : public ::testing::Test {
 protected:
  QuickMatch& one_node(milliseconds fallback = milliseconds(0)) {
    match_ = std::make_unique<QuickMatch>(io_.get_executor(), local_, single_, lobby_, fallback);
    return *match_;
  }
  QuickMatch& two_nodes(milliseconds fallback = milliseconds(0)) {
    match_ = std::make_unique<QuickMatch>(io_.get_executor(), later_, nodes_, lobby_, fallback);
    return *match_;
  }

  boost::asio::io_context io_;
  FakeLobby lobby_{io_};
  LocalMatchmaker local_;
  SingleNode single_;
  LaterMatchmaker later_;
  TwoNodes nodes_;
  std::unique_ptr<QuickMatch> match_;
};

TEST_F(QuickMatchTest, FirstPlayerWaitsAndIsToldSo) {
  QuickMatch& match = one_node(milliseconds(20'000));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 5), 7);
  const auto* queued = lobby_.conn(1).last([](const auto& m) { return m.has_queued(); });
  ASSERT_NE(queued, nullptr);
  EXPECT_EQ(queued->in_reply_to(), 7u);
  EXPECT_EQ(queued->queued().size(), 5);
  EXPECT_EQ(queued->queued().bot_fallback_s(), 20u);
  ASSERT_NE(match.wish_of(a.id), nullptr);
  EXPECT_EQ(match.wish_of(a.id)->size, 5);
  EXPECT_EQ(local_.waiting(), 1u);
}

TEST_F(QuickMatchTest, TwoPlayersBySameRulesArePairedInOneRoom) {
  QuickMatch& match = one_node();
  LobbyPlayer& a = lobby_.add(1);
  LobbyPlayer& b = lobby_.add(2);
  match.ask(a, wish(a, 3, wire::RATED_NO), 1);
  match.ask(b, wish(b), 2);
  ASSERT_EQ(lobby_.pairs.size(), 1u);
  EXPECT_EQ(lobby_.pairs[0].waiting, a.id);
  EXPECT_EQ(lobby_.pairs[0].player, b.id);
  EXPECT_EQ(lobby_.pairs[0].waiting_rated, wire::RATED_NO);
  EXPECT_EQ(match.wish_of(a.id), nullptr);
  EXPECT_EQ(match.wish_of(b.id), nullptr);
  EXPECT_EQ(local_.waiting(), 0u);
}

TEST_F(QuickMatchTest, PlayersByDifferentRulesBothWait) {
  QuickMatch& match = one_node();
  LobbyPlayer& a = lobby_.add(1);
  LobbyPlayer& b = lobby_.add(2);
  match.ask(a, wish(a, 3), 1);
  match.ask(b, wish(b, 5), 2);
  EXPECT_TRUE(lobby_.pairs.empty());
  EXPECT_NE(match.wish_of(a.id), nullptr);
  EXPECT_NE(match.wish_of(b.id), nullptr);
}

TEST_F(QuickMatchTest, WithdrawnPlayerIsPairedWithNobody) {
  QuickMatch& match = one_node();
  LobbyPlayer& a = lobby_.add(1);
  LobbyPlayer& b = lobby_.add(2);
  match.ask(a, wish(a), 1);
  match.withdraw(a.id);
  match.ask(b, wish(b), 2);
  EXPECT_TRUE(lobby_.pairs.empty());
  EXPECT_EQ(match.wish_of(a.id), nullptr);
  EXPECT_NE(match.wish_of(b.id), nullptr);
}

TEST_F(QuickMatchTest, PlayerWhoseConnectionDroppedMakesWayForTheNext) {
  QuickMatch& match = one_node();
  LobbyPlayer& a = lobby_.add(1);
  LobbyPlayer& b = lobby_.add(2);
  LobbyPlayer& c = lobby_.add(3);
  match.ask(a, wish(a), 1);
  match.ask(b, wish(b), 2);  // paired with a at once
  match.ask(c, wish(c), 3);
  lobby_.pairs.clear();
  LobbyPlayer& d = lobby_.add(4);
  lobby_.disconnect(3);  // c is gone without a word: d waits instead
  match.ask(d, wish(d), 4);
  EXPECT_TRUE(run_until(io_, [&] { return match.wish_of(d.id) != nullptr; }));
  EXPECT_TRUE(lobby_.pairs.empty());
  // d waits in the queue itself: the next player is paired with it.
  LobbyPlayer& e = lobby_.add(5);
  match.ask(e, wish(e), 5);
  ASSERT_EQ(lobby_.pairs.size(), 1u);
  EXPECT_EQ(lobby_.pairs[0].waiting, d.id);
  EXPECT_EQ(lobby_.pairs[0].player, e.id);
}

TEST_F(QuickMatchTest, PairingsWithManyGonePlayersEndInTheQueueNotJustInWords) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& gone = lobby_.add(1);
  lobby_.disconnect(1);
  LobbyPlayer& a = lobby_.add(2);
  match.ask(a, wish(a), 7);
  // The shared queues pair a with players of this node gone meanwhile, one
  // after another (each taken out of the queue as it is paired).
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(run_until(io_, [&] { return !later_.matches.empty(); })) << i;
    auto [request, done] = std::move(later_.matches.front());
    later_.matches.pop_front();
    EXPECT_EQ(request.player_id, a.id);
    EXPECT_EQ(match.wish_of(a.id), nullptr) << "not told it waits while it is in no queue";
    done(MatchOutcome{wish(gone), true});
  }
  ASSERT_TRUE(run_until(io_, [&] { return !later_.matches.empty(); }));
  later_.matches.front().second(MatchOutcome{std::nullopt, true});  // now it waits there
  EXPECT_NE(match.wish_of(a.id), nullptr);
  EXPECT_NE(lobby_.conn(2).last([](const auto& m) { return m.has_queued(); }), nullptr);
  EXPECT_EQ(lobby_.conn(2).last_error(), nullptr);
}

TEST_F(QuickMatchTest, EndlessPairingsWithGonePlayersEndInAnErrorNotAFalseWait) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& gone = lobby_.add(1);
  lobby_.disconnect(1);
  LobbyPlayer& a = lobby_.add(2);
  match.ask(a, wish(a), 7);
  for (int i = 0; i < 1000 && lobby_.conn(2).last_error() == nullptr; ++i) {
    if (!run_until(io_, [&] { return !later_.matches.empty(); })) break;
    auto done = std::move(later_.matches.front().second);
    later_.matches.pop_front();
    done(MatchOutcome{wish(gone), true});
  }
  const auto* error = lobby_.conn(2).last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->in_reply_to(), 7u);
  EXPECT_EQ(error->error().text(), "no pairing could be made now: try again");
  EXPECT_EQ(match.wish_of(a.id), nullptr);
  EXPECT_EQ(lobby_.conn(2).last([](const auto& m) { return m.has_queued(); }), nullptr);
}

TEST_F(QuickMatchTest, BotStepsInAfterTheFallbackTime) {
  QuickMatch& match = one_node(milliseconds(1));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 4), 1);
  ASSERT_TRUE(run_until(io_, [&] { return !lobby_.bots.empty(); }));
  EXPECT_EQ(lobby_.bots[0].first, a.id);
  EXPECT_EQ(lobby_.bots[0].second.size, 4);
  EXPECT_EQ(match.wish_of(a.id), nullptr);
  EXPECT_EQ(local_.waiting(), 0u);
}

TEST_F(QuickMatchTest, BusyBotIsAskedAgainLater) {
  QuickMatch& match = one_node(milliseconds(1));
  lobby_.bot_free = false;
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 1);
  ASSERT_TRUE(run_until(io_, [&] { return lobby_.bot_asked >= 2; }));
  EXPECT_TRUE(lobby_.bots.empty());
  EXPECT_NE(match.wish_of(a.id), nullptr);
  lobby_.bot_free = true;
  ASSERT_TRUE(run_until(io_, [&] { return !lobby_.bots.empty(); }));
}

TEST_F(QuickMatchTest, NoBotAfterShutdown) {
  QuickMatch& match = one_node(milliseconds(1));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 1);
  match.stop();
  io_.run();  // every timer is done or cancelled
  EXPECT_TRUE(lobby_.bots.empty());
}

TEST_F(QuickMatchTest, SharedQueuesThatCantBeReachedAreSaidSo) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 9);
  ASSERT_EQ(later_.matches.size(), 1u);
  MatchOutcome outcome;
  outcome.available = false;
  later_.matches.front().second(outcome);
  const auto* error = lobby_.conn(1).last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_CLUSTER_UNAVAILABLE);
  EXPECT_EQ(error->in_reply_to(), 9u);
}

TEST_F(QuickMatchTest, NoBotWhenAnotherNodePairedThePlayerFirst) {
  QuickMatch& match = two_nodes(milliseconds(1));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 1);
  later_.matches.front().second(MatchOutcome{});  // waits
  ASSERT_TRUE(run_until(io_, [&] { return !later_.cancels.empty(); }));
  // The shared queue says it no longer waited: that node's seat request
  // is on its way, and no bot plays.
  later_.cancels.front().second(false);
  EXPECT_TRUE(lobby_.bots.empty());
  // The seat request comes: a takes its seat in a room.
  EXPECT_NE(match.seat_for_newcomer(pairing_with(a.id)), nullptr);
  ASSERT_EQ(lobby_.pairs.size(), 1u);
  EXPECT_EQ(lobby_.pairs[0].player, SeatId{});
}

TEST_F(QuickMatchTest, APairingWhoseSeatNeverComesAsksTheQueuesAgain) {
  QuickMatch& match = two_nodes(milliseconds(1));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 1);
  later_.matches.front().second(MatchOutcome{});  // waits
  later_.matches.pop_front();
  ASSERT_TRUE(run_until(io_, [&] { return !later_.cancels.empty(); }));
  // Another node paired it, then went away before its seat request came.
  later_.cancels.front().second(false);
  later_.cancels.pop_front();
  EXPECT_TRUE(lobby_.bots.empty());
  // After another fallback time, a is in the queues again, not in none.
  ASSERT_TRUE(run_until(io_, [&] { return !later_.matches.empty(); }));
  EXPECT_EQ(later_.matches.front().first.player_id, a.id);
  later_.matches.front().second(MatchOutcome{});  // waits again
  EXPECT_NE(match.wish_of(a.id), nullptr);
  // And this time the bot steps in as for anyone who waited.
  ASSERT_TRUE(run_until(io_, [&] { return !later_.cancels.empty(); }));
  later_.cancels.front().second(true);
  ASSERT_EQ(lobby_.bots.size(), 1u);
  EXPECT_EQ(lobby_.bots[0].first, a.id);
}

TEST_F(QuickMatchTest, BotStepsInWhenTheSharedQueueStillHadThePlayer) {
  QuickMatch& match = two_nodes(milliseconds(1));
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 1);
  later_.matches.front().second(MatchOutcome{});
  ASSERT_TRUE(run_until(io_, [&] { return !later_.cancels.empty(); }));
  later_.cancels.front().second(true);
  ASSERT_EQ(lobby_.bots.size(), 1u);
  EXPECT_EQ(match.wish_of(a.id), nullptr);
}

TEST_F(QuickMatchTest, PairedWithPlayerAtAnotherNodeGoesToTheSeatKeptThere) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 5), 3);
  MatchRequest there;
  there.player_id = SeatId{77};
  there.node = "b";
  there.size = 5;
  there.win_length = 5;
  later_.matches.front().second(MatchOutcome{there, true});
  ASSERT_EQ(nodes_.seats.size(), 1u);
  EXPECT_EQ(nodes_.seats[0].to, "b");
  EXPECT_EQ(nodes_.seats[0].request.kind, SeatRequest::Kind::kPair);
  EXPECT_EQ(nodes_.seats[0].request.waiting, SeatId{77});
  EXPECT_EQ(nodes_.seats[0].request.size, 5);
  EXPECT_EQ(nodes_.seats[0].request.address, a.address);
  nodes_.seats[0].done(SeatReply{"kept", GameId{12}, wire::ERROR_CODE_UNSPECIFIED, ""});
  ASSERT_EQ(lobby_.sent.size(), 1u);
  EXPECT_EQ(lobby_.sent[0].node, "b");
  EXPECT_EQ(lobby_.sent[0].reservation, "kept");
  EXPECT_EQ(lobby_.sent[0].game, GameId{12});
}

TEST_F(QuickMatchTest, RefusedSeatElsewhereTriesTheQueuesAgainThenGivesUp) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a), 3);
  MatchRequest there;
  there.player_id = SeatId{77};
  there.node = "b";
  for (int attempt = 0; attempt < 5; ++attempt) {
    ASSERT_EQ(later_.matches.size(), 1u) << attempt;
    auto done = std::move(later_.matches.front().second);
    later_.matches.pop_front();
    done(MatchOutcome{there, true});
    ASSERT_EQ(nodes_.seats.size(), 1u);
    auto seat = std::move(nodes_.seats.front().done);
    nodes_.seats.pop_front();
    seat(SeatReply{{}, GameId{}, wire::ERROR_CODE_UNKNOWN_GAME, "gone"});
  }
  EXPECT_TRUE(later_.matches.empty());
  const auto* error = lobby_.conn(1).last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_CLUSTER_UNAVAILABLE);
  EXPECT_TRUE(lobby_.sent.empty());
}

TEST_F(QuickMatchTest, NewcomerByOtherRulesFindsNoSeat) {
  QuickMatch& match = one_node();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 3), 1);
  EXPECT_EQ(match.seat_for_newcomer(pairing_with(a.id, 5)), nullptr);
  EXPECT_EQ(match.seat_for_newcomer(pairing_with(SeatId{99}, 3)), nullptr);
  EXPECT_NE(match.wish_of(a.id), nullptr);
}

TEST_F(QuickMatchTest, NewcomerWhoNeverCameLeavesThePlayerWaitingAgainWithItsWish) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 3, wire::RATED_NO), 1);
  later_.matches.front().second(MatchOutcome{});
  later_.matches.clear();
  ASSERT_NE(match.seat_for_newcomer(pairing_with(a.id)), nullptr);
  EXPECT_EQ(match.wish_of(a.id), nullptr);
  a.room.reset();  // the kept room is closed
  match.wait_again(a.id, pairing_with(a.id));
  ASSERT_EQ(later_.matches.size(), 1u);
  EXPECT_EQ(later_.matches[0].first.rated, wire::RATED_NO);
  EXPECT_EQ(later_.matches[0].first.size, 3);
}

TEST_F(QuickMatchTest, QueuesThatForgotEveryoneAreAskedAgain) {
  QuickMatch& match = two_nodes();
  LobbyPlayer& a = lobby_.add(1);
  match.ask(a, wish(a, 6), 1);
  later_.matches.front().second(MatchOutcome{});
  later_.matches.clear();
  match.ask_again_all();
  ASSERT_EQ(later_.matches.size(), 1u);
  EXPECT_EQ(later_.matches[0].first.player_id, a.id);
  EXPECT_EQ(later_.matches[0].first.size, 6);
}

}  // namespace
}  // namespace ttt::server
