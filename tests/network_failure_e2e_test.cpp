// Network failures end to end: ttt-server in this namespace, each player's
// ttt-client in a network namespace of its own joined by a veth pair, and a
// link taken down (`ip link set down`) for a while. What each client, the
// opponent and a spectator print, and when, with bounds. The server runs with
// a 2 s heartbeat timeout and a 6 s seat grace so that the suite stays fast;
// the proportions are those of the defaults (10 s and 30 s).
//
// Needs root (namespaces, links): skipped with a message otherwise. Every
// namespace (and so its veth pair) and process is removed however a test
// ends.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <regex>
#include <thread>

#include "client_support/client_programs.hpp"
#include "client_support/two_players.hpp"

namespace ttt::testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kIp = "/usr/sbin/ip";

bool run_ip(const std::vector<std::string>& args) {
  std::vector<std::string> argv{kIp};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, 10s).exit_code == 0;
}

// A network namespace with one veth pair to ours: HOST_ADDR here, PEER_ADDR
// inside. The destructor deletes the namespace, which takes the pair with it.
class Namespace {
 public:
  explicit Namespace(int n) {
    const int pid = static_cast<int>(::getpid());
    name_ = "ttt-nf-" + std::to_string(pid) + "-" + std::to_string(n);
    host_if_ = "tnf" + std::to_string(pid % 1'000'000) + "h" + std::to_string(n);
    const std::string peer_if = "tnf" + std::to_string(pid % 1'000'000) + "p" + std::to_string(n);
    // A /30 of our own in 10/8, from the pid and n: tests run in parallel,
    // and two that share a /30 would reach each other's namespaces. 20 bits
    // of pid and 2 of n fill the 22 bits above the /30: two test processes
    // share one only if their pids are a multiple of 2^20 apart.
    const std::uint32_t base =
        ((static_cast<std::uint32_t>(pid) % (1u << 20)) * 4u + static_cast<std::uint32_t>(n)) * 4u;
    const std::string prefix = "10." + std::to_string((base >> 16) & 255u) + "." +
                               std::to_string((base >> 8) & 255u) + ".";
    host_addr_ = prefix + std::to_string((base & 255u) + 1u);
    peer_addr_ = prefix + std::to_string((base & 255u) + 2u);
    ok_ = run_ip({"netns", "add", name_});
    if (!ok_) return;
    ok_ = run_ip({"link", "add", host_if_, "type", "veth", "peer", "name", peer_if}) &&
          run_ip({"link", "set", peer_if, "netns", name_}) &&
          run_ip({"addr", "add", host_addr_ + "/30", "dev", host_if_}) &&
          run_ip({"link", "set", host_if_, "up"}) &&
          run_ip({"-n", name_, "addr", "add", peer_addr_ + "/30", "dev", peer_if}) &&
          run_ip({"-n", name_, "link", "set", peer_if, "up"}) &&
          run_ip({"-n", name_, "link", "set", "lo", "up"});
  }
  ~Namespace() {
    run_ip({"netns", "del", name_});
    run_ip({"link", "del", host_if_});  // gone with the namespace; in case the move failed
  }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

  bool ok() const noexcept { return ok_; }
  const std::string& name() const noexcept { return name_; }
  const std::string& host_addr() const noexcept { return host_addr_; }
  // The cable pulled out and put back: nothing passes, nobody is told.
  bool link(bool up) { return run_ip({"link", "set", host_if_, up ? "up" : "down"}); }

 private:
  std::string name_;
  std::string host_if_;
  std::string host_addr_;
  std::string peer_addr_;
  bool ok_ = false;
};

