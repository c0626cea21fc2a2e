// The nodes' shared state against a real redis-server of the test's own:
// the hiredis adapter (commands, errors, a lost and a stopped Redis), the
// node registry, the shared quick-match queues and the shared game list.
#include <gtest/gtest.h>
#include <openssl/hmac.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <thread>
#include <vector>

#include "client_support/client_programs.hpp"
#include "client_support/redis_scratch.hpp"
#include "game/rating.hpp"
#include "lobby/text_rules.hpp"
#include "node.pb.h"
#include "redis/node_signer.hpp"
#include "redis/redis_client.hpp"
#include "redis/redis_cluster.hpp"
#include "redis/shared_directory.hpp"
#include "redis/shared_matchmaker.hpp"
#include "support/run_until.hpp"

namespace ttt::testing {
namespace {

using namespace std::chrono_literals;
using server::AccountId;
using server::MatchOutcome;
using server::MatchRequest;
using server::NodeInfo;
using server::SeatId;
using server::redis::RedisClient;
using server::redis::RedisCluster;
using server::redis::RedisResult;
using server::redis::SharedGameDirectory;
using server::redis::SharedMatchmaker;

class Cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    TTT_NEED_REDIS();
    redis_ = std::make_unique<RedisScratch>();
  }

  server::redis::RedisAddress address() const {
    std::string error;
    return *server::redis::parse_redis_address(redis_->address(), error);
  }

  // Runs the io_context until pred holds (true) or the time is up (false).
  bool run_until(const std::function<bool()>& pred, std::chrono::milliseconds limit = 5s) {
    return testing::run_until(io_, pred, limit);
  }

  // One command, its answer waited for.
  RedisResult ask(RedisClient& client, std::vector<std::string> args) {
    std::optional<RedisResult> answer;
    client.command(std::move(args), [&](const RedisResult& r) { answer = r; });
    EXPECT_TRUE(run_until([&] { return answer.has_value(); }));
    return answer.value_or(RedisResult{});
  }

  std::shared_ptr<RedisClient> client(RedisClient::Options options = {}) {
    auto c = std::make_shared<RedisClient>(io_.get_executor(), address(), options);
    c->start();
    EXPECT_TRUE(run_until([&] { return c->up(); }));
    return c;
  }

  std::unique_ptr<RedisCluster> node(const std::string& id, std::uint16_t port,
                                     const std::string& key = "",
                                     server::redis::NodeTimings timings = {}) {
    NodeInfo self;
    self.id = id;
    self.host = "127.0.0.1";
    self.port = port;
    auto n = std::make_unique<RedisCluster>(io_.get_executor(), address(), self, timings,
                                            server::redis::NodeSigner(key));
    return n;
  }

  // hold() asked and answered: "" held, else the node that holds the player.
  std::string hold(RedisCluster& at, std::uint64_t account, const std::string& token,
                   const std::string& to = "") {
    std::optional<std::string> answer;
    at.hold(AccountId{account}, token, 60s, to,
            [&](const std::string& elsewhere) { answer = elsewhere; });
    EXPECT_TRUE(run_until([&] { return answer.has_value(); }));
    return answer.value_or("(no answer)");
  }

  boost::asio::io_context io_;
  std::unique_ptr<RedisScratch> redis_;
};

