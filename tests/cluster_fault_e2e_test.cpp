// Several nodes under faults, end to end: real ttt-server processes sharing
// a real redis-server and a PostgreSQL schema of the test's own. A holder
// stopped (SIGSTOP) past the dead limit comes back to find its game taken
// over and writes nothing to it; a node cut from Redis alone keeps its
// games (it still commits); Redis flushed, then a node killed, loses no
// player's way back to its game; a silent PostgreSQL is noticed within
// seconds (DATABASE_WAIT, /readyz) and play resumes when it answers; a drain
// waits for a game's last commit before sending its players on. After each,
// a Ledger compares what the clients were told with what PostgreSQL keeps.
//
// The CI runs use short heartbeats and dead limits (--node-heartbeat,
// --node-dead-after, --postgres-timeout) so that each proves its point in
// seconds; the DISABLED_ soaks run the same scenarios with the default
// timings and the durations of the report that found them (25 s, 45 s,
// 30 s): build/bin/cluster_fault_e2e_test --gtest_also_run_disabled_tests
// --gtest_filter='*Soak*' inside pg_virtualenv (docs/scaling.md, "Measured").
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <regex>
#include <thread>

#include "support/eventually.hpp"
#include "support/http_get.hpp"
#include "support/lobby_nodes.hpp"
#include "support/tcp_proxy.hpp"

namespace ttt::testing {
namespace {

using namespace std::chrono_literals;

// The heartbeats and limits a scenario runs with.
struct Timings {
  std::vector<std::string> flags;   // given to every node
  std::chrono::milliseconds dead;   // past which a node is dead for the others
  std::chrono::milliseconds fault;  // how long the fault lasts
};

// Short: each point proven in seconds (CI, sanitizers included).
Timings quick(std::chrono::milliseconds fault) {
  return {{"--node-heartbeat", "0.25", "--node-dead-after", "1", "--orphan-sweep", "0.5",
           "--postgres-timeout", "1.5"},
          1000ms,
          fault};
}

// The defaults, and the report's durations (opt-in soaks).
Timings defaults(std::chrono::milliseconds fault) { return {{}, 2500ms, fault}; }

// The timings' flags and more. The test's clients answer no pings: links
// are judged by their sockets alone (no --heartbeat-timeout, a long
// --idle-timeout).
std::vector<std::string> with(const Timings& t, std::vector<std::string> more) {
  more.insert(more.end(), t.flags.begin(), t.flags.end());
  more.insert(more.end(), {"--heartbeat-timeout", "0", "--idle-timeout", "300"});
  return more;
}

// The time of the first line of a node's log holding `text` ("hh:mm:ss.mmm"
// into ms since midnight), or -1.
long long logged_at(const std::string& log, const std::string& text) {
  const auto at = log.find(text);
  if (at == std::string::npos) return -1;
  const auto line = log.rfind('\n', at) + 1;
  std::smatch m;
  const std::string head = log.substr(line, 40);
  if (!std::regex_search(head, m, std::regex("(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d\\d\\d)")))
    return -1;
  return ((std::stoll(m[1]) * 60 + std::stoll(m[2])) * 60 + std::stoll(m[3])) * 1000 +
         std::stoll(m[4]);
}

// Plays the moves in turn and notes the final state both players got.
wire::GameState play(TestClient& x, TestClient& o, std::uint64_t game,
                     const std::vector<std::pair<int, int>>& moves, int first_ply, Ledger& ledger) {
  const auto last = play_out(x, o, game, moves, first_ply);
  if (is_over(last)) {
    ledger.saw(last);
    // The other player hears the end too.
    TestClient& other = (first_ply + static_cast<int>(moves.size())) % 2 == 0 ? x : o;
    ledger.saw(other.expect_state([](const wire::GameState& s) { return is_over(s); },
                                  "the end, told to the other player"));
  }
  return last;
}

// alice and bob say Hello (their tokens kept), alice opens a 3x3 game and
// bob takes its seat; its id.
std::uint64_t seat_pair_keeping_tokens(TestClient& alice, TestClient& bob, std::string& alice_token,
                                       std::string& bob_token) {
  alice_token = alice.hello("alice").resume_token();
  bob_token = bob.hello("bob").resume_token();
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  bob.join(game);
  bob.expect_joined();
  return game;
}

class Fencing : public Nodes {
 protected:
  std::shared_ptr<Node> node_at(const std::string& postgres, const std::string& redis,
                                std::vector<std::string> extra) {
    auto n = std::make_shared<Node>(postgres, redis, key_.path(), std::move(extra));
    nodes_.push_back(n);
    return n;
  }

