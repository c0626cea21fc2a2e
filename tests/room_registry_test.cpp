// RoomRegistry alone, with a fake lobby around it: rooms are opened by the
// lobby's terms and listed, seats count against their addresses until they
// are left, the server's bot is seated through the host's connection, what
// rooms say reaches the registry (a seat left, a round recorded, a room
// closed, a result decided while its player was away), and a stored game in
// progress comes back with its people away and its bot seated.
#include "lobby/room_registry.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <vector>

#include "executor_check.hpp"
#include "game/bot_level_code.hpp"
#include "game/house_bot.hpp"
#include "support/fake_participant.hpp"
#include "support/instant_journal.hpp"
#include "support/memory_accounts.hpp"
#include "support/recorded_replies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeParticipant;
using testing::InstantJournal;
using testing::MemoryAccounts;

// A bot's connection as the lobby's would be: it keeps what the bot says.
class BotInbox : public Inbox {
 public:
  void receive(const wire::ClientMessage& message) override { said.push_back(message); }
  void closed() override {}
  std::vector<wire::ClientMessage> said;
};

// The lobby as the registry sees it: the players are the registry's table;
// what it is asked (bots connected, seats taken, players forgotten, rounds
// that may be over) is recorded.
class FakeLobby : public RoomHost, public testing::DeliveredReplies {
 public:
  explicit FakeLobby(PlayerTable& players) : players_(players) {}

  void connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) override {
    auto inbox = std::make_shared<BotInbox>();
    house_bot->attach(inbox);
    bot.inbox = inbox.get();
    inboxes.push_back(inbox);
  }
  void took_seat(LobbyPlayer& player) override { seated.push_back(player.id); }
  void forget(SeatId player) override {
    forgotten.push_back(player);
    players_.erase(player);
  }
  void round_may_be_over(GameRoom&) override { ++rounds_maybe_over; }
  LobbyPlayer* player_of(SeatId id) override { return players_.get(id); }

  std::vector<std::shared_ptr<BotInbox>> inboxes;
  std::vector<SeatId> seated;
  std::vector<SeatId> forgotten;
  int rounds_maybe_over = 0;

 private:
  PlayerTable& players_;
};

