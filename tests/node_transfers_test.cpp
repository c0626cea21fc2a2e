// NodeTransfers alone, with the lobby's real parts (RoomRegistry,
// PlayerTable, HelloDesk, NodeRouter, QuickMatch) around a fake lobby, a
// fake second node and the database's holders answered by the test: a game
// taken over comes back with its players away and their tokens held here; a
// game lost sends its players to its holder, or tells them it is gone, and
// forgets its away players and bots; a player another node holds is sent
// there unless it plays a game here; the drain sends players out of a game
// away and keeps those playing, then each game's players when it is over;
// the drain's end hands every player over with its token held where it
// goes; and when the shared state is back every player's token is held
// again.
#include "lobby/node_transfers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <map>
#include <memory>
#include <vector>

#include "executor_check.hpp"
#include "game/house_bot.hpp"
#include "lobby/invite_codes.hpp"
#include "support/fake_game_holders.hpp"
#include "support/fake_participant.hpp"
#include "support/fake_routed_connection.hpp"
#include "support/instant_journal.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeGameHolders;
using testing::FakeParticipant;
using testing::FakeRoutedConnection;
using testing::InstantJournal;
using testing::MemoryAccounts;

// This node "a" and node "b", alive and taking players; the tokens held
// are kept for the test to look at, with the answer each waits for.
class TwoNodes : public testing::TwoNodeCluster {
 public:
  std::vector<std::string> live_nodes() const override { return {"a", "b"}; }
  std::optional<NodeInfo> another_node() const override { return other_; }
  void set_draining(bool on) override { draining = on; }
  void hold(AccountId account, const std::string& hash, milliseconds, const std::string& to,
            HoldDone done) override {
    held.push_back({account, hash, to, std::move(done)});
  }

  struct Held {
    AccountId account;
    std::string hash;
    std::string to;
    HoldDone done;
  };
  std::vector<Held> held;
  bool draining = false;
};

// A bot's connection as the lobby's would be: it keeps nothing.
class BotInbox : public Inbox {
 public:
  void receive(const wire::ClientMessage&) override {}
  void closed() override {}
};

