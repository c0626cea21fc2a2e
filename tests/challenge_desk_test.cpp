// ChallengeDesk alone, with a fake lobby around it: a challenge is sent and
// offered with its expiry; refused, with why, when it can't be made
// (unknown, offline, itself, busy, not taking challenges, blocking, already
// challenged, too many standing, too soon); accepted, the lobby opens the
// game for both; declined, expired, withdrawn or blocked, it ends for both.
#include "lobby/challenge_desk.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <memory>
#include <vector>

#include "executor_check.hpp"
#include "net/replies.hpp"
#include "support/fake_participant.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeParticipant;
using testing::MemoryAccounts;
using testing::UnusedRoomDependencies;

// A connection the desk never speaks through (replies go to conn).
class SilentInbox : public Inbox {
 public:
  void receive(const wire::ClientMessage&) override {}
  void closed() override {}
};

// The lobby as the challenge desk sees it: its players, what it says to
// them, and the games and other-node challenges the desk asks for.
class FakeLobby : public ChallengeHost, public GameRequestChecks, public testing::DeliveredReplies {
 public:
  FakeLobby(boost::asio::io_context& io, MemoryAccounts& accounts) : io_(io), accounts_(accounts) {}

  // A player online here, with an account of its own.
  LobbyPlayer& add(const std::string& name) {
    StoredPlayer stored;
    stored.name = name;
    stored.rating = 1500;
    const AccountId account = account_id(accounts_.create(stored));
    auto player = std::make_unique<LobbyPlayer>();
    player->id = SeatId{static_cast<std::uint64_t>(account)};
    player->account = account;
    player->name = name;
    player->key = name_key(name);
    player->address = "10.0.0." + std::to_string(static_cast<std::uint64_t>(account));
    auto conn = std::make_shared<FakeParticipant>();
    conns_[player->id] = conn;
    player->participant = conn;
    player->inbox = &inbox_;
    return players.add(std::move(player));
  }
  FakeParticipant& conn(const LobbyPlayer& player) { return *conns_.at(player.id); }
  // The player's connection dropped: it is away.
  void away(LobbyPlayer& player) {
    player.inbox = nullptr;
    player.participant.reset();
  }
  // `player` sits in a room of its own, waiting for an opponent.
  void seat_alone(LobbyPlayer& player) {
    player.room = room(RoomSettings{});
    player.room->seat(player.ref(), wire::SIDE_X, 0);
  }

  LobbyPlayer* player_of(SeatId id) override { return players.get(id); }
  bool valid_rules(LobbyPlayer& player, int size, int, std::uint32_t request_id) override {
    if (size <= 15) return true;
    error(player, wire::ERROR_CODE_BAD_REQUEST, "board size out of range", request_id);
    return false;
  }
  bool valid_clock(LobbyPlayer&, const wire::ClockSettings&, std::uint32_t) override {
    return true;
  }
  bool within_quota(LobbyPlayer& player, bool, std::uint32_t request_id) override {
    if (seats_free) return true;
    error(player, wire::ERROR_CODE_TOO_MANY_GAMES, "too many games", request_id);
    return false;
  }
  bool may_hold_seat(const LobbyPlayer&) const override { return seats_free; }
  std::shared_ptr<GameRoom> open_challenge_game(LobbyPlayer& challenger, LobbyPlayer& challenged,
                                                const wire::Challenge& settings,
                                                std::uint32_t request_id) override {
    RoomSettings room_settings;
    room_settings.size = settings.size();
    room_settings.win_length = settings.win_length();
    auto opened = room(room_settings);
    challenger.room = opened;
    challenged.room = opened;
    games.push_back({challenger.id, challenged.id, settings, request_id});
    return opened;
  }
  void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                      std::uint32_t request_id) override {
    sent.push_back({player.id, to, std::move(request), request_id});
  }
  bool shutting_down() const noexcept override { return going_down; }

  struct Game {
    SeatId challenger;
    SeatId challenged;
    wire::Challenge settings;
    std::uint32_t request_id;
  };
  struct Sent {
    SeatId player;
    std::string node;
    SeatRequest request;
    std::uint32_t request_id;
  };
  PlayerTable players;
  std::vector<Game> games;
  std::vector<Sent> sent;
  bool seats_free = true;
  bool going_down = false;

 private:
  std::shared_ptr<GameRoom> room(RoomSettings settings) {
    return std::make_shared<GameRoom>(GameId{++rooms_}, std::move(settings), io_.get_executor(),
                                      RoomDependencies{deps_, deps_, deps_});
  }

  boost::asio::io_context& io_;
  MemoryAccounts& accounts_;
  UnusedRoomDependencies deps_;
  SilentInbox inbox_;
  std::map<SeatId, std::shared_ptr<FakeParticipant>> conns_;
  std::uint64_t rooms_ = 0;
};

