// The real ttt-client and ttt-bot against a mischievous lobby:
// /list during a room flood, a player's screen during a spectator storm, a
// first Welcome cut on the way, secrets rotated, and the files they keep.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <thread>

#include "client_support/client_programs.hpp"
#include "identity/player_secret.hpp"
#include "support/test_client.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;
using wire::ServerMessage;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

// A file's whole text ("" if it can't be read); a running client's locked
// token file is read as any file.
std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string secret_file(const TempDir& config, std::uint16_t port, const std::string& name) {
  return config.path() + "/ttt/secrets/127.0.0.1-" + std::to_string(port) + "-" + name;
}

// Hello with a name and a secret; the reply (Welcome or Error).
ServerMessage hello_reply(std::uint16_t port, const std::string& name, const std::string& secret,
                          Transport transport = Transport::kTls) {
  TestClient c(port, transport);
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_secret(secret);
  c.send(m);
  return c.expect([](const ServerMessage& r) { return r.has_welcome() || r.has_error(); },
                  "an answer to Hello");
}

TEST(ClientAbuseE2E, ListWorksDuringARoomFlood) {
  raise_file_limit();
  // A queue of 64 KiB and 1,500 rooms nobody is in: unpaged, their list
  // (about 70 KB) would not fit, and the client would be dropped. Plain
  // TCP: 1,500 TLS handshakes only make the flood slow (the send queue
  // bounds the same bytes either way).
  ServerProcess server({"--no-tls", "--send-queue", "65536", "--max-games-per-address", "0",
                        "--max-new-names-per-address", "0", "--max-bot-games-per-address", "0",
                        "--bot-game-grace", "60", "--db", "none", "--max-connection-rate-per-ip",
                        "0"});
  for (int i = 0; i < 1500; ++i) {
    TestClient c(server.port(), Transport::kPlain);
    c.hello("flood-" + std::to_string(i));
    c.create(15, false, true, wire::BOT_LEVEL_RANDOM);
    c.expect_joined();
  }
  TempDir config;
  auto client = start_client(server.port(), config, {"--no-tls", "--name", "lister"});
  client->write("/list\n/list next\n/list 3\n");
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(20s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_NE(out.find("Games 1-50 of 1500: /list next for more."), std::string::npos) << out;
  EXPECT_NE(out.find("Games 51-100 of 1500: /list next for more."), std::string::npos) << out;
  EXPECT_NE(out.find("No games yet"), std::string::npos) << "no 3x3 game: " << out;
  EXPECT_EQ(out.find("slow"), std::string::npos) << out;
}

TEST(ClientAbuseE2E, ASpectatorStormKeepsThePlayersScreenShort) {
  raise_file_limit();
  ServerProcess server({"--max-spectators", "100", "--db", "none"});
  TempDir config;
  auto player = start_client(server.port(), config, {"--name", "host"});
  player->write("/create 3\n");
  ASSERT_TRUE(player->wait_for_text("Waiting for an opponent", 10s)) << player->output();
  TestClient o(server.port(), Transport::kTls);
  o.hello("opponent");
  o.join(1);
  o.expect_joined();
  ASSERT_TRUE(player->wait_for_text("Your turn", 10s)) << player->output();
  // The player chooses to hear the spectators, but not one of them.
  player->write("/spectators on\n/mute loud\n");
  ASSERT_TRUE(player->wait_for_text("Muted loud", 10s)) << player->output();
  ASSERT_TRUE(player->wait_for_text("You hear the spectators' chat too", 10s));
  const std::size_t before = player->output().size();
  std::vector<std::unique_ptr<TestClient>> crowd;
  for (int i = 0; i < 150; ++i) {
    crowd.push_back(std::make_unique<TestClient>(server.port(), Transport::kTls, "127.0.0.1",
                                                 "127.0.2." + std::to_string(1 + i / 2)));
    crowd.back()->hello(i == 0 ? "loud" : "watcher-" + std::to_string(i));
    crowd.back()->spectate(1);
    const auto reply = crowd.back()->expect(
        [](const ServerMessage& m) { return m.has_joined() || m.has_error(); }, "an answer");
    if (reply.has_joined() && i < 3) {
      wire::ClientMessage chat;
      chat.mutable_chat()->set_text("hello from " + std::to_string(i));
      crowd.back()->send(chat);
    }
  }
  crowd.clear();
  // The storm is over when the count (said at most once a second) is down
  // to nobody.
  ASSERT_TRUE(player->wait_for_text("\n0 watching game 1.\n", 10s, before)) << player->output();
  player->write("/say still here\n");
  ASSERT_TRUE(player->wait_for_text("still here", 10s, before)) << player->output();
  const std::string storm = player->output().substr(before);
  std::size_t lines = 0;
  for (char c : storm) lines += c == '\n' ? 1 : 0;
  EXPECT_LT(lines, 15u) << storm;
  EXPECT_NE(storm.find("hello from 1"), std::string::npos) << storm;
  EXPECT_EQ(storm.find("hello from 0"), std::string::npos) << "loud is muted: " << storm;
  player->close_stdin();
  player->kill();
}

// A one-connection proxy to the server that passes on what the client says
// and cuts the link as soon as the server answers: a first Welcome lost.
class WelcomeCutter {
 public:
  explicit WelcomeCutter(std::uint16_t server_port) : server_port_(server_port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listener_, 1);
    socklen_t length = sizeof addr;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &length);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { run(); });
  }
  ~WelcomeCutter() {
    done_ = true;
    thread_.join();
    ::close(listener_);
  }
  std::uint16_t port() const { return port_; }
  bool cut() const { return cut_; }

 private:
  void run() {
    pollfd accept_poll{listener_, POLLIN, 0};
    if (::poll(&accept_poll, 1, 10'000) <= 0) return;
    const int client = ::accept(listener_, nullptr, nullptr);
    const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(server_port_);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    char buffer[4096];
    for (int rounds = 0; rounds < 1000 && !done_ && !cut_; ++rounds) {
      pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(fds, 2, 10) <= 0) continue;
      if (fds[0].revents & (POLLIN | POLLHUP)) {
        const ssize_t n = ::read(client, buffer, sizeof buffer);
        if (n <= 0) break;
        ::send(server, buffer, static_cast<std::size_t>(n), MSG_NOSIGNAL);
      }
      if (fds[1].revents & (POLLIN | POLLHUP)) cut_ = true;  // the Welcome: dropped
    }
    ::close(client);
    ::close(server);
  }

  std::uint16_t server_port_;
  std::uint16_t port_ = 0;
  int listener_ = -1;
  std::thread thread_;
  std::atomic<bool> done_{false};
  std::atomic<bool> cut_{false};
};