// The lobby around the parts: its players are the test's PlayerTable, each
// person on a FakeRoutedConnection; it does what the Lobby does when the
// router hands a player off, and records it.
class FakeLobby : public RoomHost,
                  public QuickMatchHost,
                  public RoutingHost,
                  public TransfersHost,
                  public testing::DeliveredReplies {
 public:
  explicit FakeLobby(PlayerTable& players) : players_(players) {}

  // The parts it answers for (set once they are made).
  RoomRegistry* rooms = nullptr;
  HelloDesk* desk = nullptr;
  NodeTransfers* transfers = nullptr;

  // The player speaks through a connection of its own from now on.
  FakeRoutedConnection& connect(LobbyPlayer& player) {
    auto connection = std::make_shared<FakeRoutedConnection>();
    connection->attach(player);
    return *(connections_[player.id] = connection);
  }
  // The player's connection drops (or is handed off): it is away. Its
  // peer stays, for the test to read what it was told.
  void disconnect(LobbyPlayer& player) {
    auto connection = connections_.at(player.id);
    connection->detach();
    connections_.erase(player.id);
    dropped_.push_back(std::move(connection));
  }

  // TransfersHost and RoutingHost
  RoutedConnection* connection_of(const LobbyPlayer& player) override {
    const auto it = connections_.find(player.id);
    if (it == connections_.end() || it->second->player != &player) return nullptr;
    return it->second.get();
  }
  std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const override {
    auto open = connection.lock();
    return open && open->participant() ? open : nullptr;
  }
  void hand_off(LobbyPlayer& player) override {
    const SeatId id = player.id;
    handed_off.push_back(id);
    if (player.room) player.room->leave(id, 0);
    desk->tokens().forget(id);
    disconnect(player);
    if (LobbyPlayer* still = players_.get(id); still && !still->room) {
      rooms->release_seat(*still);
      players_.erase(id);
    }
  }
  void enter_sent(RoutedConnection&, const StoredPlayer&, const wire::Hello&, std::uint32_t,
                  const std::function<void(LobbyPlayer&)>&) override {
    ADD_FAILURE() << "nobody is sent here";
  }
  void took_kept_seat(LobbyPlayer&, wire::Rated) override {}
  void challenge_here(LobbyPlayer&, const wire::Challenge&) override {}
  std::shared_ptr<GameRoom> find_room(GameId id) const override { return rooms->find(id); }
  LobbyPlayer* online(std::string_view) override { return nullptr; }
  std::optional<std::pair<wire::ErrorCode, std::string>> challenge_refusal(
      const LobbyPlayer&, AccountId) const override {
    return std::nullopt;
  }
  std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest&) override { return nullptr; }
  void wait_again(SeatId, const SeatRequest&) override {}
  bool draining() const noexcept override { return transfers->draining(); }
  bool shutting_down() const noexcept override { return false; }

  // RoomHost
  void connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) override {
    auto inbox = std::make_shared<BotInbox>();
    house_bot->attach(inbox);
    bot.inbox = inbox.get();
    bot_inboxes_.push_back(inbox);
  }
  void took_seat(LobbyPlayer&) override {}
  void forget(SeatId player) override {
    if (LobbyPlayer* held = players_.get(player)) rooms->release_seat(*held);
    rooms->drop_bot(player);
    players_.erase(player);
  }
  void round_may_be_over(GameRoom& room) override { transfers->round_may_be_over(room); }

  // QuickMatchHost
  std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                      LobbyPlayer* player, const MatchRequest& rules,
                                      std::uint32_t request_id) override {
    return rooms->open_pair(waiting, waiting_rated, player, rules, request_id);
  }
  void send_to_seat(LobbyPlayer&, const NodeInfo&, const std::string&, GameId,
                    const std::string&) override {}
  bool bot_free_for(const LobbyPlayer&) override { return false; }
  void play_bot(LobbyPlayer& player, const MatchRequest& rules) override {
    rooms->play_bot(player, rules);
  }

  LobbyPlayer* player_of(SeatId id) override { return players_.get(id); }

  std::vector<SeatId> handed_off;

 private:
  PlayerTable& players_;
  std::map<SeatId, std::shared_ptr<FakeRoutedConnection>> connections_;
  std::vector<std::shared_ptr<FakeRoutedConnection>> dropped_;
  std::vector<std::shared_ptr<BotInbox>> bot_inboxes_;
};

MatchRequest rules(int size) {
  MatchRequest request;
  request.size = size;
  request.win_length = size;
  return request;
}

const wire::ServerMessage* redirect_of(const FakeParticipant& peer) {
  return peer.last([](const wire::ServerMessage& m) { return m.has_redirect(); });
}

class NodeTransfersTest : public ::testing::Test {
 protected:
  NodeTransfersTest() {
    lobby_.rooms = &rooms_;
    lobby_.desk = &desk_;
    lobby_.transfers = &transfers_;
  }

  // A person with an account, online on a connection of its own, with a
  // resume token issued here.
  LobbyPlayer& person(const std::string& name) {
    StoredPlayer account;
    account.name = name;
    const AccountId id = account_id(accounts_.create(std::move(account)));
    auto player = std::make_unique<LobbyPlayer>();
    player->id = seat_of(id);
    player->account = id;
    player->name = name;
    player->key = name;
    player->address = "192.0.2." + std::to_string(number(id));
    LobbyPlayer& added = players_.add(std::move(player));
    lobby_.connect(added);
    desk_.tokens().issue(added.id, id);
    return added;
  }
  FakeParticipant& peer(const LobbyPlayer& player) {
    auto* connection = static_cast<FakeRoutedConnection*>(lobby_.connection_of(player));
    EXPECT_NE(connection, nullptr) << player.name << " is connected";
    return *connection->peer;
  }
  // The tokens held for `account` so far, by where they were held ("": here).
  std::vector<std::string> held_for(AccountId account) const {
    std::vector<std::string> where;
    for (const auto& held : cluster_.held) {
      if (held.account == account) where.push_back(held.to);
    }
    return where;
  }
  // What the logic executor has ready runs now (and what it posts).
  void run() {
    io_.restart();
    io_.poll();
  }
  // Every check of holdings asked (and asked again meanwhile) is answered:
  // the records are held as `holders` says.
  void answer_checks(const std::map<RecordId, std::string>& holders) {
    for (int i = 0; i < 10 && !holders_.checks.empty(); ++i) {
      auto asked = std::move(holders_.checks.front());
      holders_.checks.pop_front();
      asked.second(holders);
      run();
    }
    EXPECT_TRUE(holders_.checks.empty());
  }

