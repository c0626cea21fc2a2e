// HelloDesk alone: who a Hello speaks for, by resume token or by name and
// secret, against accounts in memory; a new name registered within its
// allowance; failed checks that make their key wait; and where the player
// is held, asked of a node alone or of a cluster the test plays.
#include "lobby/hello_desk.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lobby/secrets.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"

namespace ttt::server {
namespace {

using Kind = Identified::Kind;
using ttt::testing::MemoryAccounts;

constexpr const char* kSecret = "alices-secret-0123456789abcdef-0123";

// Several nodes, as the test sets them: which node holds each player and
// token, which nodes are alive, and whether the shared state answers.
class PlayedCluster final : public ttt::testing::QuietCluster {
 public:
  PlayedCluster() : QuietCluster("one") { alive["one"] = self_; }
  bool available() const override { return answers; }
  std::optional<NodeInfo> node(const std::string& id) const override {
    const auto it = alive.find(id);
    return it == alive.end() ? std::nullopt : std::optional<NodeInfo>(it->second);
  }
  void find_token(const std::string& token_hash, TokenDone done) override {
    const auto it = tokens.find(token_hash);
    done(it == tokens.end() ? std::nullopt : std::optional<TokenHolder>(it->second), answers);
  }
  void find_player(AccountId account, PlayerDone done) override {
    const auto it = players.find(account);
    done(it == players.end() ? "" : it->second, answers);
  }
  void take_allowance(const std::string&, const std::string&, std::size_t,
                      std::chrono::milliseconds, AllowanceDone done) override {
    done(allow_names, std::chrono::minutes(20));
  }

  std::map<std::string, NodeInfo> alive;
  std::map<std::string, TokenHolder> tokens;  // by hash
  std::map<AccountId, std::string> players;   // the node of each
  bool answers = true;
  bool allow_names = true;
};

NodeInfo node_named(const std::string& id, std::uint16_t port) {
  NodeInfo node;
  node.id = id;
  node.host = "127.0.0.1";
  node.port = port;
  return node;
}

wire::Hello by_name(const std::string& name, const std::string& secret = kSecret) {
  wire::Hello hello;
  hello.set_name(name);
  hello.set_secret(secret);
  return hello;
}

wire::Hello by_token(const std::string& token) {
  wire::Hello hello;
  hello.set_resume_token(token);
  return hello;
}

class HelloDeskTest : public ::testing::Test {
 protected:
  explicit HelloDeskTest(Cluster* cluster = nullptr, HelloLimits limits = small_limits())
      : desk_(accounts_, cluster ? *cluster : single_, log_, limits,
              [this](SeatId seat) { return held_.contains(seat); }) {}

  static HelloLimits small_limits() {
    HelloLimits limits;
    limits.new_names_per_hour = 2;
    limits.identity_failures = 1;  // the second failure makes the key wait
    return limits;
  }

  // The desk's answer, which must come inside the call (a node alone, and
  // the fakes, answer at once).
  Identified identify(const wire::Hello& hello, const std::string& address = "10.0.0.1") {
    std::optional<Identified> answer;
    desk_.identify(hello, address, [&](Identified who) { answer = std::move(who); });
    EXPECT_TRUE(answer.has_value()) << "answered at once";
    return answer.value_or(Identified{});
  }
  Identified register_name(const wire::Hello& hello, const std::string& address = "10.0.0.1") {
    std::optional<Identified> answer;
    desk_.register_name(hello, address, [&](Identified who) { answer = std::move(who); });
    EXPECT_TRUE(answer.has_value()) << "answered at once";
    return answer.value_or(Identified{});
  }
  // An account of that name owned by kSecret.
  AccountId make_account(const std::string& name, bool bot = false) {
    const Identified made = register_name(by_name(name));
    EXPECT_EQ(made.kind, Kind::kKnown) << made.text;
    if (bot) {
      StoredPlayer* stored = const_cast<StoredPlayer*>(accounts_.get(made.account));
      stored->is_bot = true;
    }
    return made.account;
  }

