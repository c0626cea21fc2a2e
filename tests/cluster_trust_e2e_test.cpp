// Redis is not a master key: whoever can read, write or publish on the
// nodes' Redis (but lacks the key the nodes share) can't log in as anyone.
// Each attack of the red team's report, end to end against real ttt-server
// nodes, a real redis-server and PostgreSQL: (a) a resume token written into
// Redis, (b) a seat request published in a victim's name, (c) a reservation
// read off a node's channel and used first, (d) a fake node's heartbeat and
// a victim's player pointed at it. And a client that asks for a game's seat
// at another node and never goes can't keep it from others.
#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <mutex>
#include <thread>

#include "client_support/test_certificates.hpp"
#include "lobby/secrets.hpp"
#include "node.pb.h"
#include "redis/node_signer.hpp"
#include "redis/redis_client.hpp"
#include "support/lobby_nodes.hpp"

namespace ttt::testing {
namespace {

using namespace std::chrono_literals;

// spdlog makes its registry on first use. Made here, before any of the test's
// threads, not by two of them at once: the guard of that static is inside
// libspdlog, where ThreadSanitizer can't see it, so it reported a race.
const std::shared_ptr<spdlog::logger> kLogger = spdlog::default_logger();

// A subscriber to some of Redis's channels, as an attacker who can read
// them: every message heard, as published (signed or not).
class Eavesdropper {
 public:
  Eavesdropper(std::uint16_t port, std::vector<std::string> channels)
      : work_(boost::asio::make_work_guard(io_)) {
    std::string error;
    auto address = *server::redis::parse_redis_address("127.0.0.1:" + std::to_string(port), error);
    client_ = std::make_shared<server::redis::RedisClient>(io_.get_executor(), address,
                                                           server::redis::RedisClient::Options{});
    client_->subscribe(std::move(channels), [this](const std::string&, const std::string& payload) {
      std::lock_guard lock(mutex_);
      heard_.push_back(payload);
    });
    client_->start();
    thread_ = std::thread([this] { io_.run(); });
    eventually([this] { return client_->up(); }, 2s, 20ms);
  }
  ~Eavesdropper() {
    boost::asio::post(io_, [this] { client_->close(); });
    work_.reset();
    io_.stop();
    thread_.join();
  }
  std::vector<std::string> heard() {
    std::lock_guard lock(mutex_);
    return heard_;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::shared_ptr<server::redis::RedisClient> client_;
  std::mutex mutex_;
  std::vector<std::string> heard_;
  std::thread thread_;
};

// Redis's clock, in ms.
std::int64_t redis_now_ms(const RedisScratch& redis) {
  const std::string time = redis.cli("TIME");  // "seconds\nmicroseconds"
  const auto newline = time.find('\n');
  return std::stoll(time.substr(0, newline)) * 1000 + std::stoll(time.substr(newline + 1)) / 1000;
}

class RedisIsNoMasterKey : public Nodes {
 protected:
  std::string account_of(const std::string& name) {
    return sql("SELECT id FROM players WHERE name = '" + name + "'");
  }
};

TEST_F(RedisIsNoMasterKey, ATokenWrittenIntoRedisLogsNobodyIn) {
  auto one = node();
  wait_for_each_other(1);
  {
    TestClient victim(one->port());
    victim.hello("victim");
  }
  // The attacker picks a token and says in Redis it is the victim's.
  const std::string token(64, 'a');
  redis_->cli("SET ttt:token:" + server::sha256_hex(token) + " \"" + account_of("victim") + "\t" +
              one->id() + "\"");
  TestClient attacker(one->port(), "127.0.0.1", "127.0.0.3");
  hello_with_token(attacker, "victim", token);
  const auto answer =
      attacker.expect([](const wire::ServerMessage& m) { return m.has_welcome() || m.has_error(); },
                      "the answer to the forged token");
  EXPECT_FALSE(answer.has_welcome()) << "logged in as " << answer.welcome().name();
  EXPECT_EQ(answer.error().code(), wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

TEST_F(RedisIsNoMasterKey, ASeatRequestPublishedInAVictimsNameIsNotAnswered) {
  auto one = node();
  wait_for_each_other(1);
  TestClient alice(one->port());
  alice.hello("alice");
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  {
    TestClient victim(one->port());
    victim.hello("victim");
  }
  Eavesdropper replies(redis_->port(), {"ttt:rpc:evil"});
  node::NodeMessage forged;
  forged.set_id(7);
  forged.set_from("evil");
  auto* request = forged.mutable_seat_request();
  request->set_kind(node::SeatRequest::KIND_JOIN);
  request->set_game(game);
  request->set_account(std::stoull(account_of("victim")));
  request->set_name("victim");
  // Unsigned, and signed with a key of the attacker's own.
  const server::redis::NodeSigner guess(std::string(40, 'g'));
  const std::string channel = "ttt:rpc:" + one->id();
  std::string error;
  auto address = *server::redis::parse_redis_address(redis_->address(), error);
  boost::asio::io_context io;
  auto publisher = std::make_shared<server::redis::RedisClient>(
      io.get_executor(), address, server::redis::RedisClient::Options{});
  publisher->start();
  int published = 0;
  for (const std::string& payload :
       {forged.SerializeAsString(), guess.sign(channel, forged.SerializeAsString())}) {
    publisher->command({"PUBLISH", channel, payload}, [&](const server::redis::RedisResult& r) {
      if (r.ok() && r.value->integer > 0) ++published;
    });
  }
  for (int i = 0; i < 200 && published < 2; ++i) io.run_for(10ms);
  publisher->close();
  ASSERT_EQ(published, 2) << "the node hears its channel";
  EXPECT_TRUE(eventually(
      [&] {
        return one->log().find("on " + channel + " not signed with this lobby's key") !=
               std::string::npos;
      },
      10s))
      << one->log();
  // The test is that no answer comes: a while must pass for one to come.
  std::this_thread::sleep_for(1500ms);
  EXPECT_TRUE(replies.heard().empty()) << "a forged request was answered";
}

TEST_F(RedisIsNoMasterKey, AReservationReadOffAChannelIsNoUseWithoutThePlayersOwnToken) {
  auto one = node();
  auto two = node();
  wait_for_each_other(2);
  TestClient alice(one->port());
  alice.hello("alice");
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  Eavesdropper spy(redis_->port(), {"ttt:rpc:" + two->id()});
  TestClient bob(two->port(), "127.0.0.1", "127.0.0.2");
  const auto bob_token = bob.hello("bob").resume_token();
  ASSERT_TRUE(wait_listed(bob, game)) << "node two never listed game " << game;
  bob.join(game);
  const auto redirect = expect_redirect(bob);
  ASSERT_FALSE(redirect.reservation().empty());
  // The attacker read the reservation as it went by (signed, not secret)...
  std::string seen;
  eventually(
      [&] {
        for (const auto& payload : spy.heard()) {
          // Signed (the tag first) or not: either way it reads.
          for (std::size_t skip : {std::size_t{0}, server::redis::NodeSigner::kTagBytes}) {
            node::NodeMessage m;
            if (payload.size() > skip && m.ParseFromString(payload.substr(skip)) &&
                m.has_seat_reply() && !m.seat_reply().reservation().empty()) {
              seen = m.seat_reply().reservation();
            }
          }
        }
        return !seen.empty();
      },
      1s, 20ms);
  ASSERT_EQ(seen, redirect.reservation());
  // ...and uses it first, under any name.
  TestClient mallory(one->port(), "127.0.0.1", "127.0.0.3");
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("mallory");
  hello.mutable_hello()->set_reservation(seen);
  mallory.send(hello);
  const auto answer =
      mallory.expect([](const wire::ServerMessage& m) { return m.has_welcome() || m.has_error(); },
                     "the answer to the stolen reservation");
  EXPECT_FALSE(answer.has_welcome()) << "welcomed as " << answer.welcome().name();
  // Bob, with his own token, still finds his seat.
  wire::Welcome welcome;
  auto bob_there = follow(redirect, "bob", bob_token, welcome);
  EXPECT_EQ(welcome.name(), "bob");
  EXPECT_EQ(welcome.game_id(), game);
  bob_there->expect_joined();
}

TEST_F(RedisIsNoMasterKey, AFakeNodesHeartbeatSendsNoPlayerToIt) {
  auto one = node();
  wait_for_each_other(1);
  {
    TestClient bob(one->port());
    bob.hello("bob");
  }
  // A heartbeat of the attacker's "node" (fresh, in either format a node
  // reads, but not signed with the lobby's key), and bob's player pointed
  // at it.
  auto fake_beat = [&] {
    const std::string now = std::to_string(redis_now_ms(*redis_));
    redis_->cli("SET ttt:node:evil \"127.0.0.1\t9\tSHA256:00\t0\t0\t" + now + "\t" + now +
                "\" PX 60000");
  };
  redis_->cli("SADD ttt:nodes evil");
  fake_beat();
  redis_->cli("SET ttt:player:" + account_of("bob") + " evil");
  // A heartbeat of the real node reads it.
  EXPECT_TRUE(eventually(
      [&] {
        return one->log().find("the heartbeat of \"evil\" is not signed") != std::string::npos;
      },
      10s))
      << one->log();
  fake_beat();
  TestClient bob(one->port());
  const auto welcome = bob.hello("bob");  // with bob's secret
  EXPECT_EQ(welcome.name(), "bob") << "bob stays at the real node, not sent to the fake one";
  EXPECT_NE(one->log().find("not signed with this lobby's key"), std::string::npos);
}

TEST_F(RedisIsNoMasterKey, AClientThatNeverTakesTheSeatsKeptForItCantKeepAGamesSeatFromOthers) {
  auto one = node({"--seat-hold", "0.4"});
  auto two = node({"--seat-hold", "0.4"});
  wait_for_each_other(2);
  TestClient alice(one->port());
  alice.hello("alice");
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  {
    TestClient lister(two->port());
    lister.hello("lister");
    ASSERT_TRUE(wait_listed(lister, game)) << "node two never listed game " << game;
  }
  // The squatter: a new account each time, from one address, asks for the
  // seat at the other node and never goes there.
  auto squat = [&](int i) {
    TestClient squatter(two->port(), "127.0.0.1", "127.0.0.3");
    squatter.hello("squatter" + std::to_string(i));
    squatter.join(game);
    return squatter.expect(
        [](const wire::ServerMessage& m) { return m.has_redirect() || m.has_error(); },
        "a seat kept, or refused");
  };
  EXPECT_TRUE(squat(1).has_redirect());
  // Left untaken, the seat lapses after --seat-hold (0.4 s): the time must pass.
  std::this_thread::sleep_for(700ms);
  EXPECT_TRUE(squat(2).has_redirect());
  std::this_thread::sleep_for(700ms);
  const auto third = squat(3);
  ASSERT_TRUE(third.has_error()) << "a third seat left untaken is refused";
  EXPECT_EQ(third.error().code(), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(third.error().text().find("left untaken"), std::string::npos) << third.error().text();
  // A real player from elsewhere gets the seat at once.
  TestClient bob(two->port(), "127.0.0.1", "127.0.0.2");
  const auto token = bob.hello("bob").resume_token();
  bob.join(game);
  const auto redirect = expect_redirect(bob);
  wire::Welcome welcome;
  auto bob_there = follow(redirect, "bob", token, welcome);
  EXPECT_EQ(welcome.game_id(), game);
  bob_there->expect_joined();
}

// Redis with its own protection: an ACL user with a password, and TLS only
// (a CA of the test's own). Nodes log in over TLS and play across nodes;
// a wrong password or an unchecked certificate is a clear error at start.
TEST_F(RedisIsNoMasterKey, NodesLogInToRedisWithAnAclUserOverTls) {
  TempDir dir;
  TestCa ca(dir.path());
  const auto certificate = ca.issue(dir.path(), "redis", {"127.0.0.1"});
  RedisScratch::Options options;
  options.tls = true;
  options.server_args = {"--tls-cert-file",
                         certificate.cert,
                         "--tls-key-file",
                         certificate.key,
                         "--tls-ca-cert-file",
                         ca.cert_file(),
                         "--tls-auth-clients",
                         "no",
                         "--user",
                         "default",
                         "off",
                         "--user",
                         "ttt",
                         "on",
                         ">s3cret",
                         "~*",
                         "&*",
                         "+@all"};
  options.cli_args = {"--tls", "--cacert", ca.cert_file(), "--user", "ttt", "--pass", "s3cret"};
  redis_ = std::make_unique<RedisScratch>(options);
  ASSERT_EQ(redis_->cli("PING"), "PONG");
  const std::string url = "rediss://ttt:s3cret@127.0.0.1:" + std::to_string(redis_->port());
  auto make = [&](const std::string& redis, std::vector<std::string> extra) {
    auto n = std::make_shared<Node>(pg_->conninfo(), redis, key_.path(), std::move(extra));
    nodes_.push_back(n);
    return n;
  };
  auto one = make(url, {"--redis-ca", ca.cert_file()});
  auto two = make(url, {"--redis-ca", ca.cert_file()});
  wait_for_each_other(2);
  EXPECT_EQ(one->log().find("s3cret"), std::string::npos) << "the password is never logged";
  TestClient alice(one->port());
  alice.hello("alice");
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  TestClient bob(two->port());
  const auto token = bob.hello("bob").resume_token();
  ASSERT_TRUE(wait_listed(bob, game)) << "node two never listed game " << game;
  bob.join(game);
  wire::Welcome welcome;
  auto bob_there = follow(expect_redirect(bob), "bob", token, welcome);
  EXPECT_EQ(welcome.game_id(), game);
  bob_there->expect_joined();
  // Stopped cleanly, the nodes take their TLS relays' sockets away.
  for (auto* n : {one.get(), two.get()}) {
    ::kill(n->process().pid(), SIGINT);
    EXPECT_EQ(n->process().wait_exit(10s), 0);
  }
  // A wrong password, and Redis's certificate checked against the system's
  // CAs (which never signed it): neither node starts.
  const std::vector<std::string> base{bin_dir() + "/ttt-server",
                                      "--bind",
                                      "127.0.0.1",
                                      "--port",
                                      "0",
                                      "--no-tls",
                                      "--postgres",
                                      pg_->conninfo(),
                                      "--cluster-key-file",
                                      key_.path()};
  auto start = [&](std::vector<std::string> more) {
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), more.begin(), more.end());
    return run_command(argv, 20s);
  };
  auto r =
      start({"--redis", "rediss://ttt:n0t-the-pass@127.0.0.1:" + std::to_string(redis_->port()),
             "--redis-ca", ca.cert_file()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("the login (AUTH) refused"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("n0t-the-pass"), std::string::npos) << "no password in the output";
  r = start({"--redis", url});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("certificate"), std::string::npos) << r.output;
  r = start({"--redis", url.substr(0, 5) + url.substr(6)});  // redis://: plain to a TLS port
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("can't be reached"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ttt::testing