  // The test's thread runs the lobby's executor, as the server's logic
  // thread would (the sanitizer build checks).
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  MemoryAccounts accounts_;
  InstantJournal journal_;
  LocalGameDirectory directory_;
  LogLimiter log_;
  TwoNodes cluster_;
  FakeGameHolders holders_;
  LocalMatchmaker matchmaker_;
  PlayerTable players_;
  FakeLobby lobby_{players_};
  InviteCodes invites_{directory_, lobby_, InviteLimits{}};
  RoomRegistry rooms_ =
      RoomRegistry(io_.get_executor(), io_.get_executor(), accounts_, journal_, directory_, log_,
                   nullptr, players_, invites_, lobby_, RoomTerms{});
  HelloDesk desk_{accounts_, cluster_, log_, HelloLimits{},
                  [this](SeatId seat) { return players_.contains(seat); }};
  NodeRouter router_{io_.get_executor(), cluster_, accounts_, desk_, lobby_, RoutingLimits{}};
  QuickMatch quick_match_{io_.get_executor(), matchmaker_, cluster_, lobby_, milliseconds(0)};
  NodeTransfers transfers_ = NodeTransfers(
      io_.get_executor(), rooms_, players_, desk_, router_, quick_match_, accounts_, cluster_,
      holders_, lobby_, TransferTerms{milliseconds(3'600'000), milliseconds(60'000)});
};

// --- a game taken over -------------------------------------------------------------

TEST_F(NodeTransfersTest, AGameTakenOverComesBackWithItsPlayersAwayAndTheirTokensHeldHere) {
  StoredPlayer carol;
  carol.id = 40;
  carol.name = "carol";
  StoredPlayer dave;
  dave.id = 41;
  dave.name = "dave";
  ClaimedGame claimed;
  claimed.game.id = 70;
  claimed.game.room_id = 12;
  claimed.game.size = 3;
  claimed.game.win_length = 3;
  claimed.game.x_player = carol.id;
  claimed.game.o_player = dave.id;
  claimed.game.x_name = "carol";
  claimed.game.o_name = "dave";
  claimed.game.moves = {StoredMove{1, 1, 0}};
  claimed.players = {carol, dave};
  claimed.token_hashes = {"carols-hash", "daves-hash"};

  transfers_.holdings().adopt_games_of(AccountId{40}, [](const auto&) {});
  ASSERT_EQ(holders_.games_asked.size(), 1u);
  HeldGame held;
  held.game = claimed.game;
  held.game.node = "dead";
  holders_.games_asked[0].second(std::vector<HeldGame>{held});
  ASSERT_EQ(holders_.claims.size(), 1u);
  holders_.claims[0].done(claimed);

  EXPECT_EQ(accounts_.kept, (std::vector<std::string>{"carol", "dave"}))
      << "the accounts as the records hold them, before the game comes back";
  auto room = rooms_.find(GameId{12});
  ASSERT_NE(room, nullptr);
  EXPECT_TRUE(room->in_progress());
  EXPECT_EQ(rooms_.by_record(RecordId{70}), room);
  for (const AccountId id : {AccountId{40}, AccountId{41}}) {
    const LobbyPlayer* player = players_.get(seat_of(id));
    ASSERT_NE(player, nullptr);
    EXPECT_EQ(player->room, room);
    EXPECT_EQ(lobby_.connection_of(*player), nullptr) << "away until it comes back";
    EXPECT_EQ(held_for(id), std::vector<std::string>{""}) << "its token held here";
  }
  EXPECT_EQ(desk_.tokens().hash_of(seat_of(AccountId{40})), "carols-hash");
  EXPECT_EQ(desk_.tokens().hash_of(seat_of(AccountId{41})), "daves-hash");
  EXPECT_EQ(transfers_.holdings().adopted(), 1u);
}

TEST_F(NodeTransfersTest, AGameThatCannotBeRestoredIsNotTakenOver) {
  ClaimedGame claimed;
  claimed.game.id = 70;
  claimed.game.room_id = 12;
  claimed.game.size = 3;
  claimed.game.win_length = 3;
  claimed.game.x_player = 998;  // nobody this node or the claim knows
  claimed.game.o_player = 999;

  transfers_.holdings().adopt_games_of(AccountId{998}, [](const auto&) {});
  HeldGame held;
  held.game = claimed.game;
  holders_.games_asked[0].second(std::vector<HeldGame>{held});
  holders_.claims[0].done(claimed);

  EXPECT_EQ(transfers_.holdings().adopted(), 0u);
  EXPECT_TRUE(cluster_.held.empty()) << "no token held for a game not taken over";
  EXPECT_EQ(desk_.tokens().size(), 0u);
}

// --- a game lost to another node ---------------------------------------------------

TEST_F(NodeTransfersTest, ALostGameSendsItsPlayersToTheNodeThatHoldsItNow) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob");
  const SeatId alice_id = alice.id;
  auto room = rooms_.open_pair(alice, wire::RATED_DEFAULT, &bob, rules(3), 0);
  const RecordId record = room->record_id();
  ASSERT_NE(record, RecordId{});
  FakeParticipant& alices = peer(alice);

  transfers_.holdings().lost(record, "b");

  const auto* redirect = redirect_of(alices);
  ASSERT_NE(redirect, nullptr);
  EXPECT_EQ(redirect->redirect().host(), "127.0.0.2");
  EXPECT_NE(redirect->redirect().reason().find("held by node"), std::string::npos)
      << redirect->redirect().reason();
  EXPECT_EQ(held_for(AccountId{number(alice_id)}), std::vector<std::string>{"b"})
      << "its token is held there now";
  EXPECT_EQ(lobby_.handed_off.size(), 2u);
  EXPECT_EQ(players_.get(alice_id), nullptr);
  EXPECT_EQ(rooms_.find(room->id()), nullptr);
  EXPECT_TRUE(room->lost());
  EXPECT_EQ(transfers_.holdings().lost_count(), 1u);
}

TEST_F(NodeTransfersTest, AGameOverElsewhereTellsItsPlayersItWentOnWithoutThem) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob");
  auto room = rooms_.open_pair(alice, wire::RATED_DEFAULT, &bob, rules(3), 0);

  transfers_.holdings().lost(room->record_id(), "");

  for (LobbyPlayer* player : {&alice, &bob}) {
    EXPECT_EQ(players_.get(player->id), player) << "it stays here, out of the game";
    EXPECT_EQ(player->room, nullptr);
    EXPECT_FALSE(player->holds_quota);
    FakeParticipant& told = peer(*player);
    const auto* left = told.last([](const wire::ServerMessage& m) { return m.has_left(); });
    ASSERT_NE(left, nullptr);
    EXPECT_EQ(left->left().game_id(), number(room->id()));
    ASSERT_NE(told.last_error(), nullptr);
    EXPECT_EQ(told.last_error()->error().code(), wire::ERROR_CODE_UNKNOWN_GAME);
    EXPECT_EQ(redirect_of(told), nullptr);
  }
  EXPECT_TRUE(lobby_.handed_off.empty());
  EXPECT_EQ(rooms_.find(room->id()), nullptr);
}

TEST_F(NodeTransfersTest, ALostGamesAwayPlayerIsForgottenWithItsTokenAndItsBotDropped) {
  LobbyPlayer& alice = person("alice");
  const SeatId alice_id = alice.id;
  rooms_.play_bot(alice, rules(3));
  auto room = alice.room;
  ASSERT_NE(room, nullptr);
  ASSERT_EQ(rooms_.bots(), 1u);
  lobby_.disconnect(alice);
  room->away(alice_id);

  transfers_.holdings().lost(room->record_id(), "b");

  EXPECT_EQ(players_.get(alice_id), nullptr) << "the game's holder has the player now";
  EXPECT_EQ(desk_.tokens().hash_of(alice_id), std::nullopt) << "forgotten, not revoked";
  EXPECT_TRUE(cluster_.held.empty()) << "its token is the holder's to hold";
  EXPECT_EQ(rooms_.bots(), 0u);
  EXPECT_EQ(players_.size(), 0u) << "the bot is gone too";
  EXPECT_EQ(rooms_.find(room->id()), nullptr);
}

TEST_F(NodeTransfersTest, AGameNotHereIsNotLost) {
  transfers_.holdings().lost(RecordId{404}, "b");
  EXPECT_EQ(transfers_.holdings().lost_count(), 0u);
}

// --- a player another node holds ---------------------------------------------------

TEST_F(NodeTransfersTest, APlayerHeldElsewhereGoesThereOnceCheckedUnlessItPlaysHere) {
  LobbyPlayer& alice = person("alice");  // in the lobby
  LobbyPlayer& bob = person("bob");
  LobbyPlayer& carol = person("carol");
  const SeatId alice_id = alice.id;
  auto room = rooms_.open_pair(bob, wire::RATED_DEFAULT, &carol, rules(3), 0);
  FakeParticipant& alices = peer(alice);
  FakeParticipant& bobs = peer(bob);

  transfers_.held_elsewhere(alice.account, "b");
  transfers_.held_elsewhere(bob.account, "b");

  ASSERT_EQ(holders_.checks.size(), 1u) << "this node may have looked dead: it checks first";
  EXPECT_EQ(holders_.checks[0].first, std::vector<RecordId>{room->record_id()});
  EXPECT_EQ(redirect_of(alices), nullptr) << "not before the check is done";
  answer_checks({{room->record_id(), "a"}});

  const auto* redirect = redirect_of(alices);
  ASSERT_NE(redirect, nullptr);
  EXPECT_NE(redirect->redirect().reason().find("your player is at node"), std::string::npos);
  EXPECT_EQ(redirect_of(bobs), nullptr) << "its game is this node's: it stays with it";
  EXPECT_EQ(bob.room, room);
  EXPECT_EQ(lobby_.handed_off, std::vector<SeatId>{alice_id});
}

TEST_F(NodeTransfersTest, APlayerHeldElsewhereAtAnUnknownNodeStays) {
  LobbyPlayer& alice = person("alice");
  transfers_.held_elsewhere(alice.account, "gone");
  ASSERT_EQ(holders_.checks.size(), 1u);
  answer_checks({});
  EXPECT_EQ(redirect_of(peer(alice)), nullptr);
  EXPECT_TRUE(lobby_.handed_off.empty());
}

// --- the shared state is back ------------------------------------------------------

TEST_F(NodeTransfersTest, EveryPlayerHeldHereIsRegisteredAgainWithItsToken) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob");
  rooms_.play_bot(bob, rules(3));  // a bot too, which holds no token
  const std::string alices_hash = *desk_.tokens().hash_of(alice.id);

