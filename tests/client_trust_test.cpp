// Whom the clients trust: fingerprints as people type them, the
// known_servers file, and the verdict on a server's certificate.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>

#include "client_support/child_process.hpp"
#include "trust/known_servers.hpp"
#include "trust/server_trust.hpp"
#include "ttt/tls/fingerprint.hpp"

namespace ttt::client {
namespace {

using testing::TempDir;
using Verdict = TrustDecision::Verdict;

constexpr const char* kA = "SHA256:idJNyV25CzvIxzCwPjH3xuqgWE4NMPE+kiFr/UQ14jo";
constexpr const char* kB = "SHA256:pDLM5yoD8D8uZfJQCjuzRHemKW5ubBKyzceFdCZ4REw";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

TEST(Fingerprint, TakesTheFormsPeopleCopy) {
  EXPECT_EQ(tls::parse_fingerprint(kA), kA);
  EXPECT_EQ(tls::parse_fingerprint(std::string(" ") + kA + "=\n"), kA) << "padding, spaces";
  // `openssl x509 -fingerprint -sha256` of the same digest.
  const std::string hex =
      "89:D2:4D:C9:5D:B9:0B:3B:C8:C7:30:B0:3E:31:F7:C6:EA:A0:58:4E:0D:30:F1:3E:92:21:6B:FD:44:"
      "35:E2:3A";
  EXPECT_EQ(tls::parse_fingerprint(hex), kA);
  EXPECT_EQ(tls::parse_fingerprint("SHA256 Fingerprint=" + hex), kA);
}

TEST(Fingerprint, RefusesWhatIsNotASha256) {
  for (const std::string& bad : std::vector<std::string>{
           "", "SHA256:", "SHA256:abc", "SHA1:idJNyV25CzvIxzCwPjH3xuqgWE4NMPE+kiFr/UQ14jo",
           std::string(kA) + "AA", "89:D2", "zz" + std::string(62, '0'),
           "SHA256:idJNyV25CzvIxzCwPjH3xuqgWE4NMPE+kiFr/UQ14j!"}) {
    EXPECT_FALSE(tls::parse_fingerprint(bad)) << bad;
  }
}

TEST(KnownServers, RemembersAServerPrivatelyAndReplacesItsLine) {
  TempDir dir;
  const std::string path = dir.path() + "/ttt/known_servers";
  const KnownServers known(path);
  EXPECT_FALSE(known.find("example.org", 7777).entry);
  std::string error;
  ASSERT_TRUE(known.remember("example.org", 7777, kA, error)) << error;
  ASSERT_TRUE(known.remember("::1", 7777, kA, error)) << error;
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(dir.path() + "/ttt"), 0700u);
  EXPECT_EQ(known.find("example.org", 7777).entry->fingerprint, kA);
  EXPECT_FALSE(known.find("example.org", 7778).entry) << "per port";
  EXPECT_NE(read_file(path).find("[::1]:7777 " + std::string(kA)), std::string::npos);