// One other node, "b", where "Zed" plays.
class ZedElsewhere : public testing::QuietCluster {
 public:
  std::optional<std::pair<std::string, wire::PlayerPresence>> other_player(
      const std::string& key) const override {
    if (key != name_key("Zed")) return std::nullopt;
    wire::PlayerPresence presence;
    presence.set_name("Zed");
    return std::pair{std::string("b"), presence};
  }
};

wire::Challenge challenge_to(const std::string& name, int size = 0) {
  wire::Challenge challenge;
  challenge.set_name(name);
  challenge.set_size(size);
  return challenge;
}

wire::AnswerChallenge answer(bool accept, std::uint64_t id = 0) {
  wire::AnswerChallenge answer;
  answer.set_accept(accept);
  answer.set_challenge_id(id);
  return answer;
}

const wire::ServerMessage* last_of(const FakeParticipant& conn,
                                   wire::ServerMessage::BodyCase body) {
  return conn.last([body](const wire::ServerMessage& m) { return m.body_case() == body; });
}

class ChallengeDeskTest : public ::testing::Test {
 protected:
  ChallengeDesk& desk(ChallengeLimits limits = {}) {
    desk_ = std::make_unique<ChallengeDesk>(io_.get_executor(), lobby_.players, accounts_, cluster_,
                                            lobby_, lobby_, ChallengeTerms{lifetime_, limits});
    return *desk_;
  }
  // The error `player` was told last, as "CODE: text", or "".
  std::string told(const LobbyPlayer& player) {
    const wire::ServerMessage* m = lobby_.conn(player).last_error();
    if (m == nullptr) return "";
    return wire::ErrorCode_Name(m->error().code()) + ": " + m->error().text();
  }
  // The ChallengeEnded `player` was told last.
  const wire::ChallengeEnded* ended(const LobbyPlayer& player) {
    const auto* m = last_of(lobby_.conn(player), wire::ServerMessage::kChallengeEnded);
    return m == nullptr ? nullptr : &m->challenge_ended();
  }
  // `player` challenges `name`; the id of the challenge sent (0 if none).
  std::uint64_t challenge(LobbyPlayer& player, const std::string& name) {
    auto& conn = lobby_.conn(player);
    const std::size_t before = conn.received.size();
    desk_->challenge(player, challenge_to(name), 7);
    if (conn.received.size() == before || !conn.received.back().has_challenge_sent()) return 0;
    return conn.received.back().challenge_sent().challenge_id();
  }

  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  ZedElsewhere cluster_;
  FakeLobby lobby_{io_, accounts_};
  milliseconds lifetime_{60'000};
  std::unique_ptr<ChallengeDesk> desk_;
};

TEST_F(ChallengeDeskTest, ChallengeIsSentAndOfferedWithItsExpiry) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  d.challenge(alice, challenge_to("BOB"), 7);

  const auto* sent = last_of(lobby_.conn(alice), wire::ServerMessage::kChallengeSent);
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent->in_reply_to(), 7u);
  EXPECT_EQ(sent->challenge_sent().settings().name(), "bob");  // as the player spells it
  EXPECT_EQ(sent->challenge_sent().settings().size(), 3);      // the default board
  EXPECT_EQ(sent->challenge_sent().settings().win_length(), 3);
  EXPECT_GT(sent->challenge_sent().expires_in_ms(), 0u);
  EXPECT_LE(sent->challenge_sent().expires_in_ms(), 60'000u);

  const auto* offered = last_of(lobby_.conn(bob), wire::ServerMessage::kChallengeOffer);
  ASSERT_NE(offered, nullptr);
  const wire::ChallengeOffer& offer = offered->challenge_offer();
  EXPECT_EQ(offer.challenge_id(), sent->challenge_sent().challenge_id());
  EXPECT_EQ(offer.from(), "alice");
  EXPECT_EQ(offer.from_rating(), 1500);
  EXPECT_FALSE(offer.from_bot());
  EXPECT_EQ(offer.settings().size(), 3);
  EXPECT_GT(offer.expires_in_ms(), 0u);
  EXPECT_EQ(d.size(), 1u);
}

