// The client's Connection against a lobby of several nodes, with
// scripted stand-ins for the nodes on loopback: a Redirect followed (at
// once, with the secret or token and the reservation, over TLS pinned by the
// fingerprint the redirecting node vouched for), unprompted mid-session,
// hostile redirects and loops refused with a clear reason, and the lobby's
// addresses tried in order (the first connect, and after a lost link the
// node the client was on first).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>

#include "client_support/child_process.hpp"
#include "client_support/fake_server.hpp"
#include "client_support/test_certificates.hpp"
#include "link/connection.hpp"
#include "trust/known_servers.hpp"

namespace ttt::testing {
namespace {

using client::Connection;
using client::ConnectionOptions;

// What a Connection reported, from its own thread.
class Recorder : public client::ConnectionEvents {
 public:
  struct Closed {
    std::string reason;
    bool failed = false;
  };

  void on_welcome(const wire::Welcome& welcome) override {
    update([&] { welcomes_.push_back(welcome); });
  }
  void on_message(const wire::ServerMessage& message) override {
    update([&] { messages_.push_back(message); });
  }
  void on_reconnecting(const std::string& reason, std::chrono::milliseconds) override {
    update([&] { reconnecting_.push_back(reason); });
  }
  void on_closed(const std::string& reason, bool failed) override {
    update([&] { closed_ = Closed{reason, failed}; });
  }
  void on_unknown_server(const std::string& where, const std::string&,
                         std::function<void(bool)> answer) override {
    update([&] { asked_.push_back(where); });
    answer(false);
  }
  void on_redirected(const std::string& where, const std::string& reason) override {
    update([&] { redirects_.push_back(where + " | " + reason); });
  }

  // Waits until at least n Welcomes came; false after timeout.
  bool wait_welcomes(std::size_t n, std::chrono::milliseconds timeout = 5s) {
    return wait([&] { return welcomes_.size() >= n; }, timeout);
  }
  std::optional<Closed> wait_closed(std::chrono::milliseconds timeout = 5s) {
    wait([&] { return closed_.has_value(); }, timeout);
    const std::lock_guard lock(mutex_);
    return closed_;
  }

  std::vector<wire::Welcome> welcomes() const { return copy(welcomes_); }
  std::vector<std::string> redirects() const { return copy(redirects_); }
  std::vector<std::string> reconnecting() const { return copy(reconnecting_); }
  std::vector<std::string> asked() const { return copy(asked_); }

 private:
  template <class F>
  void update(F f) {
    {
      const std::lock_guard lock(mutex_);
      f();
    }
    changed_.notify_all();
  }
  template <class P>
  bool wait(P pred, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, pred);
  }
  template <class T>
  T copy(const T& value) const {
    const std::lock_guard lock(mutex_);
    return value;
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<wire::Welcome> welcomes_;
  std::vector<wire::ServerMessage> messages_;
  std::vector<std::string> reconnecting_;
  std::vector<std::string> redirects_;
  std::vector<std::string> asked_;
  std::optional<Closed> closed_;
};

// A Connection running on a thread of its own; its state is read there.
class Client {
 public:
  explicit Client(ConnectionOptions options)
      : connection_(std::make_shared<Connection>(io_.get_executor(), std::move(options), events)) {
    connection_->start();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Client() {
    boost::asio::post(io_, [c = connection_] { c->close(); });
    events.wait_closed(5s);
    io_.stop();
    thread_.join();
  }

  // f(connection) run on the connection's thread.
  template <class F>
  auto on_io(F f) {
    std::packaged_task<decltype(f(std::declval<Connection&>()))()> task(
        [this, f] { return f(*connection_); });
    auto result = task.get_future();
    boost::asio::post(io_, [&task] { task(); });
    return result.get();
  }

  Recorder events;

 private:
  boost::asio::io_context io_;
  std::shared_ptr<Connection> connection_;
  std::thread thread_;
};

ConnectionOptions options_for(std::uint16_t port, const TempDir& dir) {
  ConnectionOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  options.name = "alice";
  options.secret = std::string(64, 'a');
  options.tls = false;
  options.connect_timeout = 2s;
  options.retry = 3s;
  options.known_servers = dir.path() + "/known_servers";
  return options;
}

// A loopback port nobody listens on: connecting is refused.
std::uint16_t closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), size);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  ::close(fd);
  return ntohs(addr.sin_port);
}