TEST(RedisAddress, ParsesHostAndPortAndNamesWhatIsWrong) {
  std::string error;
  auto a = server::redis::parse_redis_address("db1:6380", error);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "db1");
  EXPECT_EQ(a->port, 6380);
  a = server::redis::parse_redis_address("localhost", error);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->port, 6379);
  a = server::redis::parse_redis_address("[::1]:7000", error);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->text(), "[::1]:7000");
  for (const char* bad : {"", ":6379", "db1:", "db1:0", "db1:65536", "db1:12x", "[::1", "[::1]x"}) {
    error.clear();
    EXPECT_FALSE(server::redis::parse_redis_address(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(RedisAddress, ReadsUrlsWithAUserAPasswordAndTlsAndNeverShowsThePassword) {
  std::string error;
  ::unsetenv("TTT_REDIS_PASSWORD");
  auto a = server::redis::parse_redis_address("rediss://ttt:p%40ss%3Aw@db1:6390", error);
  ASSERT_TRUE(a) << error;
  EXPECT_TRUE(a->tls);
  EXPECT_EQ(a->user, "ttt");
  EXPECT_EQ(a->password, "p@ss:w");
  EXPECT_EQ(a->host, "db1");
  EXPECT_EQ(a->port, 6390);
  EXPECT_EQ(a->text(), "rediss://ttt@db1:6390");
  a = server::redis::parse_redis_address("redis://:only-a-password@[::1]/0", error);
  ASSERT_TRUE(a) << error;
  EXPECT_FALSE(a->tls);
  EXPECT_EQ(a->user, "");
  EXPECT_EQ(a->password, "only-a-password");
  EXPECT_EQ(a->port, 6379);
  EXPECT_EQ(a->text(), "[::1]:6379");
  ::setenv("TTT_REDIS_PASSWORD", "from-env", 1);
  a = server::redis::parse_redis_address("redis://ttt@db1", error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->password, "from-env");
  ::unsetenv("TTT_REDIS_PASSWORD");
  EXPECT_FALSE(server::redis::parse_redis_address("redis://ttt@db1", error));
  EXPECT_NE(error.find("needs a password"), std::string::npos) << error;
  EXPECT_FALSE(server::redis::parse_redis_address("http://db1", error));
  EXPECT_NE(error.find("no Redis URL"), std::string::npos) << error;
  EXPECT_FALSE(server::redis::parse_redis_address("redis://db1/3", error));
  EXPECT_NE(error.find("database 0"), std::string::npos) << error;
  EXPECT_FALSE(server::redis::parse_redis_address("redis://u:%zz@db1", error));
  EXPECT_NE(error.find("%-escape"), std::string::npos) << error;
}

TEST_F(Cluster, CommandsAreAnsweredInOrderBinarySafeAndErrorsAreReplies) {
  auto c = client();
  const std::string binary("a\0b\r\n\xff", 6);
  EXPECT_TRUE(ask(*c, {"SET", "k", binary}).ok());
  auto got = ask(*c, {"GET", "k"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.value->text, binary);
  auto wrong = ask(*c, {"INCR", "k"});
  EXPECT_FALSE(wrong.ok());
  ASSERT_TRUE(wrong.value);
  EXPECT_TRUE(wrong.value->is_error());
  EXPECT_NE(wrong.why().find("not an integer"), std::string::npos) << wrong.why();
  auto nil = ask(*c, {"GET", "missing"});
  ASSERT_TRUE(nil.ok());
  EXPECT_TRUE(nil.value->is_nil());
  std::vector<int> order;
  for (int i = 0; i < 50; ++i) {
    c->command({"INCR", "n"}, [&order, i](const RedisResult& r) {
      if (r.ok() && r.value->integer == i + 1) order.push_back(i);
    });
  }
  EXPECT_TRUE(run_until([&] { return order.size() == 50; }));
}

TEST_F(Cluster, ALostRedisFailsCommandsAtOnceAndIsTakenUpAgainWhenBack) {
  auto c = client();
  std::vector<bool> states;
  c->on_state([&](bool up) { states.push_back(up); });
  redis_->stop();
  ASSERT_TRUE(run_until([&] { return !c->up(); }));
  const auto before = std::chrono::steady_clock::now();
  auto failed = ask(*c, {"PING"});
  EXPECT_FALSE(failed.ok());
  EXPECT_NE(failed.why().find("unreachable"), std::string::npos) << failed.why();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 1s) << "fails at once, no hang";
  redis_->start();
  ASSERT_TRUE(run_until([&] { return c->up(); }, 10s));
  EXPECT_TRUE(ask(*c, {"PING"}).ok());
  ASSERT_GE(states.size(), 2u);
  EXPECT_FALSE(states.front());
  EXPECT_TRUE(states.back());
}

TEST_F(Cluster, ARedisThatStopsAnsweringIsNoticedWithinTheCommandTimeout) {
  RedisClient::Options options;
  options.command_timeout = 600ms;
  auto c = client(options);
  redis_->pause();
  std::optional<RedisResult> answer;
  c->command({"PING"}, [&](const RedisResult& r) { answer = r; });
  EXPECT_TRUE(run_until([&] { return answer.has_value(); }, 3s)) << "no hang on a stopped Redis";
  ASSERT_TRUE(answer);
  EXPECT_FALSE(answer->ok());
  redis_->resume();
  EXPECT_TRUE(run_until([&] { return c->up(); }, 10s));
  EXPECT_TRUE(ask(*c, {"PING"}).ok());
}

TEST_F(Cluster, SubscribersGetEveryMessageAndSubscribeAgainAfterALoss) {
  auto sub = std::make_shared<RedisClient>(io_.get_executor(), address(), RedisClient::Options{});
  std::vector<std::string> got;
  sub->subscribe({"ch1", "ch2"}, [&](const std::string& channel, const std::string& payload) {
    got.push_back(channel + "=" + payload);
  });
  sub->start();
  ASSERT_TRUE(run_until([&] { return sub->up(); }));
  auto pub = client();
  ask(*pub, {"PUBLISH", "ch1", "a"});
  ask(*pub, {"PUBLISH", "ch2", "b"});
  ask(*pub, {"PUBLISH", "other", "c"});
  EXPECT_TRUE(run_until([&] { return got.size() == 2; }));
  redis_->stop();
  ASSERT_TRUE(run_until([&] { return !sub->up(); }));
  redis_->start();
  ASSERT_TRUE(run_until([&] { return sub->up() && pub->up(); }, 10s));
  ask(*pub, {"PUBLISH", "ch1", "again"});
  EXPECT_TRUE(run_until([&] { return got.size() == 3; }));
  EXPECT_EQ(got.back(), "ch1=again");
}

TEST_F(Cluster, NodesSeeEachOtherAndAStoppedNodeIsGoneAtOnceAfterLeaving) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  auto info = a->node("nodeb");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->port, 1002);
  ASSERT_TRUE(a->another_node());
  EXPECT_EQ(a->another_node()->id, "nodeb");
  bool left = false;
  b->leave([&] { left = true; });
  EXPECT_TRUE(run_until([&] { return left && !a->alive("nodeb"); }, 3s));
  EXPECT_FALSE(a->another_node());
}

TEST_F(Cluster, ANodeWhoseHeartbeatStopsIsGoneWithinFiveSeconds) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb"); }));
  const auto killed = std::chrono::steady_clock::now();
  b->close();  // as a SIGKILL: no goodbye, the heartbeat just stops
  ASSERT_TRUE(run_until([&] { return !a->alive("nodeb"); }, 8s));
  EXPECT_LT(std::chrono::steady_clock::now() - killed, 5s) << "the issue's bound";
}