TEST_F(ChallengeDeskTest, UnknownOfflineAndSelfAreRefusedWithWhy) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& carol = lobby_.add("carol");
  lobby_.away(carol);

  d.challenge(alice, challenge_to("nobody"), 1);
  EXPECT_EQ(told(alice), "ERROR_CODE_NO_RECORD: no player is called nobody");
  d.challenge(alice, challenge_to("carol"), 2);
  EXPECT_EQ(told(alice), "ERROR_CODE_PLAYER_OFFLINE: not online now: carol");
  d.challenge(alice, challenge_to("Alice"), 3);
  EXPECT_EQ(told(alice), "ERROR_CODE_BAD_REQUEST: you can't challenge yourself");
  d.challenge(alice, challenge_to(""), 4);
  EXPECT_EQ(told(alice), "ERROR_CODE_BAD_REQUEST: a challenge names a player (up to " +
                             std::to_string(kMaxNameBytes) + " bytes)");
  d.challenge(alice, challenge_to("carol", 99), 5);  // the host checks the rules first
  EXPECT_EQ(told(alice), "ERROR_CODE_BAD_REQUEST: board size out of range");
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, BusyPlayerIsRefusedAndSoIsASeatedChallenger) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  lobby_.seat_alone(bob);

  d.challenge(alice, challenge_to("bob"), 1);
  EXPECT_EQ(told(alice),
            "ERROR_CODE_PLAYER_BUSY: busy: bob waits for an opponent in a game of theirs; try "
            "again when it is over");
  d.challenge(bob, challenge_to("alice"), 2);
  EXPECT_EQ(told(bob), "ERROR_CODE_ALREADY_IN_GAME: you are in game 1: leave it first");
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, ABlockReadsAsAnyRefusal) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  auto& carol = lobby_.add("carol");
  wire::ChallengeSettings off;
  off.set_refuse_all(true);
  d.settings(bob, off, 1);
  ASSERT_NE(last_of(lobby_.conn(bob), wire::ServerMessage::kChallengeSettings), nullptr);
  wire::Block block;
  block.set_name("alice");
  block.set_blocked(true);
  d.block(carol, block, 2);

  d.challenge(alice, challenge_to("bob"), 3);
  EXPECT_EQ(told(alice), "ERROR_CODE_CHALLENGE_REFUSED: refused: bob is not taking challenges");
  d.challenge(alice, challenge_to("carol"), 4);
  EXPECT_EQ(told(alice), "ERROR_CODE_CHALLENGE_REFUSED: refused: carol is not taking challenges");
  // The same answer the router gives for a challenge from another node.
  ASSERT_TRUE(d.refusal(carol, alice.account).has_value());
  EXPECT_FALSE(d.refusal(carol, bob.account).has_value());
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, OneStandingChallengePerPairAndThreeInAll) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  lobby_.add("bob");
  lobby_.add("carol");
  lobby_.add("dave");
  lobby_.add("erin");

  const std::uint64_t first = challenge(alice, "bob");
  ASSERT_NE(first, 0u);
  EXPECT_EQ(challenge(alice, "bob"), 0u);
  EXPECT_EQ(told(alice), "ERROR_CODE_BAD_REQUEST: you challenged bob already (challenge " +
                             std::to_string(first) + ")");
  EXPECT_NE(challenge(alice, "carol"), 0u);
  EXPECT_NE(challenge(alice, "dave"), 0u);
  EXPECT_EQ(challenge(alice, "erin"), 0u);
  EXPECT_EQ(told(alice),
            "ERROR_CODE_TOO_MANY_CHALLENGES: 3 of your challenges stand already: wait for an "
            "answer");
  EXPECT_EQ(d.size(), 3u);
}