wire::Redirect redirect_to(const FakeServer& node, std::string reason = "",
                           std::string reservation = "") {
  wire::Redirect redirect;
  redirect.set_host("127.0.0.1");
  redirect.set_port(node.port());
  redirect.set_reason(std::move(reason));
  redirect.set_reservation(std::move(reservation));
  return redirect;
}

std::string where(const FakeServer& node) { return "127.0.0.1:" + std::to_string(node.port()); }

bool is_hello(const wire::ClientMessage& m) { return m.has_hello(); }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ConnectionRedirect, AnsweredHelloWithARedirectItSaysHelloThereWithItsSecretAndReservation) {
  TempDir dir;
  FakeServer node1, node2;
  Client client(options_for(node1.port(), dir));
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first);
  node1.redirect(redirect_to(node2, "game 4 is on node 2", "seat-9"), first->request_id());

  const auto hello = node2.expect(is_hello);
  ASSERT_TRUE(hello) << "the client did not come to the node it was sent to";
  EXPECT_EQ(hello->hello().name(), "alice");
  EXPECT_EQ(hello->hello().secret(), std::string(64, 'a')) << "the same account on every node";
  EXPECT_EQ(hello->hello().reservation(), "seat-9");
  node2.welcome(*hello, "", "node2", 4);
  ASSERT_TRUE(client.events.wait_welcomes(1));

  EXPECT_EQ(client.events.redirects(),
            std::vector<std::string>{where(node2) + " | game 4 is on node 2"})
      << "the owner hears of it once";
  EXPECT_TRUE(client.events.reconnecting().empty()) << "a redirect is no lost link";
  EXPECT_TRUE(client.on_io([](Connection& c) { return c.redirected(); }));
  EXPECT_FALSE(client.on_io([](Connection& c) { return c.server_restarted(); }));
  EXPECT_EQ(client.on_io([](Connection& c) { return c.current_server(); }), where(node2));
}

TEST(ConnectionRedirect, UnpromptedMidSessionItComesBackWithItsTokenAndStaysOnTheNewNode) {
  TempDir dir;
  FakeServer node1, node2;
  Client client(options_for(node1.port(), dir));
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first);
  node1.welcome(*first, "", "node1");
  ASSERT_TRUE(client.events.wait_welcomes(1));
  node1.redirect(redirect_to(node2, "node 1 is draining"));

  const auto hello = node2.expect(is_hello);
  ASSERT_TRUE(hello);
  EXPECT_EQ(hello->hello().resume_token(), "token") << "the token works on any node";
  EXPECT_EQ(hello->hello().reservation(), "") << "none was given";
  node2.welcome(*hello, "", "node2");
  ASSERT_TRUE(client.events.wait_welcomes(2));
  EXPECT_FALSE(client.on_io([](Connection& c) { return c.server_restarted(); }))
      << "another node's instance is no restart";

  // The link to node 2 drops: node 2 (the node it was on) is tried first.
  node2.close_connection();
  const auto again = node2.expect(is_hello, 3s);
  ASSERT_TRUE(again) << "the last node comes first after a lost link";
  node2.welcome(*again, "", "node2");
  ASSERT_TRUE(client.events.wait_welcomes(3));
  EXPECT_FALSE(node1.expect(is_hello, 300ms)) << "the node that sent it on is not asked";
}

