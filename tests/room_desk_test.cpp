// RoomDesk alone, with a fake lobby around it and the real parts it works
// with (the RoomRegistry, InviteCodes, QuickMatch on the local queues): each
// request to take a place in a room or act in it is checked and refused with
// an Error naming what is wrong, or answered; a game another node lists is
// asked for there.
#include "lobby/room_desk.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <vector>

#include "executor_check.hpp"
#include "game/house_bot.hpp"
#include "lobby/text_rules.hpp"
#include "support/fake_participant.hpp"
#include "support/instant_journal.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeParticipant;
using testing::InstantJournal;
using testing::MemoryAccounts;

// A bot's connection: what the bot says is dropped.
class MuteInbox : public Inbox {
 public:
  void receive(const wire::ClientMessage&) override {}
  void closed() override {}
};

// The lobby as the desk (and the registry and quick match under it) sees
// it: the node's state is the test's to set; places asked for at other
// nodes are recorded.
class FakeLobby : public RoomDeskHost,
                  public RoomHost,
                  public QuickMatchHost,
                  public testing::DeliveredReplies {
 public:
  explicit FakeLobby(PlayerTable& players) : players_(players) {}
  void wire(RoomRegistry& rooms) { rooms_ = &rooms; }

  // RoomDeskHost
  RateLimiter* invite_tries(const LobbyPlayer&) override { return &tries; }
  bool seat_kept(GameId game) const override { return game == kept; }
  void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                      std::uint32_t) override {
    asked_elsewhere.push_back({player.id, to, std::move(request)});
  }
  bool draining() const noexcept override { return drains; }
  bool shutting_down() const noexcept override { return shuts_down; }
  // RoomHost
  void connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) override {
    auto inbox = std::make_shared<MuteInbox>();
    house_bot->attach(inbox);
    bot.inbox = inbox.get();
    inboxes_.push_back(inbox);
  }
  void took_seat(LobbyPlayer&) override {}
  void forget(SeatId player) override { players_.erase(player); }
  void round_may_be_over(GameRoom&) override {}
  // QuickMatchHost
  std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                      LobbyPlayer* player, const MatchRequest& rules,
                                      std::uint32_t request_id) override {
    return rooms_->open_pair(waiting, waiting_rated, player, rules, request_id);
  }
  void send_to_seat(LobbyPlayer&, const NodeInfo&, const std::string&, GameId,
                    const std::string&) override {}
  bool bot_free_for(const LobbyPlayer&) override { return false; }
  void play_bot(LobbyPlayer&, const MatchRequest&) override {}
  // PlayerReplies
  LobbyPlayer* player_of(SeatId id) override { return players_.get(id); }

  struct Asked {
    SeatId player;
    std::string to;
    SeatRequest request;
  };
  std::vector<Asked> asked_elsewhere;
  RateLimiter tries{1.0, 5.0};
  GameId kept{};
  bool drains = false;
  bool shuts_down = false;

 private:
  PlayerTable& players_;
  RoomRegistry* rooms_ = nullptr;
  std::vector<std::shared_ptr<MuteInbox>> inboxes_;
};

class RoomDeskTest : public ::testing::Test {
 protected:
  RoomDeskTest() {
    RoomTerms terms;
    terms.move_timeout = milliseconds(0);
    terms.max_spectators = 7;  // two places for one address
    terms.quotas = QuotaLimits{2, 1};
    registry_ = std::make_unique<RoomRegistry>(io_.get_executor(), io_.get_executor(), accounts_,
                                               journal_, directory_, log_, nullptr, players_,
                                               invites_, lobby_, terms);
    lobby_.wire(*registry_);
    desk_ = std::make_unique<RoomDesk>(*registry_, invites_, directory_, cluster_, quick_match_,
                                       lobby_, AddressChatRate{3.0, 10.0});
  }

