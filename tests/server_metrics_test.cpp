// The operator's HTTP port: /metrics in the Prometheus text format,
// clean under `promtool check metrics`, its counters moving with play;
// /healthz and /readyz; and --log-format json's lines.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <thread>

#include "client_support/child_process.hpp"
#include "log_format.hpp"
#include "support/eventually.hpp"
#include "support/http_get.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

server::ServerConfig with_metrics() {
  auto config = test_config();
  config.metrics = "127.0.0.1:0";
  return config;
}

// The value of one series ("ttt_moves_total", "ttt_games{state=...}"), or -1.
double value_of(const std::string& page, const std::string& series) {
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

std::string scrape(TestServer& server) {
  const auto reply = http_get(server.server().metrics_port(), "/metrics");
  EXPECT_EQ(reply.status, 200) << reply.headers;
  EXPECT_NE(reply.headers.find("Content-Type: text/plain; version=0.0.4"), std::string::npos)
      << reply.headers;
  return reply.body;
}

// promtool's verdict on a page: its exit code and what it said.
CommandResult promtool_check(const std::string& page) {
  const auto found = run_command({"sh", "-c", "command -v promtool"});
  if (found.exit_code != 0) {
    return {-1, "promtool is not installed (Debian's prometheus package; ./ttt setup installs it)"};
  }
  ChildProcess promtool({"/bin/sh", "-c", "exec promtool check metrics"});
  promtool.write(page);
  promtool.close_stdin();
  const auto code = promtool.wait_exit(20s);
  return {code.value_or(-1), promtool.output()};
}

void play_to_x_win(TestClient& x, TestClient& o) {
  x.create(3);
  const auto game = x.expect_joined().state().game_id();
  o.join(game);
  o.expect_joined();
  const std::pair<int, int> moves[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
  for (std::uint32_t i = 0; i < std::size(moves); ++i) {
    (i % 2 == 0 ? x : o).move(moves[i].first, moves[i].second);
    (i % 2 == 0 ? o : x)
        .expect_state([i](const wire::GameState& s) { return s.move_count() == i + 1; },
                      "the game");
  }
}

TEST(Metrics, ThePageIsCleanUnderPromtoolAndItsCountersMoveWithPlay) {
  TestServer server(with_metrics());
  const std::string before = scrape(server);
  EXPECT_EQ(value_of(before, "ttt_moves_total"), 0);
  EXPECT_EQ(value_of(before, "ttt_build_info{version=\"0.1.0\",tls=\"off\"}"), 1);

  TestClient x(server.port());
  TestClient o(server.port());
  x.hello("metered-x");
  o.hello("metered-o");
  play_to_x_win(x, o);

  // The database's writer commits on its own thread: wait (bounded) for it.
  std::string page;
  eventually(
      [&] {
        page = scrape(server);
        return value_of(page, "ttt_store_commit_seconds_count") >= 1;
      },
      std::chrono::seconds(5), std::chrono::milliseconds(20));
  EXPECT_EQ(value_of(page, "ttt_moves_total"), 5) << page;
  EXPECT_EQ(value_of(page, "ttt_players_online"), 2) << page;
  EXPECT_EQ(value_of(page, "ttt_connections{state=\"ready\"}"), 2) << page;
  EXPECT_EQ(value_of(page, "ttt_connections_accepted_total"), 2) << page;
  EXPECT_EQ(value_of(page, "ttt_games{state=\"finished\",size=\"3\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_move_reply_seconds_count"), 5) << "each mover's state";
  EXPECT_EQ(value_of(page, "ttt_move_reply_seconds_bucket{le=\"+Inf\"}"), 5) << page;
  EXPECT_GE(value_of(page, "ttt_store_commit_seconds_count"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_store_enabled"), 1) << page;

  const auto verdict = promtool_check(page);
  EXPECT_EQ(verdict.exit_code, 0) << verdict.output << "\n" << page;
}

TEST(Metrics, RefusedFramesAndLimitHitsAreCounted) {
  auto config = with_metrics();
  config.max_connections_per_ip = 1;
  TestServer server(config);
  {
    TestClient big(server.port(), "127.0.0.1", "127.0.0.2");
    const std::uint32_t length = 1u << 20;
    const char header[4] = {static_cast<char>(length >> 24), static_cast<char>(length >> 16),
                            static_cast<char>(length >> 8), static_cast<char>(length)};
    big.send_raw(std::string(header, 4));
    big.expect_error(wire::ERROR_CODE_FRAME_TOO_LARGE);
  }
  TestClient first(server.port(), "127.0.0.1", "127.0.0.3");
  first.hello("first");
  TestClient second(server.port(), "127.0.0.1", "127.0.0.3");
  second.expect_error(wire::ERROR_CODE_TOO_MANY_CONNECTIONS);

  const std::string page = scrape(server);
  EXPECT_EQ(value_of(page, "ttt_frames_refused_total{reason=\"too_large\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_limit_hits_total{limit=\"frame_size\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_limit_hits_total{limit=\"connections_per_address\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_errors_sent_total{code=\"ERROR_CODE_TOO_MANY_CONNECTIONS\"}"), 1)
      << page;
  const auto verdict = promtool_check(page);
  EXPECT_EQ(verdict.exit_code, 0) << verdict.output;
}

// The limits on names, identities and games: each refusal is a hit of its
// limit on the page.
TEST(Metrics, NameIdentityAndGameLimitHitsAreCounted) {
  auto config = with_metrics();
  config.lobby.new_names_per_hour = 1;
  config.lobby.identity_failures = 1;
  TestServer server(config);
  TestClient alice(server.port(), "127.0.0.1", "127.0.0.2");
  alice.hello("alice");
  alice.create(3);
  alice.expect_joined();
  alice.create(4);
  alice.expect_error(wire::ERROR_CODE_ALREADY_IN_GAME);
  auto hello = [](const std::string& name, const std::string& secret) {
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_name(name);
    m.mutable_hello()->set_secret(secret);
    return m;
  };
  {
    TestClient second_name(server.port(), "127.0.0.1", "127.0.0.2");
    second_name.send(hello("bob", ""));
    second_name.expect_error(wire::ERROR_CODE_TOO_MANY_NEW_NAMES);
  }
  // One wrong secret is free, the second begins a wait, the third meets it.
  for (const auto expected : {wire::ERROR_CODE_NAME_TAKEN, wire::ERROR_CODE_NAME_TAKEN,
                              wire::ERROR_CODE_IDENTITY_LOCKED}) {
    TestClient guesser(server.port(), "127.0.0.1", "127.0.0.3");
    guesser.send(hello("alice", "not-alices-secret-at-all"));
    guesser.expect_error(expected);
  }
  const std::string page = scrape(server);
  EXPECT_EQ(value_of(page, "ttt_limit_hits_total{limit=\"games_per_player\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_limit_hits_total{limit=\"new_names_per_address\"}"), 1) << page;
  EXPECT_EQ(value_of(page, "ttt_limit_hits_total{limit=\"identity_failures_per_address\"}"), 1)
      << page;
  const auto verdict = promtool_check(page);
  EXPECT_EQ(verdict.exit_code, 0) << verdict.output;
}

TEST(Metrics, HealthzAndReadyzSayWhetherTheServerTakesGames) {
  auto config = with_metrics();
  config.max_connections = 1;
  TestServer server(config);
  const std::uint16_t port = server.server().metrics_port();
  const auto health = http_get(port, "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  EXPECT_EQ(http_get(port, "/readyz").status, 200);
  {
    TestClient only(server.port());
    only.hello("only");
    const auto full = http_get(port, "/readyz");
    EXPECT_EQ(full.status, 503);
    EXPECT_NE(full.body.find("not ready: full: 1 connections"), std::string::npos) << full.body;
  }
  EXPECT_EQ(http_get(port, "/nowhere").status, 404);
  EXPECT_EQ(http_get(port, "/metrics", "POST").status, 405);
}

TEST(Metrics, IdleHalfRequestsFromOneAddressNeverLockTheScraperOut) {
  TestServer server(with_metrics());
  const std::uint16_t port = server.server().metrics_port();
  // More idle half-requests from one address than the port takes in all.
  std::vector<int> idle;
  for (std::size_t i = 0; i < 70; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, "127.0.0.2", &local.sin_addr);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local), 0);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string half = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
    ::send(fd, half.data(), half.size(), MSG_NOSIGNAL);
    idle.push_back(fd);
  }
  const auto scraped = http_get(port, "/metrics");
  for (const int fd : idle) ::close(fd);
  EXPECT_EQ(scraped.status, 200) << "the scraper, from another address, is served";
}

// /readyz is not ready while the database refuses writes, and ready again
// once a write goes through.
TEST(Metrics, ReadyzSaysWhenTheDatabaseRefusesWrites) {
  TestServer server(with_metrics());
  const std::uint16_t port = server.server().metrics_port();
  ASSERT_NE(server.server().store_writer(), nullptr);
  EXPECT_EQ(http_get(port, "/readyz").status, 200);
  auto refuse = [&](bool on) {
    server.server().store_writer()->submit([on](server::Store& s) { s.refuse_writes(on); });
  };
  // Waits until the writer has run every job (a commit's fsync can take
  // seconds on a loaded machine), then polls /readyz (bounded: 10 s) until
  // it answers `status`.
  auto readyz_becomes = [&](int status) {
    server.server().store_writer()->flush();
    HttpReply reply;
    eventually(
        [&] {
          reply = http_get(port, "/readyz");
          return reply.status == status;
        },
        std::chrono::seconds(10), std::chrono::milliseconds(20));
    return reply;
  };
  refuse(true);
  TestClient first(server.port());
  first.hello("first");  // a new name: its account is written, and the write fails
  const auto refused = readyz_becomes(503);
  EXPECT_EQ(refused.status, 503);
  EXPECT_NE(refused.body.find("not ready: the database refused the last write"), std::string::npos)
      << refused.body;
  refuse(false);
  TestClient second(server.port());
  second.hello("second");
  EXPECT_EQ(readyz_becomes(200).status, 200);
}

TEST(JsonLog, EscapesWhatWouldBreakALine) {
  EXPECT_EQ(server::json_escaped("plain"), "plain");
  EXPECT_EQ(server::json_escaped("a \"b\" \\ c"), "a \\\"b\\\" \\\\ c");
  EXPECT_EQ(server::json_escaped("line\nbreak\ttab\x1b[31m"), "line\\nbreak\\ttab\\u001b[31m");
  EXPECT_EQ(server::json_escaped("caf\xc3\xa9 \xe2\x80\xae"), "caf\xc3\xa9 \xe2\x80\xae")
      << "UTF-8 stays as it is";
  EXPECT_EQ(server::json_escaped("bad \xff\xc3 end"), "bad \\ufffd\\ufffd end");
  EXPECT_EQ(server::json_escaped("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd") << "a surrogate";
}

TEST(JsonLog, EachLineIsOneObject) {
  std::ostringstream out;
  auto logger = std::make_shared<spdlog::logger>(
      "ttt-server", std::make_shared<spdlog::sinks::ostream_sink_st>(out));
  logger->set_formatter(server::json_log_formatter());
  logger->warn("connection {} closed: {}", "192.0.2.1:5000", "a \"quoted\"\nreason");
  const std::string line = out.str();
  EXPECT_EQ(line.rfind("{\"time\":\"", 0), 0u) << line;
  EXPECT_NE(
      line.find("Z\",\"level\":\"warning\",\"logger\":\"ttt-server\",\"message\":\"connection "
                "192.0.2.1:5000 closed: a \\\"quoted\\\"\\nreason\"}\n"),
      std::string::npos)
      << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1);
}

}  // namespace
}  // namespace ttt::testing