TEST_F(ChallengeDeskTest, ChallengesPastTheRateAreRefused) {
  auto& d = desk(ChallengeLimits{1, milliseconds(0)});  // one a minute, no cool-down
  auto& alice = lobby_.add("alice");
  lobby_.add("bob");
  lobby_.add("carol");

  ASSERT_NE(challenge(alice, "bob"), 0u);
  EXPECT_EQ(challenge(alice, "carol"), 0u);
  const wire::ServerMessage* refused = lobby_.conn(alice).last_error();
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->error().code(), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_EQ(d.size(), 1u);
}

TEST_F(ChallengeDeskTest, DeclinedEndsItForBothAndCoolsThePairDown) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  const std::uint64_t id = challenge(alice, "bob");
  ASSERT_NE(id, 0u);

  d.answer(bob, answer(false, id), 3);
  for (const LobbyPlayer* p : {&alice, &bob}) {
    const wire::ChallengeEnded* end = ended(*p);
    ASSERT_NE(end, nullptr) << p->name;
    EXPECT_EQ(end->challenge_id(), id);
    EXPECT_EQ(end->challenger(), "alice");
    EXPECT_EQ(end->challenged(), "bob");
    EXPECT_EQ(end->how(), wire::CHALLENGE_END_DECLINED);
  }
  EXPECT_EQ(d.size(), 0u);
  // Not the same player again at once after a challenge without a game.
  EXPECT_EQ(challenge(alice, "bob"), 0u);
  EXPECT_EQ(lobby_.conn(alice).last_error()->error().code(), wire::ERROR_CODE_RATE_LIMITED);
}

TEST_F(ChallengeDeskTest, AcceptedTheHostOpensTheGameForBoth) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  wire::Challenge settings = challenge_to("bob", 9);
  settings.set_win_length(5);
  d.challenge(alice, settings, 1);
  ASSERT_EQ(d.size(), 1u);

  lobby_.going_down = true;
  d.answer(bob, answer(true), 4);
  EXPECT_EQ(told(bob), "ERROR_CODE_SHUTTING_DOWN: the server is shutting down");
  lobby_.going_down = false;
  lobby_.seats_free = false;
  d.answer(bob, answer(true), 5);
  EXPECT_EQ(told(alice), "");  // the challenger's seat is checked first: it is withdrawn
  ASSERT_NE(ended(bob), nullptr);
  EXPECT_EQ(ended(bob)->how(), wire::CHALLENGE_END_WITHDRAWN);

  lobby_.seats_free = true;
  const std::uint64_t id = challenge(bob, "alice");  // the other way round now
  ASSERT_NE(id, 0u);
  d.answer(alice, answer(true, id), 6);
  ASSERT_EQ(lobby_.games.size(), 1u);
  EXPECT_EQ(lobby_.games[0].challenger, bob.id);
  EXPECT_EQ(lobby_.games[0].challenged, alice.id);
  EXPECT_EQ(lobby_.games[0].settings.name(), "alice");
  EXPECT_EQ(lobby_.games[0].request_id, 6u);
  EXPECT_EQ(d.size(), 0u);
  // Its expiry was stopped: nothing more is said.
  const std::size_t told_before = lobby_.conn(alice).received.size();
  io_.restart();
  io_.poll();
  EXPECT_EQ(lobby_.conn(alice).received.size(), told_before);
}

TEST_F(ChallengeDeskTest, AnswerToNoStandingChallengeIsAnError) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  lobby_.add("bob");
  auto& carol = lobby_.add("carol");
  const std::uint64_t id = challenge(alice, "bob");

  d.answer(carol, answer(true), 1);
  EXPECT_EQ(told(carol), "ERROR_CODE_NO_CHALLENGE: no challenge to you stands");
  d.answer(carol, answer(true, id), 2);  // bob's, not carol's
  EXPECT_EQ(told(carol),
            "ERROR_CODE_NO_CHALLENGE: no challenge " + std::to_string(id) + " to you stands");
  EXPECT_EQ(d.size(), 1u);
}

