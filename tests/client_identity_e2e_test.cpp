// Default identities end to end: ttt-bot and ttt-client processes started at
// once on one account without --name each play under a name of their own,
// and a later run takes the lowest free one back, with its secret and record.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "client_support/client_programs.hpp"
#include "client_support/loopback_trust.hpp"
#include "identity/name_claim.hpp"
#include "support/test_client.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

// Every cell of a 3×3 board: typed ahead, the taken ones are skipped.
constexpr const char* kEveryCell = "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n";

std::size_t files_in(const std::string& folder) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); ++it)
    ++n;
  return n;
}

// ttt-client at the test's server, without --name, trusting its certificate.
std::vector<std::string> client_argv(std::uint16_t port) {
  std::vector<std::string> argv{bin_dir() + "/ttt-client", "--host", "127.0.0.1", "--port",
                                std::to_string(port)};
  for (auto& arg : trust_args(port)) argv.push_back(std::move(arg));
  return argv;
}

// Games played by each name on the server, from its leaderboard.
std::map<std::string, std::uint64_t> games_by_name(std::uint16_t port) {
  TestClient observer(port, Transport::kTls);
  observer.hello("observer");
  wire::ClientMessage ask;
  ask.mutable_get_leaderboard()->set_limit(100);
  observer.send(ask);
  const auto reply =
      observer.expect([](const wire::ServerMessage& m) { return m.has_leaderboard(); }, "board");
  std::map<std::string, std::uint64_t> games;
  for (const auto& e : reply.leaderboard().entries()) games[e.name()] = e.games();
  return games;
}

std::vector<std::string> bot_args(std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--quick-match", "3",        "--games", "2",           "--level",
                                "random",        "--budget", "5",       "--log-level", "info"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The default name a ttt-bot run held, from its "playing as NAME" line.
std::string held_name(const std::string& output) {
  std::smatch m;
  static const std::regex playing(R"(playing as (\S+)\n)");
  return std::regex_search(output, m, playing) ? m[1].str() : "";
}

TEST(DefaultNames, BotsStartedAtOnceWithoutANameAllPlayAndALaterRunTakesItsNameBack) {
  TempDir data;
  ServerProcess server({"--db", data.path() + "/ttt.db"});
  TempDir config;  // one account: every bot shares its config dir
  std::vector<std::unique_ptr<ChildProcess>> bots;
  for (int i = 0; i < 4; ++i) bots.push_back(start_bot(server.port(), config, bot_args()));
  bots.push_back(start_bot(server.port(), config, bot_args({"--count", "2"})));
  int games = 0;
  std::set<std::string> held;
  for (auto& bot : bots) {
    ASSERT_EQ(bot->wait_exit(40s), 0) << bot->output();
    const auto summary = last_line_summary(bot->output());
    ASSERT_TRUE(summary) << bot->output();
    EXPECT_EQ(summary->errors, 0) << bot->output();
    games += summary->games;
    held.insert(held_name(bot->output()));
  }
  EXPECT_EQ(games, 12);  // six players, two games each
  // Five processes, five default names; which one the --count run got
  // depends on who started first.
  // Default names say whose bots they are: the login, then -bot.
  const std::string base = client::bot_name_base(client::login_name());
  EXPECT_EQ(held, (std::set<std::string>{base, base + "2", base + "3", base + "4", base + "5"}));
  const std::string count_base = held_name(bots.back()->output());

  const auto first = games_by_name(server.port());
  std::set<std::string> played;
  for (const auto& [name, n] : first) {
    EXPECT_EQ(n, 2u) << name << " played as someone else too";
    played.insert(name);
  }
  std::set<std::string> expected = held;
  expected.erase(count_base);
  expected.insert({count_base + "-1", count_base + "-2"});
  EXPECT_EQ(played, expected) << "six players, six names";
  EXPECT_EQ(files_in(config.path() + "/ttt/locks"), 0u) << "every claim released";

  // Later, alone: the lowest free default name, its secret accepted, so the
  // same player(s) as the run that held the first default name before.
  const bool count_had_bot = count_base == base;
  auto later =
      start_bot(server.port(), config,
                bot_args(count_had_bot ? std::vector<std::string>{"--games", "1", "--count", "2"}
                                       : std::vector<std::string>{"--games", "1"}));
  std::unique_ptr<ChildProcess> partner;
  if (!count_had_bot) {
    partner = start_bot(server.port(), config, bot_args({"--games", "1", "--name", "partner"}));
  }
  ASSERT_EQ(later->wait_exit(30s), 0) << later->output();
  if (partner) {
    ASSERT_EQ(partner->wait_exit(30s), 0) << partner->output();
  }
  EXPECT_EQ(held_name(later->output()), base) << later->output();
  EXPECT_EQ(games_by_name(server.port()).at(count_had_bot ? base + "-1" : base), 3u)
      << "the same player as before";
}

TEST(DefaultNames, ClientsStartedAtOnceWithoutANameEachGetTheirOwn) {
  ServerProcess server;
  TempDir config;
  std::vector<std::unique_ptr<ChildProcess>> clients;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(std::make_unique<ChildProcess>(
        client_argv(server.port()),
        std::vector<std::string>{"XDG_CONFIG_HOME=" + config.path(), "NO_COLOR=1", "USER=dana"}));
  }
  for (auto& client : clients) {
    client->write(std::string("/create 3 bot random\n") + kEveryCell);
    client->close_stdin();
  }
  std::set<std::string> names;
  const std::regex connected(R"(Connected to 127\.0\.0\.1:\d+ as (dana\d*) \(rating)");
  for (auto& client : clients) {
    ASSERT_EQ(client->wait_exit(30s), 0) << client->output();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(client->output(), m, connected)) << client->output();
    names.insert(m[1]);
    EXPECT_NE(client->output().find("Game over:"), std::string::npos) << client->output();
  }
  EXPECT_EQ(names, (std::set<std::string>{"dana", "dana2", "dana3"}));

  auto later = std::make_unique<ChildProcess>(
      client_argv(server.port()),
      std::vector<std::string>{"XDG_CONFIG_HOME=" + config.path(), "NO_COLOR=1", "USER=dana"});
  later->write("/list\n");
  later->close_stdin();
  ASSERT_EQ(later->wait_exit(10s), 0) << later->output();
  EXPECT_NE(later->output().find(" as dana (rating"), std::string::npos) << later->output();
}

}  // namespace
}  // namespace ttt::testing