TEST(ClientAbuseE2E, ACutFirstWelcomeLosesNothing) {
  // Plain TCP: the cutter reads the protocol to drop the Welcome (over TLS it
  // would see only records).
  ServerProcess server({"--no-tls"});
  TempDir config;
  const std::string secret = config.path() + "/unlucky.secret";
  {
    WelcomeCutter cutter(server.port());
    auto first = start_client(cutter.port(), config,
                              {"--no-tls", "--name", "unlucky", "--secret-file", secret,
                               "--connect-timeout", "3", "--retry", "0"});
    first->close_stdin();
    EXPECT_EQ(first->wait_exit(15s), 1) << first->output();
    EXPECT_TRUE(cutter.cut()) << "the server answered the Hello";
  }
  // The name was registered with the secret the client made and kept first.
  const std::string kept = ttt::client::read_secret(secret);
  ASSERT_FALSE(kept.empty());
  EXPECT_TRUE(hello_reply(server.port(), "unlucky", kept, Transport::kPlain).has_welcome());
  EXPECT_EQ(hello_reply(server.port(), "unlucky", "", Transport::kPlain).error().code(),
            wire::ERROR_CODE_NAME_TAKEN);
  // And the client itself gets in with it.
  auto again = start_client(server.port(), config, {"--name", "unlucky", "--secret-file", secret});
  again->close_stdin();
  ASSERT_EQ(again->wait_exit(15s), 0) << again->output();
  EXPECT_NE(again->output().find("as unlucky"), std::string::npos) << again->output();
}

TEST(ClientAbuseE2E, SecretRotateReplacesTheSecretOnBothSides) {
  ServerProcess server;
  TempDir config;
  {
    auto first = start_client(server.port(), config, {"--name", "rotor"});
    first->close_stdin();
    ASSERT_EQ(first->wait_exit(15s), 0) << first->output();
  }
  const std::string path = secret_file(config, server.port(), "rotor");
  const std::string old_secret = ttt::client::read_secret(path);
  ASSERT_FALSE(old_secret.empty());
  auto client = start_client(server.port(), config, {"--name", "rotor"});
  client->write("/secret rotate\n");
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(15s), 0) << client->output();
  EXPECT_NE(client->output().find("Your name has a new secret"), std::string::npos)
      << client->output();
  const std::string new_secret = ttt::client::read_secret(path);
  EXPECT_NE(new_secret, old_secret);
  EXPECT_FALSE(fs::exists(path + ".next"));
  EXPECT_EQ(hello_reply(server.port(), "rotor", old_secret).error().code(),
            wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(hello_reply(server.port(), "rotor", new_secret).has_welcome());
}

