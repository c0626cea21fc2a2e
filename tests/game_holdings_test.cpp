// GameHoldings alone, with a fake lobby and fake game holders: a player's
// games of a dead node are claimed and taken over here, those a live node
// holds send the player there, orphans are claimed only when a second sweep
// still finds them, the check of holdings drops the games another node holds
// now and runs what waited for it; and a node alone, with the single-node
// holders, has nothing to take over and loses nothing.
#include "lobby/game_holdings.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <set>

#include "support/fake_game_holders.hpp"
#include "support/quiet_cluster.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::FakeGameHolders;

// A game's record and room, written as numbers: 40_rec, 4_room.
constexpr RecordId operator""_rec(unsigned long long n) {
  return RecordId{static_cast<std::int64_t>(n)};
}
constexpr GameId operator""_room(unsigned long long n) { return GameId{n}; }

// The lobby as GameHoldings sees it: its rooms, by room and record.
class FakeLobby : public HoldingsHost {
 public:
  bool has_room(GameId room) const override { return rooms.contains(room); }
  std::vector<RecordId> records_here(bool in_progress_only) const override {
    std::vector<RecordId> records;
    for (const auto& [room, record] : rooms) {
      if (!in_progress_only || !finished.contains(room)) records.push_back(record);
    }
    return records;
  }
  bool take_over(const ClaimedGame& claimed, const std::string& from) override {
    taken.emplace_back(RecordId{claimed.game.id}, from);
    if (refuse_take_over) return false;
    rooms[static_cast<GameId>(claimed.game.room_id)] = RecordId{claimed.game.id};
    return true;
  }
  bool drop_game(RecordId record, const std::string& holder) override {
    for (auto it = rooms.begin(); it != rooms.end(); ++it) {
      if (it->second != record) continue;
      dropped.emplace_back(record, holder);
      rooms.erase(it);
      return true;
    }
    return false;
  }

  std::map<GameId, RecordId> rooms;  // room -> record
  std::set<GameId> finished;
  std::vector<std::pair<RecordId, std::string>> taken;  // record, from
  std::vector<std::pair<RecordId, std::string>> dropped;
  bool refuse_take_over = false;
};

// This node "a" and a live node "b"; "dead" is known to nobody.
class TwoNodes : public ttt::testing::TwoNodeCluster {
 public:
  std::vector<std::string> live_nodes() const override { return {"a", "b"}; }
  std::optional<NodeInfo> another_node() const override { return other_; }
  void set_draining(bool on) override { draining = on; }

  bool draining = false;
};

HeldGame held(RecordId id, GameId room, const std::string& node) {
  HeldGame game;
  game.game.id = number(id);
  game.game.room_id = static_cast<std::int64_t>(room);
  game.game.node = node;
  return game;
}

ClaimedGame claimed(RecordId id, GameId room) {
  ClaimedGame game;
  game.game.id = number(id);
  game.game.room_id = static_cast<std::int64_t>(room);
  return game;
}

class GameHoldingsTest : public ::testing::Test {
 protected:
  boost::asio::io_context io_;
  FakeLobby lobby_;
  FakeGameHolders holders_;
  TwoNodes nodes_;
  GameHoldings holdings_{io_.get_executor(), holders_, nodes_, lobby_, milliseconds(60'000)};
  std::vector<std::optional<NodeInfo>> answers_;
  GameHoldings::Adopted answer() {
    return [this](const std::optional<NodeInfo>& elsewhere) { answers_.push_back(elsewhere); };
  }
};

TEST_F(GameHoldingsTest, GamesOfADeadNodeAreClaimedAndTakenOverHere) {
  holdings_.adopt_games_of(AccountId{5}, answer());
  ASSERT_EQ(holders_.games_asked.size(), 1u);
  EXPECT_EQ(holders_.games_asked[0].first, AccountId{5});
  holders_.games_asked[0].second(
      std::vector<HeldGame>{held(40_rec, 4_room, "dead"), held(41_rec, 6_room, "")});
  ASSERT_EQ(holders_.claims.size(), 2u);
  EXPECT_EQ(holders_.claims[0].from, "dead");
  EXPECT_EQ(holders_.claims[1].from, "");
  holders_.claims[0].done(claimed(40_rec, 4_room));
  EXPECT_TRUE(answers_.empty());  // one claim still open
  holders_.claims[1].done(claimed(41_rec, 6_room));
  ASSERT_EQ(answers_.size(), 1u);
  EXPECT_FALSE(answers_[0]);
  EXPECT_EQ(lobby_.taken.size(), 2u);
  EXPECT_EQ(holdings_.adopted(), 2u);
}

TEST_F(GameHoldingsTest, GameOfALiveNodeSendsThePlayerThere) {
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::vector<HeldGame>{held(40_rec, 4_room, "b")});
  EXPECT_TRUE(holders_.claims.empty());
  ASSERT_EQ(answers_.size(), 1u);
  ASSERT_TRUE(answers_[0]);
  EXPECT_EQ(answers_[0]->id, "b");
}

TEST_F(GameHoldingsTest, NodeStillBeatingInTheDatabaseKeepsItsGame) {
  HeldGame game = held(40_rec, 4_room, "cut-off");
  game.holder = NodeInfo{"cut-off", "127.0.0.3", 1, "", false};
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::vector<HeldGame>{game});
  EXPECT_TRUE(holders_.claims.empty());
  ASSERT_EQ(answers_.size(), 1u);
  ASSERT_TRUE(answers_[0]);
  EXPECT_EQ(answers_[0]->id, "cut-off");
}