  std::string account_of(const std::string& name) {
    return sql("SELECT id FROM players WHERE name = '" + name + "'");
  }

  // True once `gone` is dead for `seer` by both heartbeats: seer's reading
  // of Redis says so last (a flush of Redis may have made it say so before,
  // and then alive again), and the database holds no beat of it within the
  // dead limit (by the database's clock, as a claim asks).
  bool dead_for(Node& seer, Node& gone, const Timings& t) {
    const std::string log = seer.log();
    const std::string node = "cluster: node " + gone.id() + " at " + gone.where();
    const auto gone_at = log.rfind(node + " is gone");
    const auto alive_at = log.rfind(node + " is alive");
    if (gone_at == std::string::npos || (alive_at != std::string::npos && alive_at > gone_at)) {
      return false;
    }
    return sql("SELECT count(*) FROM ttt_nodes WHERE id = '" + gone.id() +
               "' AND beat > clock_timestamp() - interval '" + std::to_string(t.dead.count()) +
               " milliseconds'") == "0";
  }

  // A holder stopped past the dead limit, its game adopted and finished
  // elsewhere meanwhile; then it runs again.
  void stopped_holder(const Timings& t) {
    auto one = node(with(t, {"--reconnect-grace", "1"}));
    auto two = node(with(t, {"--reconnect-grace", "60"}));
    wait_for_each_other(2);
    Ledger ledger;
    auto alice = std::make_unique<TestClient>(one->port());
    auto bob = std::make_unique<TestClient>(one->port());
    std::string alice_token, bob_token;
    const auto game = seat_pair_keeping_tokens(*alice, *bob, alice_token, bob_token);
    play(*alice, *bob, game, {{0, 0}, {1, 1}}, 0, ledger);
    ASSERT_EQ(sql("SELECT node FROM games WHERE room_id = " + std::to_string(game)), one->id());
    ::kill(one->process().pid(), SIGSTOP);
    const auto stopped_at = std::chrono::steady_clock::now();
    alice.reset();  // their links to the stopped node are given up
    bob.reset();
    // A Hello that waits in the stopped node's backlog, with the token that
    // node gave bob: served when it runs again.
    auto late = std::make_unique<TestClient>(one->port());
    hello_with_token(*late, "bob", bob_token);
    // Both heartbeats go stale; the players come back to the other node,
    // which takes the game over, and they finish it there.
    ASSERT_TRUE(eventually([&] { return dead_for(*two, *one, t); }, t.dead + 15s, 100ms))
        << two->log();
    auto at_two_alice = std::make_unique<TestClient>(two->port());
    auto at_two_bob = std::make_unique<TestClient>(two->port());
    hello_with_token(*at_two_alice, "alice", alice_token);
    auto w = at_two_alice->expect([](const wire::ServerMessage& m) { return m.has_welcome(); },
                                  "alice back, at node two", 10s);
    EXPECT_EQ(w.welcome().game_id(), game);
    hello_with_token(*at_two_bob, "bob", bob_token);
    w = at_two_bob->expect([](const wire::ServerMessage& m) { return m.has_welcome(); },
                           "bob back, at node two", 10s);
    EXPECT_EQ(w.welcome().game_id(), game);
    at_two_alice->expect_state([](const wire::GameState& s) { return s.move_count() == 2; },
                               "the game as it was");
    const auto end = play(*at_two_alice, *at_two_bob, game, {{0, 1}, {2, 2}, {0, 2}}, 2, ledger);
    ASSERT_EQ(end.status(), wire::GAME_STATUS_X_WON);
    // The rest of the stop (the fault's length is the scenario: that time
    // must pass), then the stale node runs again.
    const auto left = t.fault - (std::chrono::steady_clock::now() - stopped_at);
    if (left > 0ms) std::this_thread::sleep_for(left);
    ::kill(one->process().pid(), SIGCONT);
    // The Hello it had waiting is not taken into the game it lost.
    auto answer = late->expect(
        [](const wire::ServerMessage& m) {
          return m.has_welcome() || m.has_redirect() || m.has_error();
        },
        "the answer to the Hello that waited", 10s);
    EXPECT_FALSE(answer.has_welcome() && answer.welcome().game_id() == game)
        << "the stale node took bob back into the game it lost";
    EXPECT_TRUE(eventually([&] { return one->log().find("lets it go") != std::string::npos; }, 5s))
        << "the stale node dropped the room";
    const std::string stale_log = one->log();
    std::printf("stopped holder: ran again; its room dropped %lld ms after it noticed the stop\n",
                logged_at(stale_log, "lets it go") - logged_at(stale_log, "did not run for"));
    // Its grace for the players who left (1 s) has passed: nothing of the
    // game is written again. Nothing is what is checked, so the time must
    // pass.
    std::this_thread::sleep_for(2s);
    EXPECT_EQ(sql("SELECT node FROM games WHERE room_id = " + std::to_string(game)), two->id());
    EXPECT_EQ(
        sql("SELECT status || ' ' || reason FROM games WHERE room_id = " + std::to_string(game)),
        "x_won line");
    EXPECT_EQ(redis_->cli("GET ttt:player:" + account_of("bob")), two->id())
        << "the stale node did not take bob back in Redis";
    ledger.expect_kept_by(pg_->conninfo());
  }