// The token a rotation brings is the one kept: the old ones were revoked
// with the old secret, and a client killed after a rotation takes its seat
// back with the new one.
TEST(ClientAbuseE2E, ARotatedSecretsTokenTakesTheSeatBackAfterAKill) {
  ServerProcess server;
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  alice->write("/create 3\n");
  ASSERT_TRUE(alice->wait_for_text("You play X in game 1.", 10s)) << alice->output();
  bob->write("/join 1\n");
  ASSERT_TRUE(bob->wait_for_text("You play O in game 1.", 10s)) << bob->output();
  const std::string token_path =
      config.path() + "/ttt/tokens/127.0.0.1-" + std::to_string(server.port()) + "-alice";
  const std::string before = file_text(token_path);
  ASSERT_FALSE(before.empty()) << "the Welcome's token is kept";

  alice->write("/secret rotate\n");
  ASSERT_TRUE(alice->wait_for_text("Your name has a new secret", 10s)) << alice->output();
  const std::string after = file_text(token_path);
  EXPECT_FALSE(after.empty());
  EXPECT_NE(after, before) << "the rotation's token replaces the revoked one";
  alice->kill(SIGKILL);  // no goodbye: the seat waits for the kept token

  auto again = start_client(server.port(), config, {"--name", "alice"});
  ASSERT_TRUE(again->wait_for_text("back in game 1.", 10s)) << again->output();
  EXPECT_EQ(again->output().find("signing in again"), std::string::npos) << again->output();
  again->write("a1\n");
  EXPECT_TRUE(bob->wait_for_text("alice (X) played a1.", 10s)) << bob->output();
  for (ChildProcess* who : {again.get(), bob.get()}) {
    who->write("/quit\n");
    who->close_stdin();
    EXPECT_TRUE(who->wait_exit(10s)) << who->output();
  }
}

TEST(ClientAbuseE2E, TheBotRotatesItsSecretWithAFlag) {
  ServerProcess server;
  TempDir config;
  {
    auto first = start_bot(server.port(), config,
                           {"--name", "rbot", "--create", "3", "--log-level", "info"});
    ASSERT_TRUE(first->wait_for_text("waiting for an opponent", 10s)) << first->output();
    first->kill(SIGTERM);
  }
  const std::string path = secret_file(config, server.port(), "rbot");
  const std::string old_secret = ttt::client::read_secret(path);
  ASSERT_FALSE(old_secret.empty());
  auto bot =
      start_bot(server.port(), config,
                {"--name", "rbot", "--create", "3", "--rotate-secret", "--log-level", "info"});
  ASSERT_TRUE(bot->wait_for_text("the name has a new secret", 10s)) << bot->output();
  bot->kill(SIGTERM);
  const std::string new_secret = ttt::client::read_secret(path);
  EXPECT_NE(new_secret, old_secret);
  EXPECT_EQ(hello_reply(server.port(), "rbot", old_secret).error().code(),
            wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(hello_reply(server.port(), "rbot", new_secret).has_welcome());
}

TEST(ClientAbuseE2E, TheClientsFilesAndFoldersAreTheUsersOnly) {
  ServerProcess server;
  TempDir config;
  auto client = start_client(server.port(), config, {"--name", "private"});
  client->close_stdin();
  ASSERT_EQ(client->wait_exit(15s), 0) << client->output();
  for (const char* folder : {"/ttt", "/ttt/secrets", "/ttt/tokens"}) {
    EXPECT_EQ(mode_of(config.path() + folder), 0700u) << folder;
  }
  const std::string prefix = "/127.0.0.1-" + std::to_string(server.port()) + "-private";
  EXPECT_EQ(mode_of(config.path() + "/ttt/secrets" + prefix), 0600u);
  EXPECT_EQ(mode_of(config.path() + "/ttt/tokens" + prefix), 0600u);
}

}  // namespace
}  // namespace ttt::testing