class NetworkFailureE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make network namespaces and veth pairs";
    for (int i = 0; i < 3; ++i) spaces_.push_back(std::make_unique<Namespace>(i));
    for (const auto& space : spaces_) {
      if (!space->ok()) GTEST_SKIP() << "could not make a network namespace with a veth pair";
    }
  }

  // ttt-server listening on every address here (on port_ again once it has
  // one: a restart), keeping its games in db ("none": nowhere).
  void start_server(const std::vector<std::string>& extra, const std::string& db = "none") {
    std::vector<std::string> argv{bin_dir() + "/ttt-server",
                                  "--bind",
                                  "0.0.0.0",
                                  "--port",
                                  port_.empty() ? "0" : port_,
                                  "--db",
                                  db,
                                  "--log-level",
                                  "warn",
                                  "--heartbeat-timeout",
                                  "2",
                                  "--reconnect-grace",
                                  "6",
                                  "--tls-dir",
                                  tls_.path()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ChildProcess>(argv);
    const std::regex line(R"(listening on port (\d+)\n)");
    std::smatch match;
    ASSERT_TRUE(server_->wait_for(
        [&](const std::string& out) { return std::regex_search(out, match, line); }, 10s))
        << server_->output();
    port_ = match[1].str();
    // The clients pin the server's certificate, as a player given it would.
    const std::regex fingerprint(R"(tls fingerprint: (SHA256:[A-Za-z0-9+/]+)\n)");
    ASSERT_TRUE(std::regex_search(server_->output(), match, fingerprint)) << server_->output();
    fingerprint_ = match[1].str();
  }

  // ttt-client NAME inside namespace i, talking to the server over its veth.
  // extra: more flags (e.g. --restart-wait).
  std::unique_ptr<ChildProcess> client(int i, const std::string& name,
                                       const std::vector<std::string>& extra = {}) {
    const Namespace& space = *spaces_[static_cast<std::size_t>(i)];
    std::vector<std::string> argv{kIp, "netns", "exec", space.name(), bin_dir() + "/ttt-client",
                                  "--host", space.host_addr(), "--port", port_, "--name", name,
                                  "--fingerprint", fingerprint_,
                                  // A short --retry: the held seat (or a restart's wait), not
                                  // the flag, sets how long a player in a game keeps trying.
                                  "--retry", "1", "--connect-timeout", "2"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<ChildProcess>(
        argv, std::vector<std::string>{"XDG_CONFIG_HOME=" + config_.path(), "NO_COLOR=1"});
  }

  // A step (two_players.hpp) with the namespaces' longer wait.
  static ::testing::AssertionResult step(ChildProcess& who, const std::string& line,
                                         ChildProcess& reader, std::string_view expected) {
    return ttt::testing::step(who, line, reader, expected, 10s);
  }

  // alice (X, namespace 0) and bob (O, namespace 1) in game 1, carol
  // (namespace 2) watching; alice to move.
  void start_game(const std::vector<std::string>& extra = {}) {
    alice_ = client(0, "alice", extra);
    bob_ = client(1, "bob", extra);
    carol_ = client(2, "carol", extra);
    ASSERT_TRUE(seat_two_players(*alice_, *bob_, 10s));
    ASSERT_TRUE(step(*carol_, "/watch 1", *carol_, "Watching game 1."));
  }

  // Seconds since `start`, for the bounds.
  static double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  TempDir config_;
  TempDir tls_;  // the server's key and certificate
  std::vector<std::unique_ptr<Namespace>> spaces_;
  // Declared after the namespaces: destroyed (killed) first.
  std::unique_ptr<ChildProcess> server_;
  std::unique_ptr<ChildProcess> alice_, bob_, carol_;
  std::string port_;
  std::string fingerprint_;
};

TEST_F(NetworkFailureE2E, AnOutageWithinTheGraceIsSeenByAllAndAMoveTypedMeanwhileIsPlayed) {
  start_server({"--move-timeout", "0"});
  start_game();
  const std::size_t bob_from = bob_->output().size();
  const std::size_t carol_from = carol_->output().size();
  const auto down = Clock::now();
  ASSERT_TRUE(spaces_[0]->link(false));
  // Within the heartbeat timeout (plus a second of slack) everyone knows.
  ASSERT_TRUE(
      bob_->wait_for_text("alice (X) lost the connection; the seat is held 6 s", 5s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_LT(since(down), 3.5);
  EXPECT_TRUE(
      carol_->wait_for_text("alice (X) lost the connection; the seat is held", 5s, carol_from))
      << carol_->output().substr(carol_from);
  ASSERT_TRUE(alice_->wait_for_text("Connection lost (", 5s)) << alice_->output();
  EXPECT_LT(since(down), 3.5);
  std::printf("the server and the clients noticed within %.1f s\n", since(down));
  EXPECT_TRUE(alice_->wait_for_text("the server holds your seat 6 s after it notices", 1s))
      << alice_->output();
  // A move typed now waits for the link.
  ASSERT_TRUE(step(*alice_, "b2", *alice_, "(b2 is pending: it is sent when the connection"));
  std::this_thread::sleep_until(down + 4s);
  ASSERT_TRUE(spaces_[0]->link(true));
  ASSERT_TRUE(alice_->wait_for_text("Reconnected as alice: back in game 1.", 10s))
      << alice_->output();
  EXPECT_TRUE(alice_->wait_for_text("Sending the moves typed while disconnected.", 5s))
      << alice_->output();
  EXPECT_TRUE(bob_->wait_for_text("alice (X) is back.", 5s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_TRUE(carol_->wait_for_text("alice (X) is back.", 5s, carol_from))
      << carol_->output().substr(carol_from);
  EXPECT_TRUE(bob_->wait_for_text("alice (X) played b2.", 5s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_EQ(bob_->output().find("Game over", bob_from), std::string::npos) << bob_->output();
}

TEST_F(NetworkFailureE2E, AnOutageLongerThanTheGraceLosesTheGameAndTheClientSaysSoOnReturn) {
  start_server({"--move-timeout", "0"});
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));  // two moves each: a rated game
  ASSERT_TRUE(step(*bob_, "a1", *alice_, "Your turn (X)"));
  ASSERT_TRUE(step(*alice_, "c1", *bob_, "alice (X) played c1."));
  ASSERT_TRUE(step(*bob_, "a3", *alice_, "bob (O) played a3."));
  const std::size_t bob_from = bob_->output().size();
  const auto down = Clock::now();
  ASSERT_TRUE(spaces_[0]->link(false));
  // Noticed within 2 s, then held 6 s: decided by about 8 s.
  // Meanwhile the held seat counts down on the opponent's screen.
  EXPECT_TRUE(bob_->wait_for_text("alice (X) is away: the seat is held ", 10s, bob_from))
      << bob_->output().substr(bob_from);
  ASSERT_TRUE(bob_->wait_for_text("Game over: O wins (X disconnected)", 12s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_TRUE(
      std::regex_search(bob_->output().substr(bob_from),
                        std::regex(R"(alice \(X\) is away: the seat is held [1-5] s more\.)")))
      << bob_->output().substr(bob_from);
  EXPECT_GT(since(down), 6.0);
  EXPECT_LT(since(down), 10.5);
  EXPECT_TRUE(bob_->wait_for_text("Your rating: 1200 -> 1216 (+16).", 2s, bob_from))
      << bob_->output().substr(bob_from);
  // alice's client still tries (in a game, as long as a restarted server
  // could give it back): the link back at 10 s finds it, and it says what
  // happened.
  std::this_thread::sleep_until(down + 10s);
  EXPECT_FALSE(alice_->wait_exit(0ms)) << alice_->output();
  ASSERT_TRUE(spaces_[0]->link(true));
  ASSERT_TRUE(alice_->wait_for_text(
      "While you were away, game 1 against bob ended: O wins (X disconnected). You lost; your "
      "rating 1200 -> 1184 (-16).",
      8s))
      << alice_->output();
  EXPECT_NE(alice_->output().find("The server no longer holds your game: you are in the lobby."),
            std::string::npos)
      << alice_->output();
  EXPECT_EQ(alice_->output().find("taking your seat back"), std::string::npos);
}

TEST_F(NetworkFailureE2E, TheClientGivesUpOnlyAfterTheSeatIsGoneAndSaysWhy) {
  start_server({"--move-timeout", "0"});
  start_game({"--restart-wait", "0"});  // only the seat: no wait for a restart
  const auto down = Clock::now();
  ASSERT_TRUE(spaces_[0]->link(false));
  const auto code = alice_->wait_exit(25s);
  ASSERT_EQ(code, 1) << alice_->output();
  // 6 s of grace, 2 s to notice, 5 s of margin after its own notice.
  EXPECT_GT(since(down), 12.0);
  EXPECT_NE(alice_->output().find("as long as the server could still hold your seat"),
            std::string::npos)
      << alice_->output();
}

TEST_F(NetworkFailureE2E, TheMoveClockRunsOutWhileAwayAsADisconnect) {
  start_server({"--move-timeout", "3", "--reconnect-grace", "20"});
  start_game();
  const std::size_t bob_from = bob_->output().size();
  ASSERT_TRUE(spaces_[0]->link(false));  // on alice's turn
  ASSERT_TRUE(bob_->wait_for_text("alice (X) lost the connection", 5s, bob_from))
      << bob_->output().substr(bob_from);
  ASSERT_TRUE(bob_->wait_for_text("Game over: O wins (X disconnected)", 8s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_TRUE(carol_->wait_for_text("Game over: O wins (X disconnected)", 5s)) << carol_->output();
}

// A blip shorter than the heartbeat timeout: TCP carries the move typed
// during it once the link is back, and nobody is told of an outage that
// nobody could have seen.
TEST_F(NetworkFailureE2E, ABlipShorterThanDetectionGoesUnnoticedAndTheMoveArrives) {
  start_server({"--move-timeout", "0"});
  start_game();
  const std::size_t bob_from = bob_->output().size();
  const std::size_t alice_from = alice_->output().size();
  ASSERT_TRUE(spaces_[0]->link(false));
  alice_->write("b2\n");  // sent into the dead link: the kernel keeps it
  // The blip itself: the link stays down a while, shorter than detection.
  std::this_thread::sleep_for(700ms);
  ASSERT_TRUE(spaces_[0]->link(true));
  ASSERT_TRUE(bob_->wait_for_text("alice (X) played b2.", 10s, bob_from))
      << bob_->output().substr(bob_from);
  EXPECT_EQ(bob_->output().find("lost the connection", bob_from), std::string::npos)
      << bob_->output().substr(bob_from);
  EXPECT_EQ(alice_->output().find("Connection lost", alice_from), std::string::npos)
      << alice_->output().substr(alice_from);
  EXPECT_EQ(carol_->output().find("lost the connection"), std::string::npos) << carol_->output();
}

// With a move clock: an outage that ends within the grace leaves the game
// going, and the clock kept running while the player was away (the rule of
// docs/protocol.md, "The clock while away").
TEST_F(NetworkFailureE2E, WithAMoveClockAnOutageWithinTheGraceCostsOnlyClockTime) {
  start_server({"--move-timeout", "20", "--reconnect-grace", "10"});
  start_game();
  const std::size_t bob_from = bob_->output().size();
  const auto down = Clock::now();
  ASSERT_TRUE(spaces_[0]->link(false));  // on alice's turn
  ASSERT_TRUE(bob_->wait_for_text("alice (X) lost the connection", 5s, bob_from))
      << bob_->output().substr(bob_from);
  std::this_thread::sleep_until(down + 5s);
  const std::size_t alice_from = alice_->output().size();
  ASSERT_TRUE(spaces_[0]->link(true));
  ASSERT_TRUE(alice_->wait_for_text("Reconnected as alice: back in game 1.", 10s, alice_from))
      << alice_->output().substr(alice_from);
  ASSERT_TRUE(bob_->wait_for_text("alice (X) is back.", 5s, bob_from))
      << bob_->output().substr(bob_from);
  // Her turn goes on with what is left of her 20 s, not a fresh clock.
  const std::regex left(R"(Your turn \(X\): type a cell like b2 \((\d+) s left\))");
  int seconds = 0;
  ASSERT_TRUE(alice_->wait_for(
      [&](const std::string& out) {
        const std::string fresh = out.substr(alice_from);
        std::smatch match;
        if (!std::regex_search(fresh, match, left)) return false;
        seconds = std::stoi(match[1].str());
        return true;
      },
      5s))
      << alice_->output().substr(alice_from);
  EXPECT_LE(seconds, 15) << "the clock ran while she was away";
  EXPECT_GT(seconds, 0);
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "alice (X) played b2."));
  EXPECT_EQ(bob_->output().find("Game over", bob_from), std::string::npos) << bob_->output();
}

TEST_F(NetworkFailureE2E, TheOpponentLosesTheLinkOnTheirTurnAndTheirPendingMoveIsPlayed) {
  start_server({"--move-timeout", "0"});
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));
  const std::size_t alice_from = alice_->output().size();
  ASSERT_TRUE(spaces_[1]->link(false));  // bob, to move, loses his link
  ASSERT_TRUE(
      alice_->wait_for_text("bob (O) lost the connection; the seat is held 6 s", 5s, alice_from))
      << alice_->output().substr(alice_from);
  ASSERT_TRUE(bob_->wait_for_text("Connection lost (", 5s)) << bob_->output();
  ASSERT_TRUE(step(*bob_, "a1", *bob_, "(a1 is pending"));
  ASSERT_TRUE(spaces_[1]->link(true));
  ASSERT_TRUE(bob_->wait_for_text("Reconnected as bob: back in game 1.", 10s)) << bob_->output();
  ASSERT_TRUE(alice_->wait_for_text("bob (O) played a1.", 5s, alice_from))
      << alice_->output().substr(alice_from);
}

TEST_F(NetworkFailureE2E, AMoveTypedOfflineIsDroppedWhenThePositionChanged) {
  start_server({"--move-timeout", "0"});
  start_game();
  ASSERT_TRUE(step(*alice_, "b2", *bob_, "Your turn (O)"));
  ASSERT_TRUE(spaces_[0]->link(false));  // alice waits for bob, and loses her link
  ASSERT_TRUE(alice_->wait_for_text("Connection lost (", 5s)) << alice_->output();
  ASSERT_TRUE(step(*alice_, "c3", *alice_, "(c3 is pending"));
  ASSERT_TRUE(bob_->wait_for_text("alice (X) lost the connection", 5s)) << bob_->output();
  ASSERT_TRUE(step(*bob_, "a1", *carol_, "bob (O) played a1."));
  ASSERT_TRUE(spaces_[0]->link(true));
  ASSERT_TRUE(
      alice_->wait_for_text("Not sent: c3 (the position changed while you were "
                            "disconnected; look at the board and move again).",
                            10s))
      << alice_->output();
  EXPECT_TRUE(alice_->wait_for_text("Your turn (X)", 5s)) << alice_->output();
}

// The server killed mid-game and down for 90 s (longer than the seat's
// grace and the old 45 s of retrying): both players and a spectator keep
// trying with a countdown, come back when it restarts (its grace starts
// again for everyone) and finish the game. One real 90 s wait: this runs in
// parallel with the rest of the suite.
TEST_F(NetworkFailureE2E, AServerDownNinetySecondsMidGameGetsEveryoneBackToFinishIt) {
  TempDir data;
  const std::string db = data.path() + "/ttt.db";
  start_server({"--move-timeout", "0"}, db);
  start_game();
  ASSERT_TRUE(step(*alice_, "a1", *bob_, "Your turn (O)"));
  ASSERT_TRUE(step(*bob_, "b1", *alice_, "Your turn (X)"));
  std::vector<ChildProcess*> everyone{alice_.get(), bob_.get(), carol_.get()};
  std::vector<std::size_t> from;
  for (ChildProcess* who : everyone) from.push_back(who->output().size());
  const auto down = Clock::now();
  server_->kill(SIGKILL);
  for (std::size_t i = 0; i < everyone.size(); ++i) {
    ASSERT_TRUE(everyone[i]->wait_for_text("Connection lost (", 10s, from[i]))
        << everyone[i]->output().substr(from[i]);
    EXPECT_TRUE(everyone[i]->wait_for_text("reconnecting for up to 5 min", 1s, from[i]))
        << everyone[i]->output().substr(from[i]);
  }
  EXPECT_TRUE(alice_->wait_for_text("a restarted server gives the game back", 1s, from[0]))
      << alice_->output().substr(from[0]);
  // A minute on, the countdown is said again (and the prompt counts on a
  // terminal); nobody gave up.
  for (std::size_t i = 0; i < everyone.size(); ++i) {
    EXPECT_TRUE(everyone[i]->wait_for_text("Still reconnecting: 4 min left.", 75s, from[i]))
        << everyone[i]->output().substr(from[i]);
  }
  std::this_thread::sleep_until(down + 90s);
  for (ChildProcess* who : everyone) ASSERT_FALSE(who->wait_exit(0ms)) << who->output();
  start_server({"--move-timeout", "0"}, db);
  ASSERT_TRUE(alice_->wait_for_text("The server restarted: back in game 1.", 15s, from[0]))
      << alice_->output().substr(from[0]);
  ASSERT_TRUE(bob_->wait_for_text("The server restarted: back in game 1.", 15s, from[1]))
      << bob_->output().substr(from[1]);
  ASSERT_TRUE(carol_->wait_for_text("Watching game 1 again.", 15s, from[2]))
      << carol_->output().substr(from[2]);
  std::printf("everyone was back %.1f s after the server went down\n", since(down));
  ASSERT_TRUE(step(*alice_, "a2", *bob_, "alice (X) played a2."));
  ASSERT_TRUE(step(*bob_, "b2", *alice_, "bob (O) played b2."));
  alice_->write("a3\n");
  for (std::size_t i = 0; i < everyone.size(); ++i) {
    EXPECT_TRUE(everyone[i]->wait_for_text("Game over: X wins (column a)", 10s, from[i]))
        << everyone[i]->output().substr(from[i]);
  }
  // The spectator was told once where it is, not twice.
  const std::string carol_after = carol_->output().substr(from[2]);
  EXPECT_EQ(count_of(carol_after, "Watching game 1"), 1u) << carol_after;
}

}  // namespace
}  // namespace ttt::testing