TEST(ConnectionRedirect, OverTlsTheVouchedFingerprintIsThePinForThatNodeAndNeverStored) {
  TempDir dir;
  TestCa ca(dir.path());
  const CertificateFiles cert1 = ca.issue(dir.path(), "node1", {"127.0.0.1"});
  const CertificateFiles cert2 = ca.issue(dir.path(), "node2", {"127.0.0.1"});
  FakeServer node1(cert1), node2(cert2);
  ConnectionOptions options = options_for(node1.port(), dir);
  options.tls = true;
  options.fingerprint = cert1.fingerprint;  // the user trusts node 1 only
  Client client(options);
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first) << "TLS to node 1";
  wire::Redirect redirect = redirect_to(node2, "", "seat-1");
  redirect.set_fingerprint(cert2.fingerprint);
  node1.redirect(redirect, first->request_id());

  const auto hello = node2.expect(is_hello);
  ASSERT_TRUE(hello) << "node 2's certificate, vouched for by node 1, was not taken";
  EXPECT_EQ(hello->hello().reservation(), "seat-1");
  node2.welcome(*hello);
  ASSERT_TRUE(client.events.wait_welcomes(1));
  EXPECT_TRUE(client.events.asked().empty()) << "nobody is asked about a vouched node";
  EXPECT_EQ(read_file(options.known_servers).find(where(node2)), std::string::npos)
      << "a node's word is for that link: " << read_file(options.known_servers);
  // A lost link goes back to node 2 on the same word, still unasked.
  node2.close_connection();
  const auto again = node2.expect(is_hello, 3s);
  ASSERT_TRUE(again) << "back to node 2 on its vouched certificate";
  EXPECT_TRUE(again->hello().reservation().empty()) << "a reservation is good once";
  EXPECT_TRUE(client.events.asked().empty());
}

TEST(ConnectionRedirect, ARedirectCantChangeAPin) {
  // The user pinned node 2's address already (known_servers). A node it
  // visits sends it there vouching for another certificate, which whoever
  // answers at that address presents (an interceptor): refused, the pin kept.
  TempDir dir;
  TestCa ca(dir.path());
  const CertificateFiles cert1 = ca.issue(dir.path(), "node1", {"127.0.0.1"});
  const CertificateFiles real = ca.issue(dir.path(), "node2", {"127.0.0.1"});
  const CertificateFiles forged = ca.issue(dir.path(), "forged", {"127.0.0.1"});
  FakeServer node1(cert1), interceptor(forged);
  ConnectionOptions options = options_for(node1.port(), dir);
  options.tls = true;
  options.fingerprint = cert1.fingerprint;
  std::string error;
  ASSERT_TRUE(client::KnownServers(options.known_servers)
                  .remember("127.0.0.1", interceptor.port(), real.fingerprint, error))
      << error;
  const std::string pinned = read_file(options.known_servers);
  Client client(options);
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first);
  node1.welcome(*first);
  ASSERT_TRUE(client.events.wait_welcomes(1));
  wire::Redirect redirect = redirect_to(interceptor);
  redirect.set_fingerprint(forged.fingerprint);
  node1.redirect(redirect);

  EXPECT_FALSE(interceptor.expect(is_hello, 1s)) << "no secret or token for the interceptor";
  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
  EXPECT_NE(closed->reason.find("but you trust " + real.fingerprint + " there"), std::string::npos)
      << closed->reason;
  EXPECT_EQ(read_file(options.known_servers), pinned) << "the pin is what it was";
}

TEST(ConnectionRedirect, ACertificateOtherThanTheVouchedOneIsRefusedAndNoLinkIsKept) {
  TempDir dir;
  TestCa ca(dir.path());
  const CertificateFiles cert1 = ca.issue(dir.path(), "node1", {"127.0.0.1"});
  const CertificateFiles cert2 = ca.issue(dir.path(), "node2", {"127.0.0.1"});
  FakeServer node1(cert1), node2(cert2);
  ConnectionOptions options = options_for(node1.port(), dir);
  options.tls = true;
  options.fingerprint = cert1.fingerprint;
  Client client(options);
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first);
  node1.welcome(*first);
  ASSERT_TRUE(client.events.wait_welcomes(1));
  wire::Redirect redirect = redirect_to(node2);
  redirect.set_fingerprint(cert1.fingerprint);  // not node 2's
  node1.redirect(redirect);

  EXPECT_FALSE(node2.expect(is_hello, 1s)) << "no Hello to a node that is not the one vouched for";
  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
  EXPECT_NE(closed->reason.find("the node at " + where(node2) + " presented the certificate " +
                                cert2.fingerprint + ", not " + cert1.fingerprint + " that " +
                                where(node1) + " vouched for"),
            std::string::npos)
      << closed->reason;
  EXPECT_EQ(read_file(options.known_servers).find(where(node2)), std::string::npos)
      << "nothing remembered for it";
}