  // A person with an account, connected from `address`.
  LobbyPlayer& person(const std::string& name, const std::string& address = "192.0.2.1") {
    StoredPlayer account;
    account.name = name;
    const StoredPlayer& made = accounts_.create(std::move(account));
    auto player = std::make_unique<LobbyPlayer>();
    player->id = seat_of(account_id(made));
    player->account = account_id(made);
    player->name = name;
    player->key = name_key(name);
    player->address = address;
    auto conn = std::make_shared<FakeParticipant>();
    conns_[player->id] = conn;
    player->participant = conn;
    return players_.add(std::move(player));
  }
  FakeParticipant& conn(const LobbyPlayer& player) { return *conns_.at(player.id); }
  // The code of the last Error the player was told (UNSPECIFIED if none).
  wire::ErrorCode last_error(const LobbyPlayer& player) {
    const auto* error = conn(player).last_error();
    return error ? error->error().code() : wire::ERROR_CODE_UNSPECIFIED;
  }
  std::string last_error_text(const LobbyPlayer& player) {
    const auto* error = conn(player).last_error();
    return error ? error->error().text() : "";
  }

  static wire::CreateGame game(int size, int win_length = 0) {
    wire::CreateGame create;
    create.set_size(size);
    create.set_win_length(win_length);
    return create;
  }
  static wire::JoinGame join_by_id(GameId id) {
    wire::JoinGame join;
    join.set_game_id(number(id));
    return join;
  }
  static wire::ClientMessage move(GameId game, int row, int col) {
    wire::ClientMessage message;
    message.set_request_id(4);
    message.mutable_make_move()->set_game_id(number(game));
    message.mutable_make_move()->set_row(row);
    message.mutable_make_move()->set_col(col);
    return message;
  }

  // The test calls the desk from its own thread, which runs its executor
  // too: it stands in for it.
  ExecutorStandIn on_executor_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  InstantJournal journal_;
  LocalGameDirectory directory_;
  LogLimiter log_;
  testing::QuietCluster cluster_{"a"};
  LocalMatchmaker matchmaker_;
  PlayerTable players_;
  FakeLobby lobby_{players_};
  InviteCodes invites_{directory_, lobby_, InviteLimits{}};
  QuickMatch quick_match_{io_.get_executor(), matchmaker_, cluster_, lobby_, milliseconds(0)};
  std::map<SeatId, std::shared_ptr<FakeParticipant>> conns_;
  std::unique_ptr<RoomRegistry> registry_;
  std::unique_ptr<RoomDesk> desk_;
};

TEST_F(RoomDeskTest, CreateSeatsThePlayerOnTheSideItAskedInARoomListedHere) {
  LobbyPlayer& alice = person("alice");
  wire::CreateGame create = game(5, 4);
  create.set_side(wire::SIDE_O);

  desk_->create(alice, create, 3);

  ASSERT_NE(alice.room, nullptr);
  EXPECT_TRUE(alice.holds_quota);
  EXPECT_EQ(alice.room->settings().win_length, 4);
  const auto* joined = conn(alice).last([](const auto& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->in_reply_to(), 3u);
  EXPECT_EQ(joined->joined().side(), wire::SIDE_O);
  EXPECT_TRUE(directory_.find(alice.room->id()).has_value());
}

TEST_F(RoomDeskTest, ABoardAWinLengthOrAClockOutOfRangeIsRefusedNamingIt) {
  LobbyPlayer& alice = person("alice");
  desk_->create(alice, game(2), 1);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_NE(last_error_text(alice).find("board size"), std::string::npos);
  desk_->create(alice, game(5, 9), 2);
  EXPECT_NE(last_error_text(alice).find("win length"), std::string::npos);
  wire::CreateGame clocked = game(3);
  clocked.mutable_clock()->set_initial_ms(10);
  desk_->create(alice, clocked, 3);
  EXPECT_NE(last_error_text(alice).find("a clock is"), std::string::npos);
  EXPECT_EQ(alice.room, nullptr);
  EXPECT_EQ(registry_->size(), 0u);
}

TEST_F(RoomDeskTest, TheBotSitsOppositeAndAnUnknownLevelIsRefused) {
  LobbyPlayer& alice = person("alice");
  wire::CreateGame create = game(3);
  create.set_vs_bot(true);
  create.set_bot_level(static_cast<wire::BotLevel>(99));
  desk_->create(alice, create, 1);
  EXPECT_EQ(last_error_text(alice), "unknown bot level");

  create.set_bot_level(wire::BOT_LEVEL_EASY);
  desk_->create(alice, create, 2);
  ASSERT_NE(alice.room, nullptr);
  EXPECT_TRUE(alice.room->in_progress());
  EXPECT_EQ(registry_->bots(), 1u);
  EXPECT_FALSE(alice.room->settings().rated) << "against the bot only when asked";
}

TEST_F(RoomDeskTest, AnAddressPastItsSeatsAndAPlayerInARoomAreRefused) {
  LobbyPlayer& alice = person("alice", "192.0.2.9");
  LobbyPlayer& bob = person("bob", "192.0.2.9");
  LobbyPlayer& carol = person("carol", "192.0.2.9");
  LobbyPlayer& dave = person("dave", "192.0.2.10");
  desk_->create(alice, game(3), 1);
  desk_->create(alice, game(3), 2);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_ALREADY_IN_GAME);
  EXPECT_TRUE(desk_->may_hold_seat(carol));
  desk_->create(bob, game(3), 1);
  // The challenge desk's question: the address is full, and nothing is replied.
  EXPECT_FALSE(desk_->may_hold_seat(carol));
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_UNSPECIFIED);
  EXPECT_TRUE(desk_->may_hold_seat(dave));
  desk_->create(carol, game(3), 1);
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_TOO_MANY_GAMES);
  EXPECT_EQ(carol.room, nullptr);
}