TEST_F(Cluster, QuickMatchPairsAcrossNodesAtomicallyAndNeverWithOneself) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  SharedMatchmaker at_a(*a), at_b(*b);
  MatchRequest alice{SeatId{7}, AccountId{7}, "alice", false, "", 3, 3};
  std::optional<MatchOutcome> first;
  at_a.match(alice, [&](const MatchOutcome& o) { first = o; });
  ASSERT_TRUE(run_until([&] { return first.has_value(); }));
  EXPECT_TRUE(first->available);
  EXPECT_FALSE(first->paired) << "alice waits";
  // alice again, from node b (a second terminal): not paired with herself.
  MatchRequest alice_b{SeatId{7}, AccountId{7}, "alice", false, "", 3, 3};
  std::optional<MatchOutcome> self_pair;
  at_b.match(alice_b, [&](const MatchOutcome& o) { self_pair = o; });
  ASSERT_TRUE(run_until([&] { return self_pair.has_value(); }));
  EXPECT_FALSE(self_pair->paired);
  // Another size waits in its own queue; bob's size pairs with alice at b.
  MatchRequest bob{SeatId{9}, AccountId{9}, "bob", true, "", 3, 3};
  std::optional<MatchOutcome> paired;
  at_a.match(bob, [&](const MatchOutcome& o) { paired = o; });
  ASSERT_TRUE(run_until([&] { return paired.has_value(); }));
  ASSERT_TRUE(paired->paired);
  EXPECT_EQ(paired->paired->node, "nodeb");
  EXPECT_EQ(paired->paired->name, "alice");
  EXPECT_EQ(paired->paired->account, AccountId{7});
  // Alice's entry is gone: cancelling finds nothing (her pairing is on its way).
  std::optional<bool> cancelled;
  at_b.cancel(SeatId{7}, [&](bool was) { cancelled = was; });
  ASSERT_TRUE(run_until([&] { return cancelled.has_value(); }));
  EXPECT_FALSE(*cancelled);
}

TEST_F(Cluster, EntriesOfDeadNodesAndUnreadableEntriesArePassedOver) {
  auto a = node("nodea", 1001);
  a->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodea"); }));
  // A dead node's entry, and junk someone wrote into the queue.
  redis_->cli("RPUSH ttt:queue:3:3:0:0 \"gone\t5\t5\t0\t0\t3\t3\t0\t0\tghost\"");
  redis_->cli("RPUSH ttt:queue:3:3:0:0 junk");
  SharedMatchmaker at_a(*a);
  MatchRequest carol{SeatId{3}, AccountId{3}, "carol", false, "", 3, 3};
  std::optional<MatchOutcome> outcome;
  at_a.match(carol, [&](const MatchOutcome& o) { outcome = o; });
  ASSERT_TRUE(run_until([&] { return outcome.has_value(); }));
  EXPECT_TRUE(outcome->available);
  EXPECT_FALSE(outcome->paired) << "nobody alive waits: carol is queued";
  EXPECT_EQ(redis_->cli("LLEN ttt:queue:3:3:0:0"), "1");
  EXPECT_FALSE(server::redis::parse_queue_entry("a\tb\tc"));
  EXPECT_FALSE(server::redis::parse_queue_entry(std::string(100000, '\t')));
}