  // One node cut from Redis alone, a game in progress there.
  void cut_from_redis(const Timings& t) {
    TcpProxy link("127.0.0.1", redis_->port());
    auto one = node_at(pg_->conninfo(), "127.0.0.1:" + std::to_string(link.port()),
                       with(t, {"--reconnect-grace", "60"}));
    auto two = node(with(t, {"--reconnect-grace", "60"}));
    wait_for_each_other(2);
    Ledger ledger;
    TestClient alice(one->port());
    auto bob = std::make_unique<TestClient>(one->port());
    std::string alice_token, bob_token;
    const auto game = seat_pair_keeping_tokens(alice, *bob, alice_token, bob_token);
    play(alice, *bob, game, {{0, 0}, {1, 1}}, 0, ledger);
    link.freeze();
    const auto cut_at = std::chrono::steady_clock::now();
    // The others see it dead in Redis; it plays on, committing.
    EXPECT_TRUE(eventually([&] { return two->log().find("is gone") != std::string::npos; }, 10s));
    play(alice, *bob, game, {{0, 1}}, 2, ledger);
    // Bob's link drops; at the other node his game's holder is found alive
    // in the database, and he is sent back there.
    bob.reset();
    TestClient lost(two->port());
    hello_with_token(lost, "bob", bob_token);
    const auto redirect = expect_redirect(lost, 10s);
    EXPECT_EQ(redirect.port(), one->port());
    wire::Welcome back;
    auto bob_again = follow(redirect, "bob", bob_token, back);
    EXPECT_EQ(back.game_id(), game);
    // Several sweeps of the other node pass meanwhile (the fault's length
    // is the scenario: that time must pass).
    const auto left = t.fault - (std::chrono::steady_clock::now() - cut_at);
    if (left > 0ms) std::this_thread::sleep_for(left);
    EXPECT_EQ(sql("SELECT node FROM games WHERE room_id = " + std::to_string(game)), one->id())
        << "the game of a node that still commits is not taken";
    link.heal();
    play(alice, *bob_again, game, {{2, 2}, {0, 2}}, 3, ledger);
    EXPECT_EQ(two->log().find("took over game"), std::string::npos) << two->log();
    EXPECT_TRUE(eventually(
        [&] { return redis_->cli("GET ttt:player:" + account_of("alice")) == one->id(); }, 10s))
        << "the cut node registers its players again";
    ledger.expect_kept_by(pg_->conninfo());
  }