  MemoryAccounts accounts_;
  SingleNode single_;
  LogLimiter log_;
  std::set<SeatId> held_;  // the players "held here"
  HelloDesk desk_;
};

TEST_F(HelloDeskTest, ANameNobodyHasIsNewAndRegistersWithTheClientsSecret) {
  EXPECT_EQ(identify(by_name("alice")).kind, Kind::kNewName);
  const Identified made = register_name(by_name("alice"));
  ASSERT_EQ(made.kind, Kind::kKnown) << made.text;
  EXPECT_TRUE(made.issued.empty()) << "the client chose its secret";
  EXPECT_FALSE(made.resumed);
  ASSERT_NE(accounts_.get(made.account), nullptr);
  EXPECT_EQ(accounts_.get(made.account)->name, "alice");
  EXPECT_EQ(made.seat, seat_of(made.account));
}

TEST_F(HelloDeskTest, AClientWithoutASecretGetsOneMadeHereThatOwnsTheName) {
  const Identified made = register_name(by_name("bob", ""));
  ASSERT_EQ(made.kind, Kind::kKnown) << made.text;
  ASSERT_FALSE(made.issued.empty());
  EXPECT_EQ(identify(by_name("bob", made.issued)).kind, Kind::kKnown);
}

TEST_F(HelloDeskTest, TheRightSecretIsThePlayerHereOnANodeAlone) {
  const AccountId alice = make_account("alice");
  const Identified who = identify(by_name("alice"));
  ASSERT_EQ(who.kind, Kind::kKnown) << who.text;
  EXPECT_EQ(who.account, alice);
  EXPECT_FALSE(who.resumed);
  EXPECT_FALSE(who.adopt) << "a node alone holds every player";
}

TEST_F(HelloDeskTest, AWrongSecretIsRefusedAndPastTheFreeOnesTheNameWaits) {
  make_account("alice");
  const Identified first = identify(by_name("alice", "wrong-secret-00000000000000000000000"));
  EXPECT_EQ(first.kind, Kind::kRefused);
  EXPECT_EQ(first.code, wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_EQ(identify(by_name("alice", "wrong-secret-00000000000000000000001")).code,
            wire::ERROR_CODE_NAME_TAKEN);
  // Now even the right secret waits, from that network...
  const Identified locked = identify(by_name("alice"));
  EXPECT_EQ(locked.code, wire::ERROR_CODE_IDENTITY_LOCKED);
  EXPECT_NE(locked.text.find("try again in"), std::string::npos) << locked.text;
  // ...but not from another, nor for another name behind the same address.
  EXPECT_EQ(identify(by_name("alice"), "10.9.9.9").kind, Kind::kKnown);
  make_account("carol");
  EXPECT_EQ(identify(by_name("carol")).kind, Kind::kKnown);
}

TEST_F(HelloDeskTest, ABadNameOrABotsNameIsRefusedBeforeAnyLookup) {
  const Identified empty = identify(by_name(""));
  EXPECT_EQ(empty.code, wire::ERROR_CODE_BAD_REQUEST);
  const Identified bot = identify(by_name("bot (hard)"));
  EXPECT_EQ(bot.code, wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_NE(bot.text.find("server's bots"), std::string::npos) << bot.text;
}

TEST_F(HelloDeskTest, AResumeTokenIssuedHereIsItsPlayerResumed) {
  const AccountId alice = make_account("alice");
  held_.insert(seat_of(alice));
  const std::string token = desk_.tokens().issue(seat_of(alice), alice);
  const Identified who = identify(by_token(token));
  ASSERT_EQ(who.kind, Kind::kKnown) << who.text;
  EXPECT_EQ(who.seat, seat_of(alice));
  EXPECT_TRUE(who.resumed);
  // A fresh token replaces it: the old one is unknown now.
  desk_.tokens().issue(seat_of(alice), alice);
  EXPECT_EQ(identify(by_token(token)).code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

TEST_F(HelloDeskTest, ARestoredTokenBringsItsAccountBackButNeverABots) {
  const AccountId alice = make_account("alice");
  const std::string token = desk_.tokens().issue(seat_of(alice), alice);
  EXPECT_EQ(identify(by_token(token)).kind, Kind::kKnown) << "not held here: it comes back";
  const AccountId bot = make_account("robot", true);
  const std::string bot_token = desk_.tokens().issue(seat_of(bot), bot);
  EXPECT_EQ(identify(by_token(bot_token)).code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

TEST_F(HelloDeskTest, UnknownTokensCountAgainstTheAddress) {
  EXPECT_EQ(identify(by_token("nobody's")).code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
  EXPECT_EQ(identify(by_token("nobody's")).code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
  EXPECT_EQ(identify(by_token("nobody's")).code, wire::ERROR_CODE_IDENTITY_LOCKED);
  EXPECT_EQ(identify(by_token("nobody's"), "10.0.0.2").code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

TEST_F(HelloDeskTest, NewNamesPerAddressAreLimitedAndABadSecretIsRefused) {
  EXPECT_EQ(register_name(by_name("a1")).kind, Kind::kKnown);
  EXPECT_EQ(register_name(by_name("a2")).kind, Kind::kKnown);
  const Identified third = register_name(by_name("a3"));
  EXPECT_EQ(third.code, wire::ERROR_CODE_TOO_MANY_NEW_NAMES);
  EXPECT_EQ(register_name(by_name("a3"), "10.0.0.7").kind, Kind::kKnown);
  const Identified bad = register_name(by_name("a4", "no spaces allowed"), "10.0.0.8");
  EXPECT_EQ(bad.code, wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(accounts_.created.size(), 3u);
}

TEST_F(HelloDeskTest, AWrongOperatorTokenCountsAsAWrongSecret) {
  EXPECT_EQ(desk_.operator_token("right", "right", "10.0.0.1"), std::optional<bool>(true));
  EXPECT_EQ(desk_.operator_token("wrong", "right", "10.0.0.1"), std::optional<bool>(false));
  EXPECT_EQ(desk_.operator_token("wrong", "right", "10.0.0.1"), std::optional<bool>(false));
  EXPECT_EQ(desk_.operator_token("right", "right", "10.0.0.1"), std::nullopt) << "waits";
  EXPECT_EQ(desk_.operator_token("anything", "", "10.0.0.3"), std::optional<bool>(false))
      << "no operator token set: nobody";
}

TEST_F(HelloDeskTest, AHelloProvesItsAccountBySecretOrByItsOwnTokenInTheRecords) {
  const AccountId alice = make_account("alice");
  const StoredPlayer& stored = *accounts_.get(alice);
  std::optional<Identified> answer;
  auto keep = [&](Identified who) { answer = std::move(who); };
  desk_.prove(by_name("alice"), stored, "10.0.0.1", keep);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->kind, Kind::kKnown);
  accounts_.records[alice] = sha256_hex("alices-token");
  desk_.prove(by_token("alices-token"), stored, "10.0.0.1", keep);
  EXPECT_EQ(answer->kind, Kind::kKnown);
  desk_.prove(by_token("someone-elses"), stored, "10.0.0.1", keep);
  EXPECT_EQ(answer->code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
  desk_.prove(by_name("alice", ""), stored, "10.0.0.2", keep);
  EXPECT_EQ(answer->code, wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

// --- several nodes ----------------------------------------------------------------

// The cluster, built before the desk that refers to it (bases are built in
// order).
struct WithCluster {
  PlayedCluster cluster_;
};

class HelloDeskNodes : protected WithCluster, public HelloDeskTest {
 protected:
  HelloDeskNodes() : HelloDeskTest(&cluster_) {}
};

TEST_F(HelloDeskNodes, APlayerAnotherLiveNodeHoldsIsSentThere) {
  const AccountId alice = make_account("alice");
  cluster_.alive["two"] = node_named("two", 4001);
  cluster_.players[alice] = "two";
  const Identified who = identify(by_name("alice"));
  ASSERT_EQ(who.kind, Kind::kElsewhere) << who.text;
  EXPECT_EQ(who.node.port, 4001);
  EXPECT_NE(who.text.find("your player is at node 127.0.0.1:4001"), std::string::npos);
  // A wrong secret learns nothing of where the player is.
  EXPECT_EQ(identify(by_name("alice", "wrong-secret-00000000000000000000000")).code,
            wire::ERROR_CODE_NAME_TAKEN);
}

TEST_F(HelloDeskNodes, APlayerHeldHereOrWhoseNodeCantBeAskedIsLetInHere) {
  const AccountId alice = make_account("alice");
  cluster_.alive["two"] = node_named("two", 4001);
  cluster_.players[alice] = "two";
  held_.insert(seat_of(alice));
  EXPECT_EQ(identify(by_name("alice")).kind, Kind::kKnown) << "held here: not asked";
  held_.clear();
  cluster_.answers = false;
  const Identified who = identify(by_name("alice"));
  EXPECT_EQ(who.kind, Kind::kKnown);
  EXPECT_FALSE(who.adopt);
}

TEST_F(HelloDeskNodes, APlayerOfADeadNodeOrOfNoNodeComesHereWithItsGames) {
  const AccountId alice = make_account("alice");
  cluster_.players[alice] = "dead";
  const Identified who = identify(by_name("alice"));
  ASSERT_EQ(who.kind, Kind::kKnown);
  EXPECT_TRUE(who.adopt);
  cluster_.players.erase(alice);
  EXPECT_TRUE(identify(by_name("alice")).adopt);
}

TEST_F(HelloDeskNodes, ATokenAnotherNodeHoldsIsSentThereAndADeadNodesIsCheckedInTheRecords) {
  const AccountId alice = make_account("alice");
  cluster_.alive["two"] = node_named("two", 4002);
  cluster_.tokens[sha256_hex("alices-token")] = TokenHolder{alice, "two"};
  const Identified there = identify(by_token("alices-token"));
  ASSERT_EQ(there.kind, Kind::kElsewhere);
  EXPECT_EQ(there.node.id, "two");
  // Its node died: the records say whose the token is.
  cluster_.alive.erase("two");
  EXPECT_EQ(identify(by_token("alices-token")).code, wire::ERROR_CODE_BAD_RESUME_TOKEN)
      << "not the account's token in the records";
  accounts_.records[alice] = sha256_hex("alices-token");
  const Identified here = identify(by_token("alices-token"), "10.0.0.9");
  ASSERT_EQ(here.kind, Kind::kKnown) << here.text;
  EXPECT_TRUE(here.resumed);
  EXPECT_TRUE(here.adopt);
  // The shared state away: nobody can say.
  cluster_.answers = false;
  EXPECT_EQ(identify(by_token("alices-token"), "10.0.0.9").code,
            wire::ERROR_CODE_CLUSTER_UNAVAILABLE);
}

TEST_F(HelloDeskNodes, NewNamesAreCountedByEveryNodeTogether) {
  cluster_.allow_names = false;
  const Identified refused_name = register_name(by_name("alice"));
  EXPECT_EQ(refused_name.code, wire::ERROR_CODE_TOO_MANY_NEW_NAMES);
  EXPECT_NE(refused_name.text.find("on this lobby's nodes: try again in 21 min"), std::string::npos)
      << refused_name.text;
  EXPECT_TRUE(accounts_.created.empty());
}

}  // namespace
}  // namespace ttt::server