TEST_F(Cluster, TheGameListOfEveryNodeIsSeenByEveryOtherWithinASecond) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  SharedGameDirectory list_a(io_.get_executor(), *a), list_b(io_.get_executor(), *b);
  a->attach(&list_a);
  b->attach(&list_b);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea") && a->available(); }));
  server::Listing game;
  game.summary.set_game_id(42);
  game.summary.set_size(3);
  game.summary.set_x_name("alice");
  game.summary.set_status(wire::GAME_STATUS_WAITING);
  list_a.publish(game);
  server::ListQuery everything;
  const auto published = std::chrono::steady_clock::now();
  ASSERT_TRUE(run_until([&] { return list_b.list(everything).total == 1; }, 2s));
  EXPECT_LT(std::chrono::steady_clock::now() - published, 1s);
  const auto page = list_b.list(everything);
  ASSERT_EQ(page.games.size(), 1u);
  EXPECT_EQ(page.games[0].node(), "127.0.0.1:1001") << "where the game is held";
  ASSERT_TRUE(list_b.find(server::GameId{42}));
  EXPECT_EQ(list_b.find(server::GameId{42})->node, "nodea");
  // A node that comes later reads the whole list.
  auto c = node("nodec", 1003);
  SharedGameDirectory list_c(io_.get_executor(), *c);
  c->attach(&list_c);
  c->start();
  ASSERT_TRUE(run_until([&] { return list_c.list(everything).total == 1; }, 3s));
  list_a.withdraw(server::GameId{42});
  EXPECT_TRUE(run_until([&] { return list_b.list(everything).total == 0; }, 2s));
  // Junk on the directory's channel is dropped.
  redis_->cli("PUBLISH ttt:directory junk");
  list_a.publish(game);
  ASSERT_TRUE(run_until([&] { return list_b.list(everything).total == 1; }, 2s));
  // The holder dies: its games are no longer offered.
  a->close();
  EXPECT_TRUE(run_until([&] { return list_b.list(everything).total == 0; }, 8s));
}

// Pages of the list merge every live node's games in id order, whatever
// the page size, with filters; changes go out together, and a game opened
// and closed between two writes is never written at all.
TEST_F(Cluster, AListPageMergesTheNodesGamesInIdOrderAndChangesGoOutTogether) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  SharedGameDirectory list_a(io_.get_executor(), *a), list_b(io_.get_executor(), *b);
  a->attach(&list_a);
  b->attach(&list_b);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea") && a->available(); }));
  auto game = [](std::uint64_t id, int size) {
    server::Listing listing;
    listing.summary.set_game_id(id);
    listing.summary.set_size(size);
    listing.summary.set_x_name(id % 2 == 0 ? "even" : "odd");
    listing.summary.set_status(wire::GAME_STATUS_WAITING);
    return listing;
  };
  // Ids 1..60: odd ones at a (size 3 when id % 3 == 0, else 4), even at b.
  for (std::uint64_t id = 1; id <= 60; ++id) {
    (id % 2 == 1 ? list_a : list_b).publish(game(id, id % 3 == 0 ? 3 : 4));
  }
  // One opened and closed before the changes are written: nothing of it goes out.
  list_a.publish(game(999, 3));
  list_a.withdraw(server::GameId{999});
  server::ListQuery everything;
  ASSERT_TRUE(run_until(
      [&] { return list_a.list(everything).total == 60 && list_b.list(everything).total == 60; }));
  EXPECT_EQ(redis_->cli("HLEN ttt:games"), "60");
  EXPECT_EQ(redis_->cli("HEXISTS ttt:games 999"), "0");
  for (auto* list : {&list_a, &list_b}) {
    for (const std::size_t page_size : {1u, 7u, 50u, 100u}) {
      server::ListQuery query;
      query.page_size = page_size;
      std::vector<std::uint64_t> seen;
      for (int pages = 0; pages < 100; ++pages) {
        const auto page = list->list(query);
        EXPECT_EQ(page.total, 60u);
        EXPECT_LE(page.games.size(), page_size);
        for (const auto& g : page.games) {
          seen.push_back(g.game_id());
          EXPECT_EQ(g.node(), g.game_id() % 2 == 1 ? "127.0.0.1:1001" : "127.0.0.1:1002");
        }
        if (page.next_after == server::GameId{}) break;
        query.after = page.next_after;
      }
      std::vector<std::uint64_t> all(60);
      std::iota(all.begin(), all.end(), 1);
      EXPECT_EQ(seen, all) << "page size " << page_size;
    }
    // A filter: size 3 only (ids divisible by 3), and a name.
    server::ListQuery threes;
    threes.size = 3;
    threes.page_size = 4;
    const auto page = list->list(threes);
    EXPECT_EQ(page.total, 20u);
    ASSERT_EQ(page.games.size(), 4u);
    EXPECT_EQ(page.games[0].game_id(), 3u);
    EXPECT_EQ(page.games[3].game_id(), 12u);
    EXPECT_EQ(page.next_after, server::GameId{12});
    server::ListQuery evens;
    evens.name = "EVEN";
    evens.page_size = 100;
    EXPECT_EQ(list->list(evens).games.size(), 30u);
  }
  // Withdrawn together: gone from the other node's list and from Redis.
  for (std::uint64_t id = 1; id <= 60; id += 2) list_a.withdraw(server::GameId{id});
  EXPECT_TRUE(run_until([&] { return list_b.list(everything).total == 30; }));
  EXPECT_TRUE(run_until([&] { return redis_->cli("HLEN ttt:games") == "30"; }));
  EXPECT_FALSE(list_b.find(server::GameId{1}));
  ASSERT_TRUE(list_a.find(server::GameId{2}));
  EXPECT_EQ(list_a.find(server::GameId{2})->node, "nodeb");
}