TEST_F(RoomDeskTest, ANodeDrainingOrShuttingDownOpensNoRoom) {
  LobbyPlayer& alice = person("alice");
  lobby_.drains = true;
  desk_->create(alice, game(3), 1);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_DRAINING);
  lobby_.shuts_down = true;
  desk_->create(alice, game(3), 2);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_SHUTTING_DOWN);
  EXPECT_EQ(registry_->size(), 0u);
}

TEST_F(RoomDeskTest, APrivateRoomIsJoinedByItsCodeNotByItsIdAlone) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  wire::CreateGame create = game(3);
  create.set_is_private(true);
  desk_->create(alice, create, 1);
  ASSERT_NE(alice.room, nullptr);
  const GameId id = alice.room->id();
  const std::string code = alice.room->settings().invite_code;

  desk_->join(bob, join_by_id(id), 2);
  EXPECT_NE(last_error(bob), wire::ERROR_CODE_UNSPECIFIED);
  EXPECT_EQ(bob.room, nullptr);

  wire::JoinGame by_code;
  by_code.set_invite_code(code);
  desk_->join(bob, by_code, 3);
  EXPECT_EQ(bob.room, alice.room);
  EXPECT_TRUE(alice.room->in_progress());
}

TEST_F(RoomDeskTest, JoinRefusesAnUnknownRoomAFullOneAndASeatKeptForAnother) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  LobbyPlayer& carol = person("carol", "192.0.2.3");
  desk_->join(bob, join_by_id(GameId{99}), 1);
  EXPECT_EQ(last_error(bob), wire::ERROR_CODE_UNKNOWN_GAME);

  desk_->create(alice, game(3), 1);
  const GameId id = alice.room->id();
  lobby_.kept = id;
  desk_->join(bob, join_by_id(id), 2);
  EXPECT_EQ(last_error(bob), wire::ERROR_CODE_GAME_FULL) << "its free seat waits for another";

  lobby_.kept = GameId{};
  desk_->join(bob, join_by_id(id), 3);
  EXPECT_EQ(bob.room, alice.room);
  desk_->join(carol, join_by_id(id), 4);
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_GAME_FULL);
}

TEST_F(RoomDeskTest, AGameListedAtAnotherNodeIsAskedForThere) {
  LobbyPlayer& bob = person("bob");
  Listing listing;
  listing.summary.set_game_id(77);
  listing.node = "b";
  directory_.publish(listing);

  desk_->join(bob, join_by_id(GameId{77}), 1);
  wire::Spectate watch;
  watch.set_game_id(77);
  desk_->spectate(bob, watch, 2);

  ASSERT_EQ(lobby_.asked_elsewhere.size(), 2u);
  EXPECT_EQ(lobby_.asked_elsewhere[0].to, "b");
  EXPECT_EQ(lobby_.asked_elsewhere[0].request.kind, SeatRequest::Kind::kJoin);
  EXPECT_EQ(lobby_.asked_elsewhere[0].request.game, GameId{77});
  EXPECT_EQ(lobby_.asked_elsewhere[1].request.kind, SeatRequest::Kind::kWatch);
}

