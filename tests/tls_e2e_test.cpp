// TLS end to end, with the built ttt-server, ttt-client and
// ttt-bot and real OpenSSL over loopback: the fingerprint the server prints,
// trust on first use (the bot accepts and logs, the client asks once on a
// terminal), a changed certificate refused, a certificate from a CA made in
// the test, plain and TLS peers that don't match, a reload on SIGHUP, and a
// broken certificate file. Every certificate lives in a temporary directory.
#include <signal.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "client_support/child_process.hpp"
#include "client_support/client_programs.hpp"
#include "client_support/test_certificates.hpp"
#include "client_support/tmux.hpp"

namespace ttt::testing {
namespace {

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

// The words of `what` in order on the screen, wherever the client broke its
// lines between words to fit the terminal.
bool says(const std::string& screen, std::string_view what) {
  auto flat = [](std::string_view text) {
    std::string out;
    for (const char c : text) {
      const char one = c == '\n' ? ' ' : c;
      if (one == ' ' && !out.empty() && out.back() == ' ') continue;
      out += one;
    }
    return out;
  };
  return flat(screen).find(flat(what)) != std::string::npos;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// ttt-PROGRAM against 127.0.0.1:port with ARGS and no trust flags of the
// test's: what a user types. XDG_CONFIG_HOME=config; env added.
std::unique_ptr<ChildProcess> run_program(const std::string& program, std::uint16_t port,
                                          const TempDir& config, std::vector<std::string> args,
                                          std::vector<std::string> env = {}) {
  std::vector<std::string> argv{bin_dir() + "/" + program, "--host", "127.0.0.1", "--port",
                                std::to_string(port)};
  argv.insert(argv.end(), args.begin(), args.end());
  env.push_back("XDG_CONFIG_HOME=" + config.path());
  env.push_back("NO_COLOR=1");
  return std::make_unique<ChildProcess>(argv, env);
}

// Two bots of one process play each other one quick game.
std::unique_ptr<ChildProcess> two_bots(std::uint16_t port, const TempDir& config,
                                       std::vector<std::string> args = {}) {
  std::vector<std::string> all{"--count",  "2", "--quick-match", "3",    "--level", "random",
                               "--budget", "0", "--log-level",   "info", "--retry", "0"};
  all.insert(all.end(), args.begin(), args.end());
  return run_program("ttt-bot", port, config, all);
}

std::string known_servers(const TempDir& config) {
  return read_file(config.path() + "/ttt/known_servers");
}

TEST(TlsE2E, PrintFingerprintSaysWhatTheServerLogs) {
  TempDir data;
  const std::string db = data.path() + "/ttt.db";
  ServerProcess server({"--db", db});
  ASSERT_FALSE(server.fingerprint().empty()) << server.process().output();
  const auto printed = run_command({bin_dir() + "/ttt-server", "--db", db, "--print-fingerprint"});
  EXPECT_EQ(printed.exit_code, 0) << printed.output;
  EXPECT_EQ(printed.output, server.fingerprint() + "\n");
  EXPECT_TRUE(std::filesystem::exists(data.path() + "/ttt-server.key")) << "beside the database";

  const auto plain =
      run_command({bin_dir() + "/ttt-server", "--db", db, "--no-tls", "--print-fingerprint"});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_TRUE(has(plain.output, "--print-fingerprint: there is no certificate with --no-tls"))
      << plain.output;
}

TEST(TlsE2E, TheBotTrustsOnFirstUseThenRefusesAChangedCertificate) {
  TempDir config;
  TempDir first_tls;
  auto server = std::make_unique<ServerProcess>(
      std::vector<std::string>{"--db", "none", "--tls-dir", first_tls.path()});
  const std::uint16_t port = server->port();
  const std::string first = server->fingerprint();
  const std::string where = "127.0.0.1:" + std::to_string(port);

  auto bots = two_bots(port, config);
  ASSERT_EQ(bots->wait_exit(30s), 0) << bots->output();
  EXPECT_TRUE(has(bots->output(), "trusting the server at " + where +
                                      " on first use: its TLS certificate's fingerprint is " +
                                      first))
      << bots->output();
  EXPECT_EQ(count_of(bots->output(), "on first use"), 1u) << "said once for both bots";
  EXPECT_TRUE(has(known_servers(config), where + " " + first + "\n")) << known_servers(config);

  auto again = two_bots(port, config);
  ASSERT_EQ(again->wait_exit(30s), 0) << again->output();
  EXPECT_FALSE(has(again->output(), "on first use")) << again->output();

  // Another server on that port, with a key of its own.
  TempDir second_tls;
  server.reset();
  server = std::make_unique<ServerProcess>(
      std::vector<std::string>{"--db", "none", "--tls-dir", second_tls.path()}, port);
  ASSERT_NE(server->fingerprint(), first);
  auto refused = two_bots(port, config);
  ASSERT_EQ(refused->wait_exit(15s), 1) << refused->output();
  const std::string out = refused->output();
  EXPECT_TRUE(has(out, "presented the certificate " + server->fingerprint() + ", but " + first +
                           " was trusted for it before"))
      << out;
  EXPECT_TRUE(has(out, "ttt-server --print-fingerprint")) << out;
  EXPECT_TRUE(has(out, "sed -i '3d' " + config.path() + "/ttt/known_servers")) << out;
  EXPECT_TRUE(has(known_servers(config), first)) << "nothing changed on its own";
}

TEST(TlsE2E, TheClientAsksOnceOnATerminal) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--db", "none"});
  TempDir config;
  const std::string command = "env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=" + config.path() + " " +
                              bin_dir() + "/ttt-client --plain --host 127.0.0.1 --port " +
                              std::to_string(server.port()) + " --name asked";
  {
    Tmux tmux;
    ASSERT_TRUE(tmux.start(command));
    ASSERT_TRUE(
        tmux.wait_screen([](const std::string& s) { return says(s, "Type yes or no"); }, 10s))
        << tmux.screen();
    EXPECT_TRUE(has(tmux.screen(), "Its fingerprint is " + server.fingerprint() + "."))
        << tmux.screen();
    tmux.type("maybe");
    ASSERT_TRUE(
        tmux.wait_screen([](const std::string& s) { return says(s, "Please type yes"); }, 5s))
        << tmux.screen();
    tmux.type("yes");
    ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
        << tmux.screen();
    tmux.type("/quit");
    EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.screen();
  }
  EXPECT_TRUE(has(known_servers(config), server.fingerprint())) << known_servers(config);
  Tmux tmux;
  ASSERT_TRUE(tmux.start(command));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "fingerprint")) << "not asked again:\n" << tmux.screen();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.screen();
}