class RoomRegistryTest : public ::testing::Test {
 protected:
  RoomRegistryTest() {
    terms_.move_timeout = milliseconds(0);
    terms_.reconnect_grace = milliseconds(30'000);
    terms_.bot_game_grace = milliseconds(5'000);
    terms_.max_spectators = 7;
    terms_.fallback_level = Level::Easy;
    terms_.quotas = QuotaLimits{2, 1};
    registry_ = std::make_unique<RoomRegistry>(io_.get_executor(), io_.get_executor(), accounts_,
                                               journal_, directory_, log_, nullptr, players_,
                                               invites_, lobby_, terms_);
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
    player->key = name;
    player->address = address;
    auto conn = std::make_shared<FakeParticipant>();
    conns_[player->id] = conn;
    player->participant = conn;
    return players_.add(std::move(player));
  }
  FakeParticipant& conn(const LobbyPlayer& player) { return *conns_.at(player.id); }
  // The player's connection drops (the lobby still holds the player).
  void disconnect(const LobbyPlayer& player) { conns_.erase(player.id); }

  static MatchRequest rules(int size) {
    MatchRequest request;
    request.size = size;
    request.win_length = size;
    request.clock_initial_ms = 60'000;
    request.clock_increment_ms = 1'000;
    return request;
  }

  // The test calls the registry from its own thread, which runs its
  // executor too: it stands in for it.
  ExecutorStandIn on_executor_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  InstantJournal journal_;
  LocalGameDirectory directory_;
  LogLimiter log_;
  PlayerTable players_;
  FakeLobby lobby_{players_};
  InviteCodes invites_{directory_, lobby_, InviteLimits{}};
  RoomTerms terms_;
  std::map<SeatId, std::shared_ptr<FakeParticipant>> conns_;
  std::unique_ptr<RoomRegistry> registry_;
};

TEST_F(RoomRegistryTest, OpensRoomsByItsTermsListedUnderTheNextId) {
  RoomSettings settings;
  settings.size = 5;
  settings.move_timeout = milliseconds(1);  // the registry's terms win
  auto first = registry_->open(settings);
  settings.vs_bot = true;
  auto second = registry_->open(settings);

  EXPECT_EQ(first->id(), GameId{1});
  EXPECT_EQ(second->id(), GameId{2});
  EXPECT_EQ(first->settings().move_timeout, milliseconds(0));
  EXPECT_EQ(first->settings().max_spectators, 7u);
  EXPECT_EQ(first->settings().reconnect_grace, milliseconds(30'000));
  EXPECT_EQ(second->settings().reconnect_grace, milliseconds(5'000))
      << "nobody else waits for the person of a game against the bot";
  EXPECT_EQ(registry_->find(GameId{2}), second);
  EXPECT_EQ(registry_->find(GameId{3}), nullptr);
  EXPECT_TRUE(directory_.find(GameId{1}).has_value());
  EXPECT_EQ(registry_->size(), 2u);
  EXPECT_EQ((registry_->by_state().at({"waiting", 5})), 2u);
}

TEST_F(RoomRegistryTest, CountsRoomIdsOnFromTheLargestRestored) {
  registry_->ids_after(GameId{41});
  EXPECT_EQ(registry_->open({})->id(), GameId{42});
  registry_->ids_after(GameId{7});  // never back
  EXPECT_EQ(registry_->open({})->id(), GameId{43});
}

TEST_F(RoomRegistryTest, APairSitsBothAndTheirSeatsCountAgainstTheirAddress) {
  LobbyPlayer& alice = person("alice", "192.0.2.7");
  LobbyPlayer& bob = person("bob", "192.0.2.7");

  auto room = registry_->open_pair(alice, wire::RATED_DEFAULT, &bob, rules(4), 9);

  EXPECT_TRUE(room->in_progress());
  EXPECT_EQ(alice.room, room);
  EXPECT_EQ(bob.room, room);
  EXPECT_EQ(room->settings().clock.initial_ms(), 60'000u);
  EXPECT_TRUE(room->settings().rated);
  EXPECT_EQ(lobby_.seated, (std::vector<SeatId>{alice.id, bob.id}));
  EXPECT_TRUE(alice.holds_quota && bob.holds_quota);
  EXPECT_FALSE(registry_->quota_refusal("192.0.2.7", false).empty())
      << "two seats are all one address may hold here";
  EXPECT_TRUE(registry_->quota_refusal("192.0.2.8", false).empty());
  const auto* joined = conn(bob).last([](const auto& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->in_reply_to(), 9u);
  EXPECT_EQ(joined->joined().side(), wire::SIDE_O);
}

TEST_F(RoomRegistryTest, AProgramsSideMakesThePairUnratedUnlessItAsks) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& robot = person("robot", "192.0.2.2");
  robot.program = true;
  EXPECT_FALSE(
      registry_->open_pair(robot, wire::RATED_DEFAULT, &alice, rules(3), 0)->settings().rated);
  EXPECT_TRUE(RoomRegistry::allows_rating(robot, wire::RATED_YES));
  EXPECT_FALSE(RoomRegistry::allows_rating(alice, wire::RATED_NO));
}

TEST_F(RoomRegistryTest, ALeftSeatIsGivenBackAndAnAwayPlayerForgotten) {
  LobbyPlayer& alice = person("alice", "192.0.2.7");
  LobbyPlayer& bob = person("bob", "192.0.2.7");
  const SeatId bob_id = bob.id;
  auto room = registry_->open_pair(alice, wire::RATED_DEFAULT, &bob, rules(3), 0);

  room->leave(alice.id, 0);  // alice resigns and goes back to the lobby
  EXPECT_EQ(alice.room, nullptr);
  EXPECT_FALSE(alice.holds_quota);
  EXPECT_TRUE(lobby_.forgotten.empty()) << "alice is connected: the lobby keeps her";
  EXPECT_TRUE(registry_->quota_refusal("192.0.2.7", false).empty());

  disconnect(bob);
  room->leave(bob_id, 0);
  EXPECT_EQ(lobby_.forgotten, std::vector<SeatId>{bob_id}) << "away and out of its seat";
  EXPECT_EQ(registry_->find(room->id()), nullptr) << "the room closed when its last player left";
  EXPECT_FALSE(directory_.find(room->id()).has_value());
}

TEST_F(RoomRegistryTest, AClosedPrivateRoomTakesItsInviteCodeWithIt) {
  LobbyPlayer& alice = person("alice");
  RoomSettings settings;
  settings.is_private = true;
  settings.invite_code = invites_.issue();
  auto room = registry_->open(settings);
  alice.room = room;
  registry_->took_seat(alice);
  room->seat(alice.ref(), wire::SIDE_X, 0);
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  EXPECT_EQ(invites_.game_of(bob, nullptr, settings.invite_code, 1), room->id());

  room->leave(alice.id, 0);

  EXPECT_EQ(registry_->find(room->id()), nullptr);
  EXPECT_EQ(invites_.game_of(bob, nullptr, settings.invite_code, 2), std::nullopt);
  EXPECT_NE(conn(bob).last_error(), nullptr) << "a code no game has, told as any wrong code";
}

TEST_F(RoomRegistryTest, TheFallbackBotSitsAsOThroughTheHostsConnection) {
  LobbyPlayer& alice = person("alice", "192.0.2.7");

  registry_->play_bot(alice, rules(3));

  ASSERT_NE(alice.room, nullptr);
  auto room = alice.room;
  EXPECT_TRUE(room->in_progress());
  EXPECT_TRUE(room->settings().vs_bot);
  EXPECT_EQ(room->settings().bot_level, bot_level_code(Level::Easy));
  EXPECT_EQ(registry_->bots(), 1u);
  ASSERT_EQ(lobby_.inboxes.size(), 1u);
  EXPECT_EQ(players_.size(), 2u);
  EXPECT_EQ(accounts_.created.back(), "bot (easy)");
  EXPECT_FALSE(registry_->quota_refusal("192.0.2.7", true).empty())
      << "one bot game is all this address may hold";
  const LobbyPlayer* bot = nullptr;
  for (const auto& [id, player] : players_) {
    if (player->is_bot) bot = player.get();
  }
  ASSERT_NE(bot, nullptr);
  EXPECT_EQ(bot->inbox, lobby_.inboxes.front().get());
  EXPECT_EQ(bot->room, room);
  EXPECT_FALSE(bot->holds_quota) << "a bot's seat counts against nobody";

  // The person leaves: the game is over and the bot, out of its seat, is
  // forgotten by the lobby; its house bot goes with it.
  const SeatId bot_id = bot->id;
  room->leave(alice.id, 0);
  EXPECT_NE(std::find(lobby_.forgotten.begin(), lobby_.forgotten.end(), bot_id),
            lobby_.forgotten.end());
  registry_->drop_bot(bot_id);
  EXPECT_EQ(registry_->bots(), 0u);
}

TEST_F(RoomRegistryTest, ARecordedRoundIsCountedAndTheHostHearsIt) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob", "192.0.2.2");
  auto room = registry_->open_pair(alice, wire::RATED_DEFAULT, &bob, rules(3), 0);
  EXPECT_EQ(registry_->in_progress(), 1u);
  EXPECT_EQ(registry_->records(true).size(), 1u);
  const int heard = lobby_.rounds_maybe_over;

  room->resign(bob.id, 0);
  io_.poll();

  EXPECT_EQ(registry_->games_finished(), 1u);
  EXPECT_GT(lobby_.rounds_maybe_over, heard);
  EXPECT_EQ(registry_->in_progress(), 0u);
  EXPECT_TRUE(registry_->records(true).empty());
  EXPECT_EQ(registry_->records(false).size(), 1u) << "the room stays for a rematch";
  EXPECT_TRUE(registry_->settled());
}

TEST_F(RoomRegistryTest, ResultsDecidedWhileAwayAreKeptBoundedAndHandedOverOnce) {
  for (int i = 0; i < 10; ++i) {
    wire::AwayResult result;
    result.set_game_id(static_cast<std::uint64_t>(i));
    registry_->decided_while_away(AccountId{5}, std::move(result));
  }
  const auto results = registry_->take_away_results(AccountId{5});
  ASSERT_EQ(results.size(), 8u) << "the latest few";
  EXPECT_EQ(results.front().game_id(), 2u);
  EXPECT_EQ(results.back().game_id(), 9u);
  EXPECT_TRUE(registry_->take_away_results(AccountId{5}).empty());
}

TEST_F(RoomRegistryTest, AStoredGameComesBackWithItsPersonAwayAndItsBotSeated) {
  StoredPlayer account;
  account.name = "carol";
  const AccountId carol = account_id(accounts_.create(std::move(account)));
  StoredPlayer bot_account;
  bot_account.name = "bot (hard)";
  bot_account.is_bot = true;
  const AccountId bot = account_id(accounts_.create(std::move(bot_account)));
  GameRecord game;
  game.id = 70;
  game.room_id = 12;
  game.size = 3;
  game.win_length = 3;
  game.x_player = static_cast<std::int64_t>(carol);
  game.o_player = static_cast<std::int64_t>(bot);
  game.bot_level = bot_level_code(Level::Hard);
  game.moves = {StoredMove{1, 1, 0}};

  registry_->restore(game);

  auto room = registry_->find(GameId{12});
  ASSERT_NE(room, nullptr);
  EXPECT_TRUE(room->in_progress());
  EXPECT_EQ(registry_->by_record(RecordId{70}), room);
  const LobbyPlayer* held = players_.get(seat_of(carol));
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->room, room);
  EXPECT_TRUE(held->participant.expired()) << "away until it comes back";
  EXPECT_EQ(registry_->bots(), 1u);

  game.id = 71;
  game.room_id = 13;
  game.o_player = 999;  // X is known, O is not
  game.bot_level = kNoBotLevel;
  EXPECT_THROW(registry_->restore(game), std::runtime_error) << "names an unknown player";
  // Nothing of it is left behind: no room, no listing, X not seated.
  EXPECT_EQ(registry_->find(GameId{13}), nullptr);
  EXPECT_FALSE(directory_.find(GameId{13}).has_value());
  EXPECT_EQ(registry_->by_record(RecordId{71}), nullptr);
  EXPECT_EQ(registry_->size(), 1u);
  EXPECT_EQ(held->room, room) << "carol is still in her own restored game only";
}

}  // namespace
}  // namespace ttt::server