TEST_F(ChallengeDeskTest, ExpiryEndsTheChallengeForBoth) {
  lifetime_ = milliseconds(1);
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  const std::uint64_t id = challenge(alice, "bob");
  ASSERT_NE(id, 0u);

  EXPECT_EQ(io_.run_one(), 1u);  // the expiry
  for (const LobbyPlayer* p : {&alice, &bob}) {
    ASSERT_NE(ended(*p), nullptr) << p->name;
    EXPECT_EQ(ended(*p)->challenge_id(), id);
    EXPECT_EQ(ended(*p)->how(), wire::CHALLENGE_END_EXPIRED);
  }
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, BlockingEndsTheBlockedPlayersChallengesOnly) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  auto& carol = lobby_.add("carol");
  const std::uint64_t from_alice = challenge(alice, "bob");
  const std::uint64_t from_carol = challenge(carol, "bob");
  ASSERT_NE(from_alice, 0u);
  ASSERT_NE(from_carol, 0u);

  wire::Block block;
  block.set_name("ALICE");
  block.set_blocked(true);
  d.block(bob, block, 9);
  ASSERT_NE(ended(alice), nullptr);
  EXPECT_EQ(ended(alice)->challenge_id(), from_alice);
  EXPECT_EQ(ended(alice)->how(), wire::CHALLENGE_END_DECLINED);
  EXPECT_EQ(ended(carol), nullptr);
  EXPECT_EQ(d.size(), 1u);
  const auto* list = last_of(lobby_.conn(bob), wire::ServerMessage::kBlockList);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->in_reply_to(), 9u);
  ASSERT_EQ(list->block_list().names_size(), 1);
  EXPECT_EQ(list->block_list().names(0), "alice");

  block.set_name("nobody");
  d.block(bob, block, 10);
  EXPECT_EQ(told(bob), "ERROR_CODE_NO_RECORD: no player is called nobody");
  block.set_name("bob");
  d.block(bob, block, 11);
  EXPECT_EQ(told(bob), "ERROR_CODE_BAD_REQUEST: you can't block yourself");
}

TEST_F(ChallengeDeskTest, APlayerGoneIntoAGameHasItsChallengesEnded) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  auto& carol = lobby_.add("carol");
  const std::uint64_t made = challenge(alice, "bob");
  const std::uint64_t received = challenge(carol, "alice");
  ASSERT_NE(made, 0u);
  ASSERT_NE(received, 0u);

  d.end_all_of(alice);  // alice sat down in a game
  ASSERT_NE(ended(bob), nullptr);
  EXPECT_EQ(ended(bob)->challenge_id(), made);
  EXPECT_EQ(ended(bob)->how(), wire::CHALLENGE_END_WITHDRAWN);
  ASSERT_NE(ended(carol), nullptr);
  EXPECT_EQ(ended(carol)->challenge_id(), received);
  EXPECT_EQ(ended(carol)->how(), wire::CHALLENGE_END_UNAVAILABLE);
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, AcceptingAChallengerSeatedMeanwhileWithdrawsIt) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  auto& bob = lobby_.add("bob");
  const std::uint64_t id = challenge(alice, "bob");
  ASSERT_NE(id, 0u);
  lobby_.seat_alone(alice);

  d.answer(bob, answer(true, id), 2);
  ASSERT_NE(ended(bob), nullptr);
  EXPECT_EQ(ended(bob)->how(), wire::CHALLENGE_END_WITHDRAWN);
  EXPECT_TRUE(lobby_.games.empty());
  EXPECT_EQ(d.size(), 0u);
}

TEST_F(ChallengeDeskTest, APlayerAtAnotherNodeIsChallengedThere) {
  auto& d = desk();
  auto& alice = lobby_.add("alice");
  d.challenge(alice, challenge_to("zed", 5), 4);
  ASSERT_EQ(lobby_.sent.size(), 1u);
  EXPECT_EQ(lobby_.sent[0].player, alice.id);
  EXPECT_EQ(lobby_.sent[0].node, "b");
  EXPECT_EQ(lobby_.sent[0].request.kind, SeatRequest::Kind::kChallenge);
  EXPECT_EQ(lobby_.sent[0].request.challenge.name(), "Zed");
  EXPECT_EQ(lobby_.sent[0].request.challenge.win_length(), 5);
  EXPECT_EQ(lobby_.sent[0].request_id, 4u);
  EXPECT_EQ(d.size(), 0u);  // made there, not here

  lobby_.going_down = true;
  d.challenge(alice, challenge_to("zed"), 5);
  EXPECT_EQ(told(alice), "ERROR_CODE_SHUTTING_DOWN: the server is shutting down");
  EXPECT_EQ(lobby_.sent.size(), 1u);
}

}  // namespace
}  // namespace ttt::server