  ASSERT_TRUE(known.remember("example.org", 7777, kB, error)) << error;
  EXPECT_EQ(known.find("example.org", 7777).entry->fingerprint, kB);
  EXPECT_EQ(read_file(path).find(std::string("example.org:7777 ") + kA), std::string::npos);
}

TEST(KnownServers, ALineItCannotReadIsAnErrorNamingTheFileAndLine) {
  TempDir dir;
  const std::string path = dir.path() + "/known_servers";
  std::ofstream(path) << "# comment\n\nexample.org:7777 " << kA << "\nexample.org SHA256:nope\n";
  const auto lookup = KnownServers(path).find("elsewhere.org", 7777);
  EXPECT_FALSE(lookup.entry);
  EXPECT_EQ(lookup.error, path +
                              ", line 4: 'example.org SHA256:nope' does not start with HOST:PORT "
                              "(fix the line, or delete it: sed -i '4d' " +
                              path + ")");
  // Remembering another server keeps the line as the user left it.
  std::string error;
  ASSERT_TRUE(KnownServers(path).remember("elsewhere.org", 7777, kA, error)) << error;
  EXPECT_NE(read_file(path).find("\nexample.org SHA256:nope\n"), std::string::npos);

  std::ofstream(path, std::ios::trunc) << "a:1 SHA256:short\n";
  EXPECT_NE(KnownServers(path).find("a", 1).error.find("line 1: 'a:1 SHA256:short' has no "
                                                       "SHA256:... fingerprint"),
            std::string::npos);
}

TEST(ServerTrust, APinDecidesAlone) {
  TempDir dir;
  const TrustSettings pinned{kA, dir.path() + "/known_servers"};
  EXPECT_EQ(judge_server("h", 1, {kA, false}, pinned).verdict, Verdict::kTrusted);
  const auto refused = judge_server("h", 1, {kB, true}, pinned);
  EXPECT_EQ(refused.verdict, Verdict::kRefused) << "not even a CA overrules a pin";
  EXPECT_NE(refused.why.find(std::string("presented the certificate ") + kB + ", not " + kA),
            std::string::npos)
      << refused.why;
}

TEST(ServerTrust, ACaVouchesElseTheFirstUseIsAsked) {
  TempDir dir;
  const TrustSettings settings{"", dir.path() + "/known_servers"};
  EXPECT_EQ(judge_server("h", 1, {kA, true}, settings).verdict, Verdict::kTrusted);
  EXPECT_EQ(judge_server("h", 1, {kA, false}, settings).verdict, Verdict::kUnknown);
}

TEST(ServerTrust, AChangedCertificateIsRefusedWithHowToCheckAndReset) {
  TempDir dir;
  const std::string path = dir.path() + "/known_servers";
  std::string error;
  ASSERT_TRUE(KnownServers(path).remember("h", 1, kA, error));
  const TrustSettings settings{"", path};
  EXPECT_EQ(judge_server("h", 1, {kA, false}, settings).verdict, Verdict::kTrusted);
  const auto changed = judge_server("h", 1, {kB, false}, settings);
  EXPECT_EQ(changed.verdict, Verdict::kRefused);
  EXPECT_NE(changed.why.find("ttt-server --print-fingerprint"), std::string::npos) << changed.why;
  EXPECT_NE(changed.why.find("sed -i '3d' " + path), std::string::npos) << changed.why;
  EXPECT_NE(changed.why.find(std::string("--fingerprint ") + kB), std::string::npos) << changed.why;
}

TEST(ServerTrust, AFingerprintANodeVouchedForDecidesAlone) {
  EXPECT_EQ(judge_vouched("h", 2, {kA, false}, kA, "g:1").verdict, Verdict::kTrusted);
  const auto refused = judge_vouched("h", 2, {kB, true}, kA, "g:1");
  EXPECT_EQ(refused.verdict, Verdict::kRefused) << "not even a CA overrules the node's word";
  EXPECT_NE(refused.why.find(std::string("the node at h:2 presented the certificate ") + kB +
                             ", not " + kA + " that g:1 vouched for"),
            std::string::npos)
      << refused.why;
}

TEST(ServerTrust, AVouchedFingerprintNeverOverrulesAPin) {
  // The address is pinned to A: a node vouching for B there is refused,
  // even when B is what answers (an interceptor).
  const auto refused = judge_vouched("h", 2, {kB, false}, kB, "g:1", kA);
  EXPECT_EQ(refused.verdict, Verdict::kRefused);
  EXPECT_NE(refused.why.find(std::string("but you trust ") + kA + " there"), std::string::npos)
      << refused.why;
  EXPECT_EQ(judge_vouched("h", 2, {kA, false}, kA, "g:1", kA).verdict, Verdict::kTrusted)
      << "the pin and the node's word agree";
}

}  // namespace
}  // namespace ttt::client