  transfers_.register_again(false);

  EXPECT_EQ(accounts_.figures_refreshed, 1) << "the results other nodes committed meanwhile";
  ASSERT_EQ(cluster_.held.size(), 2u) << "one for each person, none for the bot";
  EXPECT_EQ(held_for(alice.account), std::vector<std::string>{""});
  EXPECT_EQ(held_for(bob.account), std::vector<std::string>{""});
  for (const auto& held : cluster_.held) {
    if (held.account == alice.account) {
      EXPECT_EQ(held.hash, alices_hash);
    }
  }
  EXPECT_TRUE(holders_.checks.empty());

  // Another live node holds alice now: this node checks, then sends her there.
  for (auto& held : cluster_.held) {
    if (held.account == alice.account) held.done("b");
  }
  ASSERT_EQ(holders_.checks.size(), 1u);
  const SeatId alice_id = alice.id;
  answer_checks({{bob.room->record_id(), "a"}});
  EXPECT_EQ(lobby_.handed_off, std::vector<SeatId>{alice_id});
}

// --- the drain ---------------------------------------------------------------------

TEST_F(NodeTransfersTest, TheDrainSendsPlayersOutOfAGameAwayAndKeepsThosePlaying) {
  LobbyPlayer& alice = person("alice");  // in the lobby
  LobbyPlayer& bob = person("bob");
  LobbyPlayer& carol = person("carol");
  LobbyPlayer& dave = person("dave");  // watching bob and carol
  auto room = rooms_.open_pair(bob, wire::RATED_DEFAULT, &carol, rules(3), 0);
  dave.room = room;
  room->watch(dave.ref(), 0);
  ASSERT_EQ(room->spectators(), 1u);
  FakeParticipant& alices = peer(alice);
  FakeParticipant& bobs = peer(bob);
  FakeParticipant& carols = peer(carol);
  FakeParticipant& daves = peer(dave);

  transfers_.drain();

  EXPECT_TRUE(transfers_.draining());
  EXPECT_TRUE(cluster_.draining) << "the others send this node nobody";
  for (FakeParticipant* sent : {&alices, &daves}) {
    const auto* redirect = redirect_of(*sent);
    ASSERT_NE(redirect, nullptr);
    EXPECT_EQ(redirect->redirect().reason(), "this node is being drained");
  }
  EXPECT_EQ(redirect_of(bobs), nullptr);
  EXPECT_EQ(redirect_of(carols), nullptr);
  EXPECT_EQ(room->spectators(), 0u);

  // The game ends: once its last words are said, its players go too.
  room->resign(bob.id, 0);
  run();
  EXPECT_NE(redirect_of(bobs), nullptr);
  EXPECT_NE(redirect_of(carols), nullptr);
  EXPECT_EQ(lobby_.handed_off.size(), 4u);
}