  // Redis flushed with games in progress, then the holder killed.
  void flushed_then_killed(const Timings& t) {
    auto one = node(with(t, {"--reconnect-grace", "60"}));
    auto two = node(with(t, {"--reconnect-grace", "60"}));
    wait_for_each_other(2);
    Ledger ledger;
    auto alice = std::make_unique<TestClient>(one->port());
    auto bob = std::make_unique<TestClient>(one->port());
    std::string alice_token, bob_token;
    const auto game = seat_pair_keeping_tokens(*alice, *bob, alice_token, bob_token);
    play(*alice, *bob, game, {{0, 0}, {1, 1}}, 0, ledger);
    EXPECT_EQ(redis_->cli("FLUSHALL"), "OK");
    const auto flushed_at = std::chrono::steady_clock::now();
    // Within a heartbeat or two the node has registered everything again
    // (the time it took is printed; the bound is for a machine that is
    // slow, e.g. a sanitizer build under load, not a target).
    EXPECT_TRUE(eventually(
        [&] {
          return redis_->cli("GET ttt:player:" + account_of("alice")) == one->id() &&
                 redis_->cli("HEXISTS ttt:games " + std::to_string(game)) == "1";
        },
        15s))
        << "Redis forgot the node, which registered again";
    std::printf("flushed Redis: the node registered again within %lld ms\n",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - flushed_at)
                                           .count()));
    // The node runs on registered again for the fault's length (the
    // scenario: that time must pass), then dies.
    std::this_thread::sleep_for(t.fault);
    one->process().kill(SIGKILL);
    alice.reset();
    bob.reset();
    ASSERT_TRUE(eventually([&] { return dead_for(*two, *one, t); }, t.dead + 15s, 100ms))
        << two->log();
    // Alice by her token, bob by his name and secret: both get their game.
    auto at_two_alice = std::make_unique<TestClient>(two->port());
    hello_with_token(*at_two_alice, "alice", alice_token);
    auto w = at_two_alice->expect([](const wire::ServerMessage& m) { return m.has_welcome(); },
                                  "alice back by her token", 10s);
    EXPECT_EQ(w.welcome().game_id(), game);
    auto at_two_bob = std::make_unique<TestClient>(two->port());
    const auto bob_back = at_two_bob->hello("bob");
    EXPECT_EQ(bob_back.game_id(), game) << "bob back by his name, to his game";
    at_two_alice->expect_state([](const wire::GameState& s) { return s.move_count() == 2; },
                               "the game as it was");
    play(*at_two_alice, *at_two_bob, game, {{0, 1}, {2, 2}, {0, 2}}, 2, ledger);
    ledger.expect_kept_by(pg_->conninfo());
  }

  // PostgreSQL silent (its link frozen, as a stopped server) for a while.
  void silent_database(const Timings& t) {
    const char* host = std::getenv("PGHOST");
    const char* port = std::getenv("PGPORT");
    TcpProxy link(host ? host : "localhost",
                  static_cast<std::uint16_t>(port ? std::stoi(port) : 5432));
    auto one = node_at(pg_->conninfo() + " host=127.0.0.1 port=" + std::to_string(link.port()),
                       redis_->address(), with(t, {"--metrics", "127.0.0.1:0"}));
    wait_for_each_other(1);
    std::smatch found;
    const std::string started = one->log();
    ASSERT_TRUE(std::regex_search(started, found,
                                  std::regex("metrics over HTTP on .* \\(port ([0-9]+)\\)")));
    const auto metrics = static_cast<std::uint16_t>(std::stoi(found[1]));
    Ledger ledger;
    TestClient alice(one->port());
    TestClient bob(one->port());
    const auto game = seat_pair(alice, bob);
    play(alice, bob, game, {{0, 0}, {1, 1}}, 0, ledger);
    EXPECT_EQ(http_get(metrics, "/readyz").status, 200);
    link.freeze();
    const auto silent_at = std::chrono::steady_clock::now();
    alice.move(0, 1, game);
    const auto notice = alice.expect([](const wire::ServerMessage& m) { return m.has_notice(); },
                                     "the notice that the server waits for its database", 10s);
    EXPECT_EQ(notice.notice().code(), wire::ERROR_CODE_DATABASE_WAIT);
    const auto noticed = std::chrono::steady_clock::now() - silent_at;
    EXPECT_LT(noticed, t.flags.empty() ? 12s : 5s) << "noticed within seconds";
    bob.expect([](const wire::ServerMessage& m) { return m.has_notice(); }, "bob told too");
    EXPECT_TRUE(eventually([&] { return http_get(metrics, "/readyz").status == 503; }, 5s));
    EXPECT_NE(http_get(metrics, "/readyz").body.find("database"), std::string::npos);
    // The silence lasts the fault's length (the scenario: that time must pass).
    const auto left = t.fault - (std::chrono::steady_clock::now() - silent_at);
    if (left > 0ms) std::this_thread::sleep_for(left);
    link.heal();
    const auto healed_at = std::chrono::steady_clock::now();
    alice.expect_state([](const wire::GameState& s) { return s.move_count() == 3; },
                       "the move that waited", 15s);
    const auto resumed = std::chrono::steady_clock::now() - healed_at;
    EXPECT_LT(resumed, 5s) << "connected again at once when it answers";
    std::printf("silent database: noticed after %lld ms, play resumed %lld ms after it answered\n",
                static_cast<long long>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(noticed).count()),
                static_cast<long long>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(resumed).count()));
    EXPECT_TRUE(eventually([&] { return http_get(metrics, "/readyz").status == 200; }, 10s));
    play(alice, bob, game, {{2, 2}, {0, 2}}, 3, ledger);
    ledger.expect_kept_by(pg_->conninfo());
  }
};