// /who among nodes reads a page of the other nodes' players from an index
// by name, and a challenge finds one by its name's key.
TEST_F(Cluster, TheOtherNodesPlayersArePagedByNameAndFoundByKey) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea") && a->available(); }));
  std::map<AccountId, wire::PlayerPresence> here;
  for (int i = 0; i < 25; ++i) {
    wire::PlayerPresence p;
    p.set_name((i % 2 == 0 ? "Zed" : "amy") + std::to_string(100 + i));
    here.emplace(AccountId{static_cast<std::uint64_t>(i + 1)}, p);
  }
  a->share_presence(here);
  ASSERT_TRUE(run_until([&] { return b->others_presence_page("", "", 100, 1000).total == 25; }));
  EXPECT_EQ(a->others_presence_page("", "", 100, 1000).total, 0u) << "a node's own are not others'";
  std::vector<std::string> names;
  std::string after;
  for (int pages = 0; pages < 30; ++pages) {
    const auto page = b->others_presence_page(after, "", 4, 1000);
    EXPECT_LE(page.players.size(), 4u);
    for (const auto& p : page.players) names.push_back(p.name());
    if (page.next_after.empty()) break;
    after = page.next_after;
  }
  ASSERT_EQ(names.size(), 25u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  const auto amys = b->others_presence_page("", "AMY", 100, 1000);
  EXPECT_EQ(amys.matched, 12u);
  // Byte order: every "Zed" before every "amy"; a scan of five names finds no amy.
  const auto scanned = b->others_presence_page("", "amy", 100, 5);
  EXPECT_EQ(scanned.players.size(), 0u);
  EXPECT_EQ(scanned.next_after, "Zed108");
  const auto found = b->other_player(server::name_key("zed100"));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->first, "nodea");
  EXPECT_EQ(found->second.name(), "Zed100");
  EXPECT_FALSE(b->other_player(server::name_key("nobody")));
  // A player who leaves a is gone from b's index.
  here.erase(AccountId{1});
  a->share_presence(here);
  EXPECT_TRUE(run_until([&] { return !b->other_player(server::name_key("Zed100")); }));
  EXPECT_EQ(b->others_presence_page("", "", 100, 1000).total, 24u);
}

TEST_F(Cluster, APlayerHeldByAnotherLiveNodeIsNotTakenFromIt) {
  const server::redis::NodeTimings quick{200ms, 600ms};
  auto a = node("nodea", 1001, "", quick);
  auto b = node("nodeb", 1002, "", quick);
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  EXPECT_EQ(hold(*a, 7, "t1"), "");
  EXPECT_EQ(redis_->cli("GET ttt:player:7"), "nodea");
  // A node that only looked dead can't take the player back.
  EXPECT_EQ(hold(*b, 7, "t2"), "nodea");
  EXPECT_EQ(redis_->cli("GET ttt:player:7"), "nodea");
  EXPECT_EQ(redis_->cli("GET ttt:token:t1"), "7\tnodea") << "its token untouched";
  // Sending the player to the node that holds it is no taking.
  EXPECT_EQ(hold(*b, 7, "t3", "nodea"), "");
  EXPECT_EQ(redis_->cli("GET ttt:token:t3"), "7\tnodea");
  // Its holder dead, the player may be held elsewhere.
  a->close();
  ASSERT_TRUE(run_until([&] { return !b->alive("nodea"); }, 5s));
  EXPECT_EQ(hold(*b, 7, "t4"), "");
  EXPECT_EQ(redis_->cli("GET ttt:player:7"), "nodeb");
}

TEST_F(Cluster, ARedisThatForgetsTheNodeIsNoticedAtTheNextHeartbeat) {
  auto a = node("nodea", 1001, "", {200ms, 600ms});
  std::vector<bool> restored;
  a->on_restored([&](bool forgotten) { restored.push_back(forgotten); });
  a->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodea") && a->registry_ready(); }));
  ASSERT_TRUE(run_until([&] { return redis_->cli("EXISTS ttt:epoch:nodea") == "1"; }));
  EXPECT_TRUE(restored.empty()) << "a first heartbeat is no loss";
  const auto flushed = std::chrono::steady_clock::now();
  redis_->cli("FLUSHALL");
  ASSERT_TRUE(run_until([&] { return !restored.empty(); }, 3s)) << "noticed";
  EXPECT_LT(std::chrono::steady_clock::now() - flushed, 1s) << "within a heartbeat or two";
  EXPECT_TRUE(restored.front()) << "as forgotten, not as a lost connection";
  EXPECT_EQ(redis_->cli("EXISTS ttt:node:nodea"), "1");
}