TEST_F(NodeTransfersTest, AGameOverWithoutADrainKeepsItsPlayers) {
  LobbyPlayer& bob = person("bob");
  LobbyPlayer& carol = person("carol");
  auto room = rooms_.open_pair(bob, wire::RATED_DEFAULT, &carol, rules(3), 0);
  room->resign(bob.id, 0);
  run();
  EXPECT_EQ(redirect_of(peer(bob)), nullptr);
  EXPECT_TRUE(lobby_.handed_off.empty());
}

TEST_F(NodeTransfersTest, TheDrainsEndHandsEveryPlayerOverWithItsTokenHeldThere) {
  LobbyPlayer& alice = person("alice");
  LobbyPlayer& bob = person("bob");
  LobbyPlayer& carol = person("carol");
  auto room = rooms_.open_pair(bob, wire::RATED_DEFAULT, &carol, rules(3), 0);
  rooms_.play_bot(alice, rules(3));  // a game against the bot, whose bot stays
  std::map<SeatId, std::string> hashes;
  std::map<SeatId, FakeParticipant*> peers;
  for (LobbyPlayer* player : {&alice, &bob, &carol}) {
    hashes[player->id] = *desk_.tokens().hash_of(player->id);
    peers[player->id] = &peer(*player);
  }

  EXPECT_EQ(transfers_.hand_over(), 3u);

  EXPECT_TRUE(transfers_.holdings().frozen()) << "nothing more is taken from anyone";
  for (LobbyPlayer* player : {&alice, &bob, &carol}) {
    const auto* redirect = redirect_of(*peers[player->id]);
    ASSERT_NE(redirect, nullptr) << player->name;
    EXPECT_EQ(redirect->redirect().host(), "127.0.0.2");
    EXPECT_TRUE(peers[player->id]->closed);
    EXPECT_EQ(held_for(player->account), std::vector<std::string>{"b"});
    EXPECT_EQ(desk_.tokens().hash_of(player->id), std::nullopt) << "its token is there now";
    EXPECT_EQ(lobby_.connection_of(*player), nullptr) << "off its connection";
  }
  for (const auto& held : cluster_.held) EXPECT_EQ(held.hash, hashes[seat_of(held.account)]);
  EXPECT_TRUE(room->in_progress()) << "its game goes on where its players went";
  EXPECT_TRUE(lobby_.handed_off.empty()) << "players stay, away: their games were let go";
}

TEST_F(NodeTransfersTest, TheDrainsEndSendsNobodyWhenNoOtherNodeTakesPlayers) {
  testing::QuietCluster alone;  // no other node
  FakeGameHolders holders;
  NodeTransfers transfers(io_.get_executor(), rooms_, players_, desk_, router_, quick_match_,
                          accounts_, alone, holders, lobby_, TransferTerms{});
  LobbyPlayer& alice = person("alice");
  EXPECT_EQ(transfers.hand_over(), 0u);
  EXPECT_EQ(redirect_of(peer(alice)), nullptr);
  EXPECT_NE(desk_.tokens().hash_of(alice.id), std::nullopt);
}

}  // namespace
}  // namespace ttt::server