TEST(TlsE2E, TheFullScreenClientAsksToo) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--db", "none"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start("env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=" + config.path() +
                         " " + bin_dir() + "/ttt-client --host 127.0.0.1 --port " +
                         std::to_string(server.port()) + " --name asked"));
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "Trust this server"); }, 10s))
      << tmux.visible();
  tmux.type("yes");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.visible();
  EXPECT_TRUE(has(known_servers(config), server.fingerprint())) << known_servers(config);
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(TlsE2E, WithoutATerminalAnUnknownServerIsRefusedWithTheWayToPinIt) {
  ServerProcess server({"--db", "none"});
  TempDir config;
  auto client = run_program("ttt-client", server.port(), config, {"--name", "script"});
  ASSERT_EQ(client->wait_exit(10s), 4) << client->output();
  EXPECT_TRUE(has(client->output(), "run again with --fingerprint " + server.fingerprint()))
      << client->output();
  EXPECT_EQ(known_servers(config), "") << "nothing trusted";

  auto pinned = run_program("ttt-client", server.port(), config,
                            {"--name", "script", "--fingerprint", server.fingerprint()});
  ASSERT_TRUE(pinned->wait_for_text("Connected to", 10s)) << pinned->output();
  pinned->write("/quit\n");
  EXPECT_EQ(pinned->wait_exit(10s), 0) << pinned->output();
}

TEST(TlsE2E, ACertificateFromATrustedCaIsAcceptedWithoutAsking) {
  TempDir dir;
  TempDir config;
  TestCa ca(dir.path());
  const auto good = ca.issue(dir.path(), "good", {"localhost", "127.0.0.1"});
  const auto misnamed = ca.issue(dir.path(), "misnamed", {"elsewhere.example"});
  const std::vector<std::string> trust_ca = {"SSL_CERT_FILE=" + ca.cert_file()};
  {
    ServerProcess server({"--db", "none", "--tls-cert", good.cert, "--tls-key", good.key});
    EXPECT_EQ(server.fingerprint(), good.fingerprint);
    auto client = run_program("ttt-client", server.port(), config, {"--name", "ca"}, trust_ca);
    ASSERT_TRUE(client->wait_for_text("Connected to", 10s)) << client->output();
    client->write("/quit\n");
    EXPECT_EQ(client->wait_exit(10s), 0) << client->output();
    EXPECT_EQ(known_servers(config), "") << "a CA's word needs no memory";
  }
  // Signed by the same CA, but for another name: not good enough.
  ServerProcess server({"--db", "none", "--tls-cert", misnamed.cert, "--tls-key", misnamed.key});
  auto client = run_program("ttt-client", server.port(), config, {"--name", "ca"}, trust_ca);
  EXPECT_EQ(client->wait_exit(10s), 4) << client->output();
  EXPECT_TRUE(has(client->output(), "no certificate authority vouches")) << client->output();
}

