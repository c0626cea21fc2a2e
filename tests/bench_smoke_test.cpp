// ttt-bench, briefly, as docs/performance.md runs it: against its own relay
// (the baseline) and against a real ttt-server, plain and over TLS. Each run
// must play whole games, rematches included, without a single error; the
// figures themselves are not judged (a shared machine's speed is not a test).
#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "client_support/child_process.hpp"

namespace {

using ttt::testing::bin_dir;
using ttt::testing::ChildProcess;
using ttt::testing::TempDir;
using namespace std::chrono_literals;

struct BenchLine {
  std::uint64_t connections = 0;
  std::uint64_t moves_per_s = 0;
  std::uint64_t games = 0;
  std::uint64_t errors = 0;
};

// Runs ttt-bench with args to its end; its summary line, parsed.
BenchLine run_bench(std::vector<std::string> args) {
  args.insert(args.begin(), bin_dir() + "/ttt-bench");
  ChildProcess bench(args);
  EXPECT_EQ(bench.wait_exit(90s), 0) << bench.output();
  static const std::regex line(
      R"(bench: connections=(\d+) moves_per_s=(\d+) p50_us=\d+ p99_us=\d+ p999_us=\d+ )"
      R"(games=(\d+) errors=(\d+))");
  std::smatch m;
  const std::string& out = bench.output();
  if (!std::regex_search(out, m, line)) {
    ADD_FAILURE() << "no summary line in:\n" << out;
    return {};
  }
  return {std::stoull(m[1]), std::stoull(m[2]), std::stoull(m[3]), std::stoull(m[4])};
}

// A ttt-server as ./ttt bench starts it; stopped with the test.
class BenchServer {
 public:
  explicit BenchServer(std::vector<std::string> transport) : server_(argv(std::move(transport))) {
    EXPECT_TRUE(server_.wait_for_text("listening on port", 20s)) << server_.output();
    static const std::regex listening(R"(listening on port (\d+))");
    std::smatch m;
    if (std::regex_search(server_.output(), m, listening)) port_ = m[1];
  }
  ~BenchServer() { server_.kill(SIGKILL); }
  const std::string& port() const { return port_; }

 private:
  static std::vector<std::string> argv(std::vector<std::string> transport) {
    std::vector<std::string> args{bin_dir() + "/ttt-server",
                                  "--bind",
                                  "127.0.0.1",
                                  "--port",
                                  "0",
                                  "--db",
                                  "none",
                                  "--rate-limit",
                                  "0",
                                  "--max-connections-per-ip",
                                  "0",
                                  "--max-connection-rate-per-ip",
                                  "0",
                                  "--max-new-names-per-address",
                                  "0",
                                  "--max-games-per-address",
                                  "0"};
    args.insert(args.end(), transport.begin(), transport.end());
    return args;
  }

  ChildProcess server_;
  std::string port_;
};

TEST(BenchSmoke, TheRelayCarriesWholeGamesAndTheirRematchesWithoutAnError) {
  const BenchLine b = run_bench({"--baseline", "--connections", "4", "--seconds", "1"});
  EXPECT_EQ(b.connections, 4u);
  EXPECT_EQ(b.errors, 0u);
  EXPECT_GT(b.moves_per_s, 0u);
  // More games than the two pairs can finish without a rematch: both players
  // of a pair asked for one through the relay, as they do at a server.
  EXPECT_GT(b.games, 2u);
}

TEST(BenchSmoke, APlainServerIsPlayedWithoutAnError) {
  BenchServer server({"--no-tls"});
  ASSERT_FALSE(server.port().empty());
  const BenchLine b = run_bench({"--port", server.port(), "--connections", "4", "--seconds", "1"});
  EXPECT_EQ(b.errors, 0u);
  EXPECT_GT(b.moves_per_s, 0u);
  EXPECT_GT(b.games, 2u);  // more than the two pairs' first games
}

TEST(BenchSmoke, ATlsServerIsPlayedWithoutAnError) {
  TempDir dir;
  BenchServer server({"--tls-dir", dir.path()});
  ASSERT_FALSE(server.port().empty());
  const BenchLine b =
      run_bench({"--port", server.port(), "--tls", "--connections", "4", "--seconds", "1"});
  EXPECT_EQ(b.errors, 0u);
  EXPECT_GT(b.moves_per_s, 0u);
  EXPECT_GT(b.games, 2u);  // more than the two pairs' first games
}

}  // namespace
