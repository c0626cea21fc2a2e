// NodeAttempts: the lobby's nodes in rounds from the node of the last
// Welcome, Redirects followed with their seat and vouched certificate (and
// refused when bad or too many), the failures of a first connect in one
// message, and the user's pins.
#include <gtest/gtest.h>

#include "link/node_attempts.hpp"

namespace ttt::client {
namespace {

using namespace std::chrono_literals;

const ServerAddress kA{"a.example", 7777};
const ServerAddress kB{"b.example", 7777};
const ServerAddress kC{"c.example", 7001};
const std::string kPrint = "SHA256:" + std::string(43, 'A');

NodeAttempts three_nodes(std::size_t max_redirects = 5) {
  return NodeAttempts({kA, kB, kA, kC}, NodePins{}, max_redirects, 30s);
}

std::vector<ServerAddress> round_of(NodeAttempts& nodes) {
  std::vector<ServerAddress> tried;
  while (!nodes.round_over()) tried.push_back(nodes.next().address);
  return tried;
}

wire::Redirect redirect_to(const ServerAddress& node, const std::string& fingerprint = "",
                           const std::string& reservation = "") {
  wire::Redirect r;
  r.set_host(node.host);
  r.set_port(node.port);
  r.set_fingerprint(fingerprint);
  r.set_reservation(reservation);
  return r;
}

TEST(NodeAttempts, ARoundTriesEachNodeOnceStartingWithTheLastWelcomes) {
  NodeAttempts nodes = three_nodes();
  EXPECT_EQ(nodes.first(), kA);
  nodes.start_round();
  EXPECT_EQ(round_of(nodes), (std::vector<ServerAddress>{kA, kB, kC})) << "kA listed twice";
  Attempt at_b;
  at_b.address = kB;
  EXPECT_FALSE(nodes.welcomed(at_b, false)) << "no Welcome before";
  EXPECT_TRUE(nodes.welcomed(at_b, false)) << "the same node again";
  nodes.start_round();
  EXPECT_EQ(round_of(nodes), (std::vector<ServerAddress>{kB, kA, kC}));
}

TEST(NodeAttempts, ARetryGoesBeforeTheRoundsNextNode) {
  NodeAttempts nodes = three_nodes();
  nodes.start_round();
  const Attempt first = nodes.next();
  nodes.again(first);
  ASSERT_TRUE(nodes.has_next());
  EXPECT_EQ(nodes.next().address, kA);
  EXPECT_FALSE(nodes.has_next());
  EXPECT_EQ(nodes.next().address, kB);
}

TEST(NodeAttempts, ARedirectIsTriedNextWithItsSeatAndItsVouchedCertificate) {
  NodeAttempts nodes = three_nodes();
  nodes.start_round();
  nodes.next();
  std::string why;
  const ServerAddress elsewhere{"d.example", 7100};
  const auto to = nodes.follow(redirect_to(elsewhere, kPrint, "seat-7"), "a.example:7777", why);
  ASSERT_TRUE(to) << why;
  EXPECT_EQ(*to, "d.example:7100");
  ASSERT_TRUE(nodes.has_next());
  const Attempt sent = nodes.next();
  EXPECT_EQ(sent.address, elsewhere);
  EXPECT_EQ(sent.vouched, kPrint);
  EXPECT_EQ(sent.vouched_by, "a.example:7777");
  EXPECT_EQ(sent.reservation, "seat-7");
  EXPECT_TRUE(sent.redirected);
  // Back there after a lost link: the vouched certificate again, the seat
  // (good once) not.
  nodes.welcomed(sent, true);
  nodes.start_round();
  const Attempt back = nodes.next();
  EXPECT_EQ(back.address, elsewhere);
  EXPECT_EQ(back.vouched, kPrint);
  EXPECT_TRUE(back.reservation.empty());
  EXPECT_FALSE(back.redirected);
  // A later redirect without a fingerprint forgets the vouched one.
  ASSERT_TRUE(nodes.follow(redirect_to(kB), "d.example:7100", why)) << why;
  nodes.next();
  nodes.welcomed(back, false);
  nodes.start_round();
  EXPECT_TRUE(nodes.next().vouched.empty());
}

TEST(NodeAttempts, ABadRedirectIsRefusedNamingItsSender) {
  NodeAttempts nodes = three_nodes();
  std::string why;
  EXPECT_FALSE(nodes.follow(redirect_to({"d.example", 0}), "a.example:7777", why));
  EXPECT_EQ(why.rfind("refused a redirect from a.example:7777: ", 0), 0u) << why;
  EXPECT_FALSE(nodes.has_next());
  EXPECT_FALSE(nodes.follow(redirect_to(kB, "SHA256:short"), "a.example:7777", why));
  EXPECT_NE(why.find("fingerprint"), std::string::npos) << why;
}

TEST(NodeAttempts, TooManyRedirectsEndItButOnesThatLedNowhereOrToASeatDoNotCount) {
  NodeAttempts nodes = three_nodes(2);
  std::string why;
  ASSERT_TRUE(nodes.follow(redirect_to(kB), "a.example:7777", why));
  nodes.unreachable(nodes.next());  // its node could not be reached: forgiven
  ASSERT_TRUE(nodes.follow(redirect_to(kB, "", "seat-1"), "a.example:7777", why));
  nodes.welcomed(nodes.next(), true);  // it led to the kept seat: forgiven
  ASSERT_TRUE(nodes.follow(redirect_to(kC), "b.example:7777", why)) << why;
  nodes.welcomed(nodes.next(), false);
  ASSERT_TRUE(nodes.follow(redirect_to(kA), "c.example:7001", why)) << why;
  nodes.next();
  EXPECT_FALSE(nodes.follow(redirect_to(kB), "a.example:7777", why));
  EXPECT_EQ(why,
            "too many redirects (more than 2 within 30 s, the last from a.example:7777 to "
            "b.example:7777): the lobby's nodes keep sending this client on");
}

TEST(NodeAttempts, AFirstConnectThatFailsNamesEveryNodeTried) {
  NodeAttempts nodes = three_nodes();
  nodes.failed("a.example:7777: Connection refused");
  EXPECT_EQ(nodes.cannot_connect_text(), "cannot connect to a.example:7777: Connection refused");
  nodes.failed("b.example:7777: no answer within 5 s");
  EXPECT_EQ(nodes.cannot_connect_text(),
            "cannot connect to any of the lobby's 2 addresses: a.example:7777: Connection "
            "refused; b.example:7777: no answer within 5 s");
  Attempt at_b;
  at_b.address = kB;
  nodes.welcomed(at_b, false);
  nodes.failed("c.example:7001: Connection refused");
  EXPECT_EQ(nodes.cannot_connect_text(), "cannot connect to c.example:7001: Connection refused")
      << "a Welcome clears the failures";
}

TEST(NodeAttempts, TheUsersFingerprintPinsOnlyTheAddressesTheUserNamed) {
  NodeAttempts nodes({kA, kB}, NodePins{kPrint, ""}, 5, 30s);
  EXPECT_EQ(nodes.pin_for(kA), kPrint);
  EXPECT_EQ(nodes.pin_for(kB), kPrint);
  EXPECT_EQ(nodes.pin_for(kC), "") << "a node only a Redirect named";
  NodeAttempts unpinned({kA}, NodePins{}, 5, 30s);
  EXPECT_EQ(unpinned.pin_for(kA), "");
}

}  // namespace
}  // namespace ttt::client