TEST_F(GameHoldingsTest, GameHeldHereIsNeverClaimedAgain) {
  lobby_.rooms[4_room] = 40_rec;
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::vector<HeldGame>{held(40_rec, 4_room, "a")});
  EXPECT_TRUE(holders_.claims.empty());
  ASSERT_EQ(answers_.size(), 1u);
  EXPECT_FALSE(answers_[0]);
}

TEST_F(GameHoldingsTest, ClaimLostToAnotherNodeSendsThePlayerWhereTheGameIsNow) {
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::vector<HeldGame>{held(40_rec, 4_room, "dead")});
  holders_.claims[0].done(std::nullopt);
  // A second look, which claims nothing more.
  ASSERT_EQ(holders_.games_asked.size(), 2u);
  holders_.games_asked[1].second(std::vector<HeldGame>{held(40_rec, 4_room, "b")});
  EXPECT_EQ(holders_.claims.size(), 1u);
  ASSERT_EQ(answers_.size(), 1u);
  ASSERT_TRUE(answers_[0]);
  EXPECT_EQ(answers_[0]->id, "b");
  EXPECT_EQ(holdings_.adopted(), 0u);
}

TEST_F(GameHoldingsTest, UnreadableGamesTakeNothingOver) {
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::nullopt);
  ASSERT_EQ(answers_.size(), 1u);
  EXPECT_FALSE(answers_[0]);
  EXPECT_TRUE(holders_.claims.empty());
}

TEST_F(GameHoldingsTest, GameThatCantBeRestoredIsNotCountedAsAdopted) {
  lobby_.refuse_take_over = true;
  holdings_.adopt_games_of(AccountId{5}, answer());
  holders_.games_asked[0].second(std::vector<HeldGame>{held(40_rec, 4_room, "dead")});
  holders_.claims[0].done(claimed(40_rec, 4_room));
  EXPECT_EQ(lobby_.taken.size(), 1u);
  EXPECT_EQ(holdings_.adopted(), 0u);
}

TEST_F(GameHoldingsTest, OrphanIsClaimedOnlyWhenTheNextSweepStillFindsIt) {
  holdings_.sweep_orphans();
  ASSERT_EQ(holders_.orphans_asked.size(), 1u);
  holders_.orphans_asked[0]({{40_rec, "dead"}, {41_rec, "dead"}});
  EXPECT_TRUE(holders_.claims.empty());
  holdings_.sweep_orphans();
  // Someone came back for 41 meanwhile: only 40 is still an orphan.
  holders_.orphans_asked[1]({{40_rec, "dead"}});
  ASSERT_EQ(holders_.claims.size(), 1u);
  EXPECT_EQ(holders_.claims[0].game, 40_rec);
  holders_.claims[0].done(claimed(40_rec, 4_room));
  EXPECT_EQ(holdings_.adopted(), 1u);
}

TEST_F(GameHoldingsTest, CheckDropsTheGamesAnotherNodeHoldsNow) {
  lobby_.rooms = {{1_room, 10_rec}, {2_room, 20_rec}, {3_room, 30_rec}};
  lobby_.finished = {3_room};
  holdings_.check();
  ASSERT_EQ(holders_.checks.size(), 1u);
  EXPECT_EQ(holders_.checks[0].first, (std::vector<RecordId>{10_rec, 20_rec}));  // in progress only
  EXPECT_TRUE(holdings_.checking());
  holders_.checks[0].second(std::map<RecordId, std::string>{{10_rec, "a"}, {20_rec, "b"}});
  EXPECT_FALSE(holdings_.checking());
  ASSERT_EQ(lobby_.dropped.size(), 1u);
  EXPECT_EQ(lobby_.dropped[0], (std::pair<RecordId, std::string>{20_rec, "b"}));
  EXPECT_EQ(holdings_.lost_count(), 1u);
}