// An account's figures after a result reach the other nodes with the
// different opponents it played (the rating rule on varied opponents), at
// most as many as the rule needs whatever a message says.
TEST_F(Cluster, AnAccountsFiguresReachTheOtherNodesWithItsOpponents) {
  auto a = node("nodea", 1001);
  auto b = node("nodeb", 1002);
  std::vector<server::StoredPlayer> heard;
  b->on_figures([&](const server::StoredPlayer& p) { heard.push_back(p); });
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  server::StoredPlayer alice;
  alice.id = 7;
  alice.name = "alice";
  alice.key = "alice";
  alice.games_played = 12;
  alice.rated_games = 11;
  alice.opponents = {2, 3, 5};
  a->share_figures(alice);
  ASSERT_TRUE(run_until([&] { return !heard.empty(); }));
  EXPECT_EQ(heard.back().rated_games, 11);
  EXPECT_EQ(heard.back().opponents, (std::vector<std::int64_t>{2, 3, 5}));
  alice.opponents.clear();
  for (std::int64_t id = 100; id < 150; ++id) alice.opponents.push_back(id);
  a->share_figures(alice);
  ASSERT_TRUE(run_until([&] { return heard.size() == 2; }));
  EXPECT_EQ(std::ssize(heard.back().opponents), server::kVariedOpponents);
}

// The figures a node commits within a moment go out together: each account
// once, as it is then, in messages a node reads whole; a node never hears
// its own.
TEST_F(Cluster, FiguresOfAMomentGoOutTogetherEachAccountOnce) {
  const std::string key(40, 'k');
  auto a = node("nodea", 1001, key);
  auto b = node("nodeb", 1002, key);
  std::map<std::int64_t, std::vector<server::StoredPlayer>> heard;
  int heard_by_a = 0;
  a->on_figures([&](const server::StoredPlayer&) { ++heard_by_a; });
  b->on_figures([&](const server::StoredPlayer& p) { heard[p.id].push_back(p); });
  auto sub = std::make_shared<RedisClient>(io_.get_executor(), address(), RedisClient::Options{});
  std::vector<std::size_t> messages;
  sub->subscribe({"ttt:figure-changes"}, [&](const std::string&, const std::string& payload) {
    messages.push_back(payload.size());
  });
  sub->start();
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return sub->up() && a->alive("nodeb") && b->alive("nodea"); }));
  constexpr std::int64_t kAccounts = 2'000;
  for (std::int64_t id = 1; id <= kAccounts; ++id) {
    server::StoredPlayer p;
    p.id = id;
    p.name = "player-" + std::to_string(id) + std::string(20, 'x');
    p.key = p.name;
    p.rating = 1200.0;
    p.opponents = {id + 1, id + 2, id + 3, id + 4, id + 5, id + 6, id + 7, id + 8, id + 9, id + 10};
    a->share_figures(p);
    if (id == 7) {
      p.rating = 1234.5;  // a second result of the same moment: only the latest goes out
      p.games_played = 2;
      a->share_figures(p);
    }
  }
  ASSERT_TRUE(run_until([&] { return std::ssize(heard) == kAccounts; }));
  for (const auto& [id, told] : heard) ASSERT_EQ(told.size(), 1u) << "account " << id;
  EXPECT_EQ(heard[7].front().rating, 1234.5);
  EXPECT_EQ(heard[7].front().games_played, 2);
  EXPECT_EQ(std::ssize(heard[kAccounts].front().opponents), server::kVariedOpponents);
  ASSERT_TRUE(run_until([&] { return messages.size() >= 2; }));
  EXPECT_LE(messages.size(), 10u) << "a few messages, not one an account";
  for (const std::size_t bytes : messages) EXPECT_LE(bytes, 64u * 1024) << "read whole";
  EXPECT_EQ(heard_by_a, 0) << "a node's own figures are not news to it";
}

// Figures committed while Redis is away wait for it, and are told when it
// is back (the other node's subscription outlives a pause).
TEST_F(Cluster, FiguresCommittedWhileRedisIsAwayAreToldWhenItIsBack) {
  auto a = node("nodea", 1001, "", {200ms, 600ms});
  auto b = node("nodeb", 1002, "", {200ms, 600ms});
  std::vector<server::StoredPlayer> heard;
  b->on_figures([&](const server::StoredPlayer& p) { heard.push_back(p); });
  a->start();
  b->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  redis_->pause();
  ASSERT_TRUE(run_until([&] { return !a->available(); }, 10s)) << "the heartbeat's answer is late";
  server::StoredPlayer alice;
  alice.id = 7;
  alice.name = "alice";
  alice.key = "alice";
  alice.wins = 3;
  a->share_figures(alice);
  run_until([] { return false; }, 200ms);
  EXPECT_TRUE(heard.empty());
  redis_->resume();
  ASSERT_TRUE(run_until([&] { return !heard.empty(); }, 10s));
  EXPECT_EQ(heard.back().id, 7);
  EXPECT_EQ(heard.back().wins, 3);
}