TEST(TlsE2E, PlainAndTlsThatDontMatchSaySoWithinSeconds) {
  TempDir config;
  {
    ServerProcess tls_server({"--db", "none"});
    auto plain = run_program("ttt-client", tls_server.port(), config, {"--no-tls", "--name", "p"});
    ASSERT_EQ(plain->wait_exit(5s), 1) << plain->output();
    EXPECT_TRUE(has(plain->output(), "this server only speaks TLS: connect without --no-tls"))
        << plain->output();
  }
  ServerProcess plain_server({"--db", "none", "--no-tls"});
  auto client = run_program("ttt-client", plain_server.port(), config, {"--name", "t"});
  ASSERT_EQ(client->wait_exit(5s), 1) << client->output();
  EXPECT_TRUE(has(client->output(), "the server does not speak TLS")) << client->output();
  auto bot = run_program("ttt-bot", plain_server.port(), config, {"--retry", "30"});
  ASSERT_EQ(bot->wait_exit(5s), 1) << "no retrying what can't work:\n" << bot->output();
  EXPECT_TRUE(has(bot->output(), "the server does not speak TLS")) << bot->output();
}

TEST(TlsE2E, SighupServesARenewedCertificateWithoutDroppingAnyone) {
  TempDir dir;
  TempDir config;
  TestCa ca(dir.path());
  const auto before = ca.issue(dir.path(), "server", {"127.0.0.1"});
  ServerProcess server(
      {"--db", "none", "--tls-cert", before.cert, "--tls-key", before.key, "--log-level", "info"});
  auto stays = run_program("ttt-client", server.port(), config,
                           {"--name", "stays", "--fingerprint", before.fingerprint});
  ASSERT_TRUE(stays->wait_for_text("Connected to", 10s)) << stays->output();

  const auto after = ca.issue(dir.path(), "server", {"127.0.0.1"});  // renewed in place
  ASSERT_EQ(::kill(server.process().pid(), SIGHUP), 0);
  ASSERT_TRUE(server.process().wait_for_text("tls fingerprint: " + after.fingerprint, 10s))
      << server.process().output();
  auto arrives = run_program("ttt-client", server.port(), config,
                             {"--name", "arrives", "--fingerprint", after.fingerprint});
  ASSERT_TRUE(arrives->wait_for_text("Connected to", 10s)) << arrives->output();

  // The connection made before the reload sees the game made after it.
  arrives->write("/create 3\n");
  ASSERT_TRUE(arrives->wait_for_text("game 1", 10s)) << arrives->output();
  const std::size_t mark = stays->output().size();
  stays->write("/list\n");
  EXPECT_TRUE(stays->wait_for_text("arrives", 10s, mark)) << stays->output();
  stays->write("/quit\n");
  EXPECT_EQ(stays->wait_exit(10s), 0) << stays->output();
  arrives->write("/quit\n");
  EXPECT_EQ(arrives->wait_exit(10s), 0) << arrives->output();
}

TEST(TlsE2E, ABrokenCertificateStopsTheServerNamingTheFile) {
  TempDir dir;
  TestCa ca(dir.path());
  const auto good = ca.issue(dir.path(), "server", {"localhost"});
  const std::string broken = dir.path() + "/broken.pem";
  std::ofstream(broken) << "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
  const auto result = run_command({bin_dir() + "/ttt-server", "--bind", "127.0.0.1", "--port", "0",
                                   "--db", "none", "--tls-cert", broken, "--tls-key", good.key});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(has(result.output, broken + ": not a PEM certificate")) << result.output;
  EXPECT_FALSE(has(result.output, "listening")) << result.output;

  const auto half = run_command({bin_dir() + "/ttt-server", "--tls-cert", good.cert});
  EXPECT_EQ(half.exit_code, 2) << half.output;
  EXPECT_TRUE(has(half.output, "--tls-cert needs --tls-key too")) << half.output;
}

}  // namespace
}  // namespace ttt::testing
