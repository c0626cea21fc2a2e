// A lobby of several nodes, the pure parts: --host lists, the
// checks on a node's Redirect, the bound on redirects, and the words both
// clients use.
#include <gtest/gtest.h>

#include "link/redirect.hpp"
#include "link/server_list.hpp"
#include "view/node_text.hpp"

namespace ttt::client {
namespace {

using namespace std::chrono_literals;

constexpr const char* kFingerprint = "SHA256:idJNyV25CzvIxzCwPjH3xuqgWE4NMPE+kiFr/UQ14jo";

std::vector<ServerAddress> parsed(std::string_view text, std::uint16_t port = 7777) {
  const ServerListParse result = parse_server_list(text, port);
  EXPECT_EQ(result.error, "") << text;
  return result.addresses;
}

std::string refusal(std::string_view text) {
  const ServerListParse result = parse_server_list(text, 7777);
  EXPECT_TRUE(result.addresses.empty()) << text;
  return result.error;
}

TEST(ServerList, TakesHostsPortsAndIpv6InBrackets) {
  using A = std::vector<ServerAddress>;
  EXPECT_EQ(parsed("localhost"), (A{{"localhost", 7777}}));
  EXPECT_EQ(parsed("a.example:9000,b.example , 10.0.0.3:1", 7000),
            (A{{"a.example", 9000}, {"b.example", 7000}, {"10.0.0.3", 1}}));
  EXPECT_EQ(parsed("[::1]:7778,[fe80::1],::1"),
            (A{{"::1", 7778}, {"fe80::1", 7777}, {"::1", 7777}}))
      << "an IPv6 address alone takes the default port";
  EXPECT_EQ(address_text({"::1", 7778}), "[::1]:7778");
  EXPECT_EQ(address_text({"node-2_b.example", 1}), "node-2_b.example:1");
}

TEST(ServerList, ABadListIsRefusedNamingTheEntryAndWhatIsWrong) {
  EXPECT_EQ(refusal(""), "no address given (HOST, HOST:PORT or [IPv6]:PORT, separated by commas)");
  EXPECT_EQ(refusal("a,,b"), "entry 2 of 'a,,b' is empty");
  EXPECT_EQ(refusal("a,"), "entry 2 of 'a,' is empty");
  EXPECT_EQ(refusal("a,b:0"),
            "'b:0' (entry 2 of 2): the port must be a whole number from 1 to 65535, not '0'");
  EXPECT_EQ(refusal("a:70000"),
            "'a:70000' (entry 1 of 1): the port must be a whole number from 1 to 65535, not "
            "'70000'");
  EXPECT_EQ(refusal("a:"), "'a:' (entry 1 of 1): the port must be a whole number from 1 to 65535");
  EXPECT_EQ(refusal("a:http"),
            "'a:http' (entry 1 of 1): the port must be a whole number from 1 to 65535, not 'http'");
  EXPECT_EQ(refusal(":7777"), "':7777' (entry 1 of 1): the host is empty");
  EXPECT_EQ(refusal("a b"),
            "'a b' (entry 1 of 1): the host 'a b' contains byte 0x20 (a host is a name of letters, "
            "digits, '.', '-' and '_', or an address)");
  EXPECT_EQ(refusal("-a"), "'-a' (entry 1 of 1): the host '-a' starts with '-'");
  EXPECT_EQ(refusal("[::1"),
            "'[::1' (entry 1 of 1): an IPv6 address opened with '[' needs its ']'");
  EXPECT_EQ(refusal("[::1]7777"), "'[::1]7777' (entry 1 of 1): only :PORT may follow ']'");
  EXPECT_EQ(refusal("[a]:1"), "'[a]:1' (entry 1 of 1): brackets are for IPv6 addresses");
  EXPECT_EQ(refusal("a:b:c"), "'a:b:c' (entry 1 of 1): the host 'a:b:c' is not an IPv6 address");
  EXPECT_EQ(refusal(std::string(254, 'a')).substr(0, 20), "'aaaaaaaaaaaaaaaaaaa");
  EXPECT_NE(refusal(std::string(254, 'a')).find("the host is 254 characters long (at most 253)"),
            std::string::npos);
  std::string many = "a";
  for (int i = 0; i < 16; ++i) many += ",a";
  EXPECT_EQ(refusal(many), "17 addresses, at most 16");
}

TEST(ServerList, TheHostFlagKeepsItsOldMeaningAndTheFirstEntryIsTheLobby) {
  std::string host = "example.org";
  std::uint16_t port = 9000;
  std::vector<ServerAddress> others;
  std::string error;
  ASSERT_TRUE(apply_host_flag(host, port, others, error)) << error;
  EXPECT_EQ(host, "example.org");
  EXPECT_EQ(port, 9000) << "--port is the port of --host HOST";
  EXPECT_TRUE(others.empty());

  host = "a:1,b,[::1]:3";
  ASSERT_TRUE(apply_host_flag(host, port, others, error)) << error;
  EXPECT_EQ(host, "a");
  EXPECT_EQ(port, 1) << "the first entry's own port";
  EXPECT_EQ(others, (std::vector<ServerAddress>{{"b", 9000}, {"::1", 3}}));

  host = "a,,b";
  EXPECT_FALSE(apply_host_flag(host, port, others, error));
  EXPECT_EQ(error, "--host: entry 2 of 'a,,b' is empty");
}

wire::Redirect redirect_to(std::string host, std::uint32_t port) {
  wire::Redirect redirect;
  redirect.set_host(std::move(host));
  redirect.set_port(port);
  return redirect;
}

std::string refused(const wire::Redirect& redirect) {
  std::string why;
  EXPECT_FALSE(check_redirect(redirect, why).has_value());
  return why;
}

TEST(RedirectCheck, TakesAGoodOneWithItsFingerprintAndReservation) {
  wire::Redirect redirect = redirect_to("[::1]", 7778);
  redirect.set_fingerprint(kFingerprint);
  redirect.set_reservation("seat-1");
  std::string why;
  const auto target = check_redirect(redirect, why);
  ASSERT_TRUE(target) << why;
  EXPECT_EQ(target->address, (ServerAddress{"::1", 7778})) << "brackets dropped";
  EXPECT_EQ(target->fingerprint, kFingerprint);
  EXPECT_EQ(target->reservation, "seat-1");
  EXPECT_TRUE(check_redirect(redirect_to("node2.example", 1), why));
}

TEST(RedirectCheck, RefusesWhatAHostileNodeCouldSend) {
  EXPECT_EQ(refused(redirect_to("", 7777)), "its host is empty");
  EXPECT_EQ(refused(redirect_to("b", 0)), "its port 0 is not a port (1 to 65535)");
  EXPECT_EQ(refused(redirect_to("b", 70000)), "its port 70000 is not a port (1 to 65535)");
  EXPECT_EQ(refused(redirect_to(std::string(10'000, 'h'), 7777)),
            "its host is 10000 characters long (at most 253)");
  EXPECT_EQ(refused(redirect_to("evil\x1b]0;x\x07", 7777)),
            "its host 'evil?]0;x?' contains byte 0x1b (a host is a name of letters, digits, '.', "
            "'-' and '_', or an address)")
      << "quoted harmlessly";
  wire::Redirect bad = redirect_to("b", 7777);
  bad.set_fingerprint("SHA256:not-one");
  EXPECT_EQ(refused(bad),
            "its fingerprint 'SHA256:not-one' is not a SHA-256 fingerprint (SHA256: and 43 base64 "
            "characters)");
  bad.set_fingerprint(
      "89:D2:4D:C9:5D:B9:0B:3B:C8:C7:30:B0:3E:31:F7:C6:EA:A0:58:4E:0D:30:F1:3E:92:21:6B:FD:44:35:"
      "E2:3A");
  EXPECT_NE(refused(bad), "") << "a node writes the canonical form; a person's forms are no excuse";
  bad.set_fingerprint("");
  bad.set_reservation(std::string(513, 'r'));
  EXPECT_EQ(refused(bad), "its reservation is 513 bytes long (at most 512)");
}

TEST(RedirectLimit, MoreThanFiveWithinThirtySecondsIsOneTooMany) {
  RedirectLimit limit(5, 30s);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(limit.allow(t0 + i * 1s)) << i;
  EXPECT_FALSE(limit.allow(t0 + 10s)) << "the sixth within 30 s";
  EXPECT_TRUE(limit.allow(t0 + 45s)) << "older ones leave the window";
}

TEST(RedirectLimit, ARedirectToANodeThatCantBeReachedDoesNotCount) {
  RedirectLimit limit(5, 30s);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(limit.allow(t0 + i * 100ms)) << i;
    limit.forgive();  // its node refused the connection
  }
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(limit.allow(t0 + 3s)) << i;
  EXPECT_FALSE(limit.allow(t0 + 3s)) << "redirects that did lead somewhere still count";
}

TEST(NodeText, TheWordsForRedirectsNoticesAndTheNewErrors) {
  EXPECT_EQ(redirect_text("b:7778", "node a is draining"),
            "moved to node b:7778: node a is draining");
  EXPECT_EQ(redirect_text("b:7778", ""), "moved to node b:7778");
  wire::Notice notice;
  notice.set_code(wire::ERROR_CODE_DATABASE_WAIT);
  EXPECT_EQ(notice_text(notice),
            "the server is waiting for its database: play goes on when it is back");
  notice.set_text("waiting for PostgreSQL\x1b[2J");
  EXPECT_EQ(notice_text(notice), "the server says: waiting for PostgreSQL^[[2J")
      << "through safe_text";
  for (const auto code : {wire::ERROR_CODE_CLUSTER_UNAVAILABLE, wire::ERROR_CODE_DRAINING,
                          wire::ERROR_CODE_RESERVATION_GONE, wire::ERROR_CODE_DATABASE_WAIT}) {
    EXPECT_TRUE(node_error_text(code).has_value()) << code;
  }
  EXPECT_FALSE(node_error_text(wire::ERROR_CODE_GAME_FULL).has_value());
}

}  // namespace
}  // namespace ttt::client