TEST_F(Fencing, AStoppedHolderComesBackToFindItsGameTakenAndWritesNothingMoreToIt) {
  stopped_holder(quick(4s));
}

TEST_F(Fencing, ANodeCutFromRedisAloneKeepsItsGameWhileItStillCommits) {
  cut_from_redis(quick(4s));
}

TEST_F(Fencing, RedisFlushedThenTheHolderKilledLosesNoPlayersWayBackToItsGame) {
  flushed_then_killed(quick(500ms));
}

TEST_F(Fencing, ASilentDatabaseIsNoticedToldAndLeftAtOnceWhenItAnswers) {
  silent_database(quick(3s));
}

TEST_F(Fencing, ADrainWaitsForAGamesLastCommitBeforeSendingItsPlayersOn) {
  auto one = node({"--drain-timeout", "30"});
  auto two = node();
  wait_for_each_other(2);
  Ledger ledger;
  TestClient alice(one->port());
  TestClient bob(one->port());
  const auto game = seat_pair(alice, bob);
  play(alice, bob, game, {{0, 0}, {1, 1}, {0, 1}, {2, 2}}, 0, ledger);
  // The game's row locked by another transaction: its last write waits.
  server::PgConnection blocker(pg_->conninfo());
  blocker.exec("BEGIN");
  blocker.exec("SELECT id FROM games WHERE room_id = " + std::to_string(game) + " FOR UPDATE");
  alice.move(0, 2, game);  // x wins: the game is over, its end not yet stored
  // The node's write of the end waits on the row's lock.
  ASSERT_TRUE(eventually(
      [&] {
        return sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                   "AND wait_event_type = 'Lock'") != "0";
      },
      10s, 20ms))
      << "the node never tried to write the game's end";
  ::kill(one->process().pid(), SIGTERM);
  ASSERT_TRUE(eventually(
      [&] { return one->log().find("draining: no new games here") != std::string::npos; }, 10s))
      << one->log();
  // The drain waits for the write: that it waits, not what it waits on,
  // is the point, so a second must pass before the write lands.
  std::this_thread::sleep_for(1s);
  blocker.exec("COMMIT");
  for (TestClient* player : {&alice, &bob}) {
    bool ended = false;
    for (;;) {
      auto m = player->receive(10s);
      ASSERT_TRUE(m) << "neither the end nor a Redirect came";
      if (m->has_state() && is_over(m->state())) {
        ended = true;
        ledger.saw(m->state());
      }
      if (m->has_redirect()) break;
    }
    EXPECT_TRUE(ended) << "a player sent on before it heard how its game ended";
  }
  EXPECT_EQ(one->process().wait_exit(20s), 0);
  ledger.expect_kept_by(pg_->conninfo());
}

// The same scenarios with the default timings and the report's durations.
TEST_F(Fencing, DISABLED_SoakAHolderStoppedFor25Seconds) { stopped_holder(defaults(25s)); }
TEST_F(Fencing, DISABLED_SoakANodeCutFromRedisFor45Seconds) { cut_from_redis(defaults(45s)); }
TEST_F(Fencing, DISABLED_SoakRedisFlushedThenTheHolderKilled15SecondsLater) {
  flushed_then_killed(defaults(15s));
}
TEST_F(Fencing, DISABLED_SoakADatabaseSilentFor30Seconds) { silent_database(defaults(30s)); }

}  // namespace
}  // namespace ttt::testing