TEST_F(RoomDeskTest, OneAddressTakesATenthOfASpectatorsPlacesTwoAtLeast) {
  LobbyPlayer& alice = person("alice");
  desk_->create(alice, game(3), 1);
  wire::Spectate watch;
  watch.set_game_id(number(alice.room->id()));
  std::vector<LobbyPlayer*> watchers;
  for (const char* name : {"w1", "w2", "w3"}) watchers.push_back(&person(name, "198.51.100.1"));

  desk_->spectate(*watchers[0], watch, 1);
  desk_->spectate(*watchers[1], watch, 1);
  desk_->spectate(*watchers[2], watch, 1);

  EXPECT_EQ(watchers[1]->room, alice.room);
  EXPECT_EQ(watchers[2]->room, nullptr);
  EXPECT_EQ(last_error(*watchers[2]), wire::ERROR_CODE_SPECTATORS_FULL);
  EXPECT_EQ(alice.room->spectators(), 2u);
}

TEST_F(RoomDeskTest, LeaveWithdrawsAQuickMatchThenLeavesTheRoom) {
  LobbyPlayer& alice = person("alice");
  desk_->leave(alice, 1);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_NOT_IN_GAME);

  wire::QuickMatch quick;
  quick.set_size(3);
  desk_->quick_match(alice, quick, 2);
  EXPECT_NE(quick_match_.wish_of(alice.id), nullptr);
  desk_->leave(alice, 3);
  EXPECT_EQ(quick_match_.wish_of(alice.id), nullptr);
  const auto* left = conn(alice).last([](const auto& m) { return m.has_left(); });
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->in_reply_to(), 3u);

  desk_->create(alice, game(3), 4);
  desk_->leave(alice, 5);
  EXPECT_EQ(alice.room, nullptr);
  EXPECT_EQ(registry_->size(), 0u);
}

TEST_F(RoomDeskTest, QuickMatchPairsTwoPlayersAskingForTheSameRules) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  wire::QuickMatch quick;
  quick.set_size(4);
  desk_->quick_match(alice, quick, 1);
  desk_->quick_match(bob, quick, 1);
  ASSERT_NE(alice.room, nullptr);
  EXPECT_EQ(alice.room, bob.room);
  EXPECT_TRUE(alice.room->in_progress());

  LobbyPlayer& carol = person("carol", "192.0.2.3");
  quick.set_size(40);
  desk_->quick_match(carol, quick, 2);
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_BAD_REQUEST);
}

TEST_F(RoomDeskTest, AMoveForAnotherRoomIsRefusedNamingWhy) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  LobbyPlayer& carol = person("carol", "192.0.2.3");
  desk_->in_room(carol, move(GameId{}, 0, 0));
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_NOT_IN_GAME);

  desk_->create(alice, game(3), 1);
  desk_->join(bob, join_by_id(alice.room->id()), 2);
  desk_->in_room(carol, move(alice.room->id(), 0, 0));
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_NOT_IN_GAME);
  desk_->in_room(carol, move(GameId{99}, 0, 0));
  EXPECT_EQ(last_error(carol), wire::ERROR_CODE_UNKNOWN_GAME);

  desk_->in_room(alice, move(alice.room->id(), 1, 1));
  const auto* state = conn(bob).last_state();
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->move_count(), 1u);
}

TEST_F(RoomDeskTest, ChatIsCheckedThenGoesToTheRoomWithinThePlayersRate) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  wire::Chat line;
  line.set_text("hello");
  desk_->chat(alice, line, 1);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_NOT_IN_GAME);

  desk_->create(alice, game(3), 1);
  desk_->join(bob, join_by_id(alice.room->id()), 2);
  wire::Chat long_line;
  long_line.set_text(std::string(kMaxChatBytes + 1, 'a'));
  desk_->chat(alice, long_line, 3);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_CHAT_TOO_LONG);
  desk_->chat(alice, wire::Chat{}, 4);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_BAD_REQUEST);

  desk_->chat(alice, line, 5);
  EXPECT_NE(conn(bob).last([](const auto& m) { return m.has_chat(); }), nullptr);
  for (int i = 0; i < 5; ++i) desk_->chat(alice, line, 6);
  EXPECT_EQ(last_error(alice), wire::ERROR_CODE_RATE_LIMITED) << "a burst of five, then a second";
}

}  // namespace
}  // namespace ttt::server