// Another node's message is read account by account: what is unreadable
// is dropped, the rest taken.
TEST_F(Cluster, UnreadableFiguresInAMessageAreDroppedAndTheRestTaken) {
  auto b = node("nodeb", 1002);
  std::vector<server::StoredPlayer> heard;
  b->on_figures([&](const server::StoredPlayer& p) { heard.push_back(p); });
  b->start();
  ASSERT_TRUE(run_until([&] { return b->alive("nodeb") && b->available(); }));
  node::FiguresChange change;
  change.set_node("nodez");
  change.add_accounts()->set_name("no account");
  change.add_accounts()->set_account(5);  // no name
  auto* nan = change.add_accounts();
  nan->set_account(6);
  nan->set_name("nan");
  nan->set_rating(std::nan(""));
  auto* good = change.add_accounts();
  good->set_account(8);
  good->set_name("good");
  good->set_rating(1500);
  auto pub = client();
  // The subscription may come after the first: published until heard.
  ASSERT_TRUE(run_until([&] {
    if (heard.empty()) ask(*pub, {"PUBLISH", "ttt:figure-changes", change.SerializeAsString()});
    return !heard.empty();
  }));
  run_until([] { return false; }, 200ms);  // the copies still on their way
  const std::size_t before = heard.size();
  ask(*pub, {"PUBLISH", "ttt:figure-changes", "\xff\xff not a message"});
  ask(*pub, {"PUBLISH", "ttt:figure-changes", change.SerializeAsString()});
  ASSERT_TRUE(run_until([&] { return heard.size() == before + 1; }));
  run_until([] { return false; }, 100ms);
  EXPECT_EQ(heard.size(), before + 1) << "the good account once; nothing of the garbage";
  for (const auto& p : heard) {
    EXPECT_EQ(p.id, 8);
    EXPECT_EQ(p.rating, 1500);
  }
}

TEST_F(Cluster, HeartbeatsAndMessagesNotSignedWithTheLobbysKeyAreIgnored) {
  const std::string key(40, 'k');
  auto a = node("nodea", 1001, key);
  auto b = node("nodeb", 1002, key);
  auto stranger = node("nodex", 1009, std::string(40, 'x'));  // another key
  int asked = 0;
  a->serve_seats([&](const server::SeatRequest& request, server::Cluster::SeatDone reply) {
    ++asked;
    reply(server::SeatReply{"code", request.game, wire::ERROR_CODE_UNSPECIFIED, ""});
  });
  a->start();
  b->start();
  stranger->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodeb") && b->alive("nodea"); }));
  // A heartbeat written by hand, and one signed with another key.
  redis_->cli("SADD ttt:nodes evil");
  redis_->cli("SET ttt:node:evil \"127.0.0.1\t6666\tSHA256:ab\t0\t0\t-\t99999999999999\"");
  run_until([] { return false; }, 1500ms);
  EXPECT_FALSE(a->alive("evil"));
  EXPECT_FALSE(a->node("evil"));
  EXPECT_FALSE(a->alive("nodex")) << "a node with another key is no node of this lobby";
  EXPECT_TRUE(stranger->alive("nodex"));
  // A seat request published by hand is ignored; one from a node is answered.
  node::NodeMessage forged;
  forged.set_id(1);
  forged.set_from("nodeb");
  forged.mutable_seat_request()->set_game(5);
  RedisClient::Options options;
  auto raw = client(options);
  ask(*raw, {"PUBLISH", "ttt:rpc:nodea", forged.SerializeAsString()});
  std::optional<server::SeatReply> reply;
  stranger->request_seat("nodea", server::SeatRequest{},
                         [&](const server::SeatReply& r) { reply = r; });
  ASSERT_TRUE(run_until([&] { return reply.has_value(); }, 5s));
  EXPECT_TRUE(reply->reservation.empty()) << "another key's request is not answered";
  EXPECT_EQ(asked, 0);
  reply.reset();
  server::SeatRequest real;
  real.game = server::GameId{5};
  b->request_seat("nodea", real, [&](const server::SeatReply& r) { reply = r; });
  ASSERT_TRUE(run_until([&] { return reply.has_value(); }, 5s));
  EXPECT_EQ(reply->reservation, "code");
  EXPECT_EQ(asked, 1);
}