struct HostileRedirect {
  const char* kind;
  std::string host;
  std::uint32_t port;
  std::string fingerprint;
  std::string reason;  // what the client says
};

void PrintTo(const HostileRedirect& hostile, std::ostream* out) { *out << hostile.kind; }

class ConnectionHostileRedirect : public ::testing::TestWithParam<HostileRedirect> {};

TEST_P(ConnectionHostileRedirect, IsRefusedWithAClearReasonAndNothingMoreIsTried) {
  const HostileRedirect& hostile = GetParam();
  TempDir dir;
  FakeServer node1;
  Client client(options_for(node1.port(), dir));
  const auto first = node1.expect(is_hello);
  ASSERT_TRUE(first);
  node1.welcome(*first);
  ASSERT_TRUE(client.events.wait_welcomes(1));
  wire::Redirect redirect;
  redirect.set_host(hostile.host);
  redirect.set_port(hostile.port);
  redirect.set_fingerprint(hostile.fingerprint);
  node1.redirect(redirect);

  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
  EXPECT_EQ(closed->reason, "refused a redirect from " + where(node1) + ": " + hostile.reason);
  EXPECT_TRUE(client.events.redirects().empty());
  EXPECT_FALSE(node1.expect(is_hello, 500ms)) << "no connection kept or made";
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ConnectionHostileRedirect,
    ::testing::Values(
        HostileRedirect{"EmptyHost", "", 7777, "", "its host is empty"},
        HostileRedirect{"PortZero", "127.0.0.1", 0, "", "its port 0 is not a port (1 to 65535)"},
        HostileRedirect{"HugeHost", std::string(10'000, 'h'), 7777, "",
                        "its host is 10000 characters long (at most 253)"},
        HostileRedirect{"BadFingerprint", "127.0.0.1", 7777, "SHA256:x\x1b[2J",
                        "its fingerprint 'SHA256:x^[[2J' is not a SHA-256 fingerprint (SHA256: "
                        "and 43 base64 characters)"}),
    [](const auto& test) { return std::string(test.param.kind); });

TEST(ConnectionRedirect, NodesThatSendItRoundInCirclesAreLeftAfterFiveRedirects) {
  TempDir dir;
  FakeServer node1, node2;
  Client client(options_for(node1.port(), dir));
  int hellos = 0;
  for (int i = 0; i < 12; ++i) {
    FakeServer& here = i % 2 == 0 ? node1 : node2;
    FakeServer& there = i % 2 == 0 ? node2 : node1;
    const auto hello = here.expect(is_hello, 2s);
    if (!hello) break;
    ++hellos;
    here.redirect(redirect_to(there, "over there"), hello->request_id());
  }
  EXPECT_EQ(hellos, 6) << "five redirects followed, the sixth refused";
  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
  EXPECT_NE(closed->reason.find("too many redirects (more than 5 within 30 s"), std::string::npos)
      << closed->reason;
  EXPECT_EQ(client.events.redirects().size(), 5u);
}

TEST(ConnectionRedirect, RedirectsToSeatsKeptForItAreNoCircleHoweverMany) {
  // A bot paired again and again at other nodes: each redirect carries the
  // seat kept for it, and the Welcome there names its game.
  TempDir dir;
  FakeServer node1, node2;
  Client client(options_for(node1.port(), dir));
  int welcomes = 0;
  for (int i = 0; i < 12; ++i) {
    FakeServer& here = i % 2 == 0 ? node1 : node2;
    FakeServer& there = i % 2 == 0 ? node2 : node1;
    const auto hello = here.expect(is_hello, 2s);
    ASSERT_TRUE(hello) << "no Hello at round " << i;
    EXPECT_EQ(hello->hello().reservation(), i == 0 ? "" : "seat-" + std::to_string(i - 1));
    here.welcome(*hello, "", "", static_cast<std::uint64_t>(i + 1));
    ASSERT_TRUE(client.events.wait_welcomes(static_cast<std::size_t>(++welcomes)));
    here.redirect(redirect_to(there, "paired", "seat-" + std::to_string(i)));
  }
  // The twelfth redirect within 30 s is followed too.
  const auto last = node1.expect(is_hello, 2s);
  ASSERT_TRUE(last) << "the client gave up on seats kept for it";
  EXPECT_EQ(last->hello().reservation(), "seat-11");
  EXPECT_EQ(client.events.redirects().size(), 12u);
}

TEST(ConnectionHostileNode, ANodeThatRefusesEveryTokenIsNotAskedAgainAndAgainAtOnce) {
  TempDir dir;
  FakeServer node;
  ConnectionOptions options = options_for(node.port(), dir);
  options.resume_token = "old";
  Client client(options);
  wire::ServerMessage refused;
  refused.mutable_error()->set_code(wire::ERROR_CODE_BAD_RESUME_TOKEN);
  refused.mutable_error()->set_fatal(true);
  int hellos = 0;
  while (const auto hello = node.expect(is_hello, 1s)) {
    EXPECT_EQ(hello->hello().resume_token(), hellos == 0 ? "old" : "") << hellos;
    ++hellos;
    node.send(refused);
    node.close_connection();
    if (hellos > 5) break;
  }
  EXPECT_EQ(hellos, 2) << "once with the token, once without it; then the first connect ends";
  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
}

TEST(ConnectionNodes, TheFirstConnectGoesOnToTheNextAddressWhenOneRefuses) {
  TempDir dir;
  FakeServer node;
  ConnectionOptions options = options_for(closed_port(), dir);
  options.other_nodes = {{"127.0.0.1", node.port()}};
  Client client(options);
  const auto hello = node.expect(is_hello);
  ASSERT_TRUE(hello) << "the second address was not tried";
  node.welcome(*hello);
  ASSERT_TRUE(client.events.wait_welcomes(1));
  EXPECT_EQ(client.on_io([](Connection& c) { return c.current_server(); }), where(node));
  EXPECT_TRUE(client.events.reconnecting().empty()) << "a first connect is no lost link";
}

TEST(ConnectionNodes, NoAddressAnsweringIsOneFailureNamingEach) {
  TempDir dir;
  const std::uint16_t a = closed_port(), b = closed_port();
  ConnectionOptions options = options_for(a, dir);
  options.other_nodes = {{"127.0.0.1", b}};
  Client client(options);
  const auto closed = client.events.wait_closed();
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->failed);
  EXPECT_EQ(closed->reason,
            "cannot connect to any of the lobby's 2 addresses: 127.0.0.1:" + std::to_string(a) +
                ": Connection refused; 127.0.0.1:" + std::to_string(b) + ": Connection refused");
}