TEST_F(GameHoldingsTest, WhatWaitsForTheCheckRunsOnceItIsAnswered) {
  lobby_.rooms = {{1_room, 10_rec}};
  holdings_.check();
  int ran = 0;
  holdings_.after_check([&] { ++ran; });
  holdings_.after_check([&] { ++ran; });
  EXPECT_EQ(holdings_.waiting_for_check(), 2u);
  EXPECT_EQ(ran, 0);
  holders_.checks[0].second(std::map<RecordId, std::string>{{10_rec, "a"}});
  EXPECT_EQ(ran, 2);
  EXPECT_EQ(holdings_.waiting_for_check(), 0u);
}

TEST_F(GameHoldingsTest, UnansweredCheckIsAskedAgainAndWaitingGoesOn) {
  lobby_.rooms = {{1_room, 10_rec}};
  holdings_.check();
  int ran = 0;
  holdings_.after_check([&] { ++ran; });
  holders_.checks[0].second(std::nullopt);
  EXPECT_EQ(ran, 0);
  io_.run();  // the check is asked again
  ASSERT_EQ(holders_.checks.size(), 2u);
  holders_.checks[1].second(std::map<RecordId, std::string>{{10_rec, "a"}});
  EXPECT_EQ(ran, 1);
  EXPECT_TRUE(lobby_.dropped.empty());
}

TEST_F(GameHoldingsTest, WriteRefusedDropsTheGameOnce) {
  lobby_.rooms = {{1_room, 10_rec}};
  holdings_.lost(10_rec, "b");
  holdings_.lost(10_rec, "b");
  EXPECT_EQ(lobby_.dropped.size(), 1u);
  EXPECT_EQ(holdings_.lost_count(), 1u);
}

TEST_F(GameHoldingsTest, HeartbeatBeatsInTheDatabaseUntilTheGamesAreLetGo) {
  holdings_.keep_fence();
  ASSERT_EQ(holders_.beats.size(), 1u);
  holdings_.keep_fence();  // one beat at a time
  EXPECT_EQ(holders_.beats.size(), 1u);
  holders_.beats[0](true, std::chrono::steady_clock::now());
  holdings_.freeze();
  holdings_.keep_fence();
  EXPECT_EQ(holders_.beats.size(), 1u);
  EXPECT_TRUE(holders_.checks.empty());  // both beats fresh: nothing to check
}

TEST_F(GameHoldingsTest, DrainingNodeTellsTheOthersAndTakesNoOrphans) {
  holdings_.sweep_orphans();
  holders_.orphans_asked[0]({{40_rec, "dead"}});
  holdings_.drain();
  EXPECT_TRUE(holdings_.draining());
  EXPECT_TRUE(nodes_.draining);
  holdings_.sweep_orphans();
  EXPECT_EQ(holders_.orphans_asked.size(), 1u);
  EXPECT_TRUE(holders_.claims.empty());
}

TEST(GameHoldingsAlone, NodeAloneHasNothingToTakeOverAndLosesNothing) {
  boost::asio::io_context io;
  SingleNode node;
  SingleNodeHolders holders(node);
  FakeLobby lobby;
  lobby.rooms = {{1_room, 10_rec}, {2_room, 20_rec}};
  GameHoldings holdings(io.get_executor(), holders, node, lobby, milliseconds(1));
  std::vector<std::optional<NodeInfo>> answers;
  holdings.adopt_games_of(AccountId{5},
                          [&](const auto& elsewhere) { answers.push_back(elsewhere); });
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_FALSE(answers[0]);
  holdings.sweep_orphans();
  holdings.keep_fence();
  holdings.check();
  io.run();
  EXPECT_FALSE(holdings.checking());
  EXPECT_TRUE(lobby.taken.empty());
  EXPECT_TRUE(lobby.dropped.empty());
  EXPECT_EQ(holdings.adopted(), 0u);
  EXPECT_EQ(holdings.lost_count(), 0u);
}

}  // namespace
}  // namespace ttt::server