// Whoever can publish on the lobby's Redis decides how often a node meets
// a message it drops: each kind of warning is logged once a minute at most,
// however many such messages come.
TEST_F(Cluster, MessagesDroppedByTheHundredAreEachLoggedOnceAMinute) {
  const std::string key(40, 'k');
  auto a = node("nodea", 1001, key);
  a->start();
  ASSERT_TRUE(run_until([&] { return a->alive("nodea"); }));
  std::ostringstream captured;
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "captured", std::make_shared<spdlog::sinks::ostream_sink_mt>(captured)));
  RedisClient::Options options;
  auto raw = client(options);
  const std::string oversized(65 * 1024, 'x');
  // Signed with the lobby's key, but no message this build can read (a
  // truncated field tag).
  const std::string unreadable =
      server::redis::NodeSigner(key).sign("ttt:rpc:nodea", std::string(3, '\xff'));
  for (int i = 0; i < 100; ++i) {
    ask(*raw, {"PUBLISH", "ttt:rpc:nodea", oversized});
    ask(*raw, {"PUBLISH", "ttt:rpc:nodea", "not signed"});
    ask(*raw, {"PUBLISH", "ttt:rpc:nodea", unreadable});
    // Heartbeats written by hand, each read at every beat.
    const std::string id = "evil" + std::to_string(i);
    ask(*raw, {"SADD", "ttt:nodes", id});
    ask(*raw, {"SET", "ttt:node:" + id, "127.0.0.1\t6666\tSHA256:ab\t0\t0\t-\t99999999999999"});
  }
  run_until([&] { return false; }, 1500ms);
  spdlog::set_default_logger(previous);
  const auto count = [log = captured.str()](std::string_view what) { return count_of(log, what); };
  EXPECT_EQ(count("too large; dropped (and any more within a minute)"), 1u) << captured.str();
  EXPECT_EQ(count("not signed with this lobby's key (--cluster-key-file); ignored"), 1u)
      << captured.str();
  EXPECT_EQ(count("is not signed with this lobby's key (--cluster-key-file): not a node of ours, "
                  "ignored (and any more within a minute)"),
            1u)
      << captured.str();
  EXPECT_EQ(count("an unreadable message on ttt:rpc:nodea; dropped (and any more within a minute)"),
            1u)
      << captured.str();
  EXPECT_FALSE(a->alive("evil7"));
}

// A tag is HMAC-SHA256 of the context and the value, each with its length
// first, as every node of a lobby computes it (nodes of other builds
// included): checked against OpenSSL's one-call HMAC. The same signer
// signs on several threads at once, each tag right.
std::string reference_tag(const std::string& key, const std::string& context,
                          const std::string& value) {
  const std::string input =
      std::to_string(context.size()) + ":" + context + std::to_string(value.size()) + ":" + value;
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), out, &length);
  return std::string(reinterpret_cast<const char*>(out), length);
}

TEST(NodeSigner, ATagIsTheHmacOfTheLengthPrefixedContextAndValue) {
  using server::redis::NodeSigner;
  const std::string key(40, 'k');
  const NodeSigner signer(key);
  const NodeSigner other(std::string(40, 'o'));
  for (const std::string& value : {std::string(), std::string("x"), std::string(5000, '\0'),
                                   std::string("account\tnode\tbytes")}) {
    const std::string signed_value = signer.sign("ttt:who", value);
    ASSERT_EQ(signed_value.size(), NodeSigner::kTagBytes + value.size());
    EXPECT_EQ(signed_value.substr(0, NodeSigner::kTagBytes), reference_tag(key, "ttt:who", value));
    EXPECT_EQ(signed_value.substr(NodeSigner::kTagBytes), value);
    EXPECT_EQ(signer.open("ttt:who", signed_value), value);
    EXPECT_FALSE(signer.open("ttt:figures", signed_value)) << "another context";
    EXPECT_FALSE(other.open("ttt:who", signed_value)) << "another key";
    std::string forged = signed_value;
    forged[3] = static_cast<char>(forged[3] ^ 1);
    EXPECT_FALSE(signer.open("ttt:who", forged));
  }
  // "1:a" + "2:bc" against "2:ab" + "1:c": the lengths keep them apart.
  EXPECT_NE(signer.sign("a", "bc").substr(0, 32), signer.sign("ab", "c").substr(0, 32));
  const std::string tag = signer.text_tag("ttt:node:n1", "host\t7777");
  EXPECT_EQ(tag.size(), 64u);
  EXPECT_TRUE(signer.text_tag_ok("ttt:node:n1", "host\t7777", tag));
  EXPECT_FALSE(signer.text_tag_ok("ttt:node:n1", "host\t7778", tag));
  EXPECT_FALSE(NodeSigner().enabled());
  EXPECT_EQ(NodeSigner().sign("ttt:who", "plain"), "plain");

  const NodeSigner shared = signer;  // copies share the keyed state
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (std::size_t t = 0; t < wrong.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const std::string value = std::to_string(t) + ":" + std::to_string(i);
        if (shared.sign("ttt:figures", value).substr(0, NodeSigner::kTagBytes) !=
            reference_tag(key, "ttt:figures", value)) {
          ++wrong[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(std::accumulate(wrong.begin(), wrong.end(), 0), 0);
}

}  // namespace
}  // namespace ttt::testing