TEST(ConnectionNodes, AfterALostLinkTheLastNodeComesFirstThenTheListInOrder) {
  TempDir dir;
  FakeServer a, b, c;
  ConnectionOptions options = options_for(a.port(), dir);
  options.other_nodes = {{"127.0.0.1", b.port()}, {"127.0.0.1", c.port()}};
  Client client(options);
  // A is shutting down: the first connect goes on to B.
  const auto to_a = a.expect(is_hello);
  ASSERT_TRUE(to_a);
  wire::ServerMessage shutting;
  shutting.mutable_error()->set_code(wire::ERROR_CODE_SHUTTING_DOWN);
  shutting.mutable_error()->set_fatal(true);
  a.send(shutting);
  a.close_connection();
  const auto to_b = b.expect(is_hello);
  ASSERT_TRUE(to_b);
  b.welcome(*to_b);
  ASSERT_TRUE(client.events.wait_welcomes(1));

  // B drops the link, then takes a Hello and drops again: A is next, not C.
  b.close_connection();
  const auto back_to_b = b.expect(is_hello, 3s);
  ASSERT_TRUE(back_to_b) << "B, the node it was on, comes first";
  b.close_connection();
  const auto then_a = a.expect(is_hello, 3s);
  ASSERT_TRUE(then_a) << "then the list in order";
  a.welcome(*then_a);
  ASSERT_TRUE(client.events.wait_welcomes(2));
  EXPECT_FALSE(c.expect(is_hello, 300ms));
  EXPECT_EQ(client.on_io([](Connection& conn) { return conn.current_server(); }), where(a));
}

}  // namespace
}  // namespace ttt::testing
