// The server's TLS: its own self-signed certificate, a CA's
// certificate and key from files, reloading them, and what a peer that
// speaks the other transport is told. Real OpenSSL over loopback; the
// certificates are made in temporary directories and go with them.
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "client_support/child_process.hpp"
#include "client_support/test_certificates.hpp"
#include "support/eventually.hpp"
#include "support/flood_thread.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"
#include "tls/self_signed.hpp"
#include "tls/tls_error.hpp"
#include "tls/tls_identity.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 0777;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

server::ServerConfig tls_config(const std::string& dir) {
  auto config = test_config();
  config.tls.enabled = true;
  config.tls.dir = dir;
  return config;
}

// The message of the TlsError a TlsIdentity with these files throws.
std::string identity_error(const server::TlsConfig& config) {
  try {
    server::TlsIdentity identity(config, "none");
  } catch (const server::TlsError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

// A Ping from c and its Pong back, within timeout.
bool tls_pinged(TestClient& c, std::uint64_t nonce, std::chrono::milliseconds timeout = 5s) {
  wire::ClientMessage ping;
  ping.mutable_ping()->set_nonce(nonce);
  c.send(ping);
  const auto reply = c.receive(timeout);
  return reply && reply->has_pong() && reply->pong().nonce() == nonce;
}

// Whether a TLS 1.2 handshake offering only `ciphers` succeeds.
bool tls12_handshake(std::uint16_t port, const char* ciphers) {
  SSL_CTX* context = SSL_CTX_new(TLS_client_method());
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_max_proto_version(context, TLS1_2_VERSION);
  bool ok = SSL_CTX_set_cipher_list(context, ciphers) == 1;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ok = ok && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  SSL* ssl = SSL_new(context);
  SSL_set_fd(ssl, fd);
  ok = ok && SSL_connect(ssl) == 1;
  SSL_free(ssl);
  ::close(fd);
  SSL_CTX_free(context);
  return ok;
}

TEST(ServerTls, MakesItsOwnKeyAndCertificateOnceAndKeepsThemPrivate) {
  TempDir dir;
  const std::string folder = dir.path() + "/state";
  server::TlsConfig config;
  config.dir = folder;
  std::string first;
  {
    server::TlsIdentity identity(config, "none");
    first = identity.fingerprint();
    EXPECT_TRUE(identity.self_signed());
  }
  EXPECT_EQ(first.rfind("SHA256:", 0), 0u) << first;
  EXPECT_EQ(first.size(), 7u + 43u) << first;
  const auto files = server::self_signed_files(folder);
  EXPECT_EQ(mode_of(files.key), 0600u);
  EXPECT_EQ(mode_of(files.cert), 0600u);
  EXPECT_EQ(mode_of(folder), 0700u);
  // The next start uses the same pair: clients that trusted it still do.
  server::TlsIdentity again(config, "none");
  EXPECT_EQ(again.fingerprint(), first);
}

TEST(ServerTls, KeepsItsPairBesideTheDatabase) {
  EXPECT_EQ(server::tls_folder({}, "/var/lib/ttt/ttt.db"), "/var/lib/ttt");
  EXPECT_EQ(server::tls_folder({}, "ttt.db"), ".");
  server::TlsConfig config;
  config.dir = "/elsewhere";
  EXPECT_EQ(server::tls_folder(config, "/var/lib/ttt/ttt.db"), "/elsewhere");
}

TEST(ServerTls, HalfASelfSignedPairIsAnErrorNotReplaced) {
  TempDir dir;
  server::TlsConfig config;
  config.dir = dir.path();
  { server::TlsIdentity made(config, "none"); }
  const auto files = server::self_signed_files(dir.path());
  const std::string cert = read_file(files.cert);
  fs::remove(files.key);
  const std::string error = identity_error(config);
  EXPECT_NE(error.find(files.key + ": missing"), std::string::npos) << error;
  EXPECT_EQ(read_file(files.cert), cert) << "the certificate is left alone";
  EXPECT_FALSE(fs::exists(files.key));
}

TEST(ServerTls, ABrokenCertificateOrKeyIsAnErrorNamingTheFile) {
  TempDir dir;
  TestCa ca(dir.path());
  const auto good = ca.issue(dir.path(), "server", {"localhost"});
  const auto other = ca.issue(dir.path(), "other", {"localhost"});
  const std::string garbage = dir.path() + "/garbage.pem";
  write_file(garbage,
             "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n");

  server::TlsConfig config;
  config.cert_file = garbage;
  config.key_file = good.key;
  std::string error = identity_error(config);
  EXPECT_NE(error.find(garbage + ": not a PEM certificate"), std::string::npos) << error;

  config.cert_file = good.cert;
  config.key_file = garbage;
  error = identity_error(config);
  EXPECT_NE(error.find(garbage + ": not a PEM private key"), std::string::npos) << error;

  config.key_file = other.key;
  error = identity_error(config);
  EXPECT_NE(error.find(other.key + ": this key does not belong to the certificate in " + good.cert),
            std::string::npos)
      << error;

  config.cert_file = dir.path() + "/missing.crt";
  config.key_file = good.key;
  error = identity_error(config);
  EXPECT_NE(error.find(dir.path() + "/missing.crt: cannot read the TLS certificate"),
            std::string::npos)
      << error;
}

TEST(ServerTls, SpeaksTls13WithTheCertificateItsFingerprintNames) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  TestClient client(server.port(), Transport::kTls);
  EXPECT_EQ(client.tls_version(), "TLSv1.3");
  EXPECT_EQ(client.peer_fingerprint(), server.server().fingerprint());
  EXPECT_EQ(client.hello("alice").name(), "alice");
}

TEST(ServerTls, APlainClientIsToldTlsIsRequiredAndClosed) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  TestClient plain(server.port());
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("plain");
  plain.send(hello);
  const auto error = plain.expect_error(wire::ERROR_CODE_TLS_REQUIRED, 3s);
  EXPECT_NE(error.text().find("only speaks TLS"), std::string::npos) << error.text();
  EXPECT_TRUE(plain.wait_closed(3s));
}

TEST(ServerTls, ATlsClientAtAPlainServerFailsAtOnce) {
  TestServer server;  // --no-tls
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(TestClient(server.port(), Transport::kTls), std::runtime_error);
  // Bounded by the client's own 5 s receive timeout if the server said nothing.
  EXPECT_LT(std::chrono::steady_clock::now() - started, 4s) << "the server answered at once";
}

TEST(ServerTls, AHandshakeThatNeverFinishesIsDroppedAtTheHelloDeadline) {
  TempDir dir;
  auto config = tls_config(dir.path());
  config.session.hello_timeout = std::chrono::milliseconds(300);
  TestServer server(config);
  TestClient stalled(server.port());
  stalled.send_raw(std::string("\x16\x03\x01\x00\x05", 5));  // a record header, then nothing
  EXPECT_TRUE(stalled.wait_closed(3s));
  TestClient fine(server.port(), Transport::kTls);
  EXPECT_EQ(fine.hello("after").name(), "after");
}

TEST(ServerTls, AFullServerResetsAConnectionBeforeAnyTls) {
  // Saying "full" over TLS would cost a whole handshake a refusal: a flood
  // of refused connections would cost the server more than its players.
  TempDir dir;
  auto config = tls_config(dir.path());
  config.max_connections = 1;
  TestServer server(config);
  TestClient first(server.port(), Transport::kTls);
  first.hello("first");
  for (int i = 0; i < 20; ++i) {
    EXPECT_THROW(TestClient(server.port(), Transport::kTls), std::runtime_error)
        << "a handshake with a full server";
  }
  EXPECT_TRUE(tls_pinged(first, 1));
}

TEST(ServerTls, AnAddressPastItsShareIsResetBeforeAnyTls) {
  TempDir dir;
  auto config = tls_config(dir.path());
  config.max_connections_per_ip = 2;
  TestServer server(config);
  TestClient a(server.port(), Transport::kTls, "127.0.0.1", "127.0.0.2");
  TestClient b(server.port(), Transport::kTls, "127.0.0.1", "127.0.0.2");
  EXPECT_THROW(TestClient(server.port(), Transport::kTls, "127.0.0.1", "127.0.0.2"),
               std::runtime_error);
  TestClient other(server.port(), Transport::kTls, "127.0.0.1", "127.0.0.3");
  EXPECT_EQ(other.hello("other").name(), "other");
}

TEST(ServerTls, Tls12OffersForwardSecretAeadSuitesOnly) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  // A TLS 1.2 client that offers only suites with CBC and SHA-1 finds none
  // in common; one that offers GCM is served.
  EXPECT_FALSE(tls12_handshake(server.port(),
                               "ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:"
                               "AES128-SHA:AES256-SHA:ECDHE-RSA-AES128-SHA256"));
  EXPECT_TRUE(tls12_handshake(server.port(),
                              "ECDHE-ECDSA-AES128-GCM-SHA256:"
                              "ECDHE-RSA-AES128-GCM-SHA256"));
}

TEST(ServerTls, ReloadServesTheNewCertificateWithoutDroppingAnyone) {
  TempDir dir;
  TestCa ca(dir.path());
  const auto before = ca.issue(dir.path(), "server", {"localhost", "127.0.0.1"});
  auto config = tls_config(dir.path());
  config.tls.cert_file = before.cert;
  config.tls.key_file = before.key;
  TestServer server(config);
  TestClient old_client(server.port(), Transport::kTls);
  old_client.hello("stays");
  EXPECT_EQ(old_client.peer_fingerprint(), before.fingerprint);

  // Renewed in place, as certbot does, then SIGHUP.
  const auto after = ca.issue(dir.path(), "server", {"localhost", "127.0.0.1"});
  ASSERT_NE(after.fingerprint, before.fingerprint);
  EXPECT_EQ(server.server().reload_tls(), std::nullopt);
  EXPECT_EQ(server.server().fingerprint(), after.fingerprint);
  TestClient new_client(server.port(), Transport::kTls);
  EXPECT_EQ(new_client.peer_fingerprint(), after.fingerprint);
  new_client.hello("arrives");

  // The connection made before the reload still plays.
  old_client.create(3);
  EXPECT_EQ(old_client.expect_joined().state().cells(), "EEEEEEEEE");

  // A renewal gone wrong keeps the certificate that works.
  write_file(before.cert, "garbage\n");
  const auto error = server.server().reload_tls();
  ASSERT_TRUE(error);
  EXPECT_NE(error->find(before.cert + ": not a PEM certificate"), std::string::npos) << *error;
  TestClient later(server.port(), Transport::kTls);
  EXPECT_EQ(later.peer_fingerprint(), after.fingerprint);
}

// --- the server's records over TLS: made in memory, sent without waiting ---

// A server where chat is unlimited and a connection may fall 64 KiB behind.
server::ServerConfig tls_flood_config(const std::string& dir) {
  auto config = tls_config(dir);
  config.session.max_queued_bytes = 64 * 1024;
  config.session.messages_per_second = 0;
  config.lobby.chat_per_second = 1e9;
  config.lobby.chat_burst = 1e9;
  config.lobby.address_chat_per_second = 1e9;
  config.lobby.address_chat_burst = 1e9;
  return config;
}

TEST(ServerTls, ManyFramesInOneRecordAndOneFrameAcrossRecordsAreRead) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  TestClient client(server.port(), Transport::kTls);
  wire::ClientMessage hello;
  hello.set_request_id(1);
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("records");
  const std::string frame = wire::encode_frame(hello);
  // The Hello cut in two records, the second sent a little later. Nothing
  // the server shows says it has read the first alone: a gap in time keeps
  // the two from arriving as one read.
  ASSERT_TRUE(client.send_raw(frame.substr(0, 3)));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(client.send_raw(frame.substr(3)));
  client.expect([](const wire::ServerMessage& m) { return m.has_welcome(); }, "the Welcome");
  // Then three pings in a single record.
  std::string pings;
  for (std::uint64_t nonce = 1; nonce <= 3; ++nonce) {
    wire::ClientMessage ping;
    ping.set_request_id(static_cast<std::uint32_t>(10 + nonce));
    ping.mutable_ping()->set_nonce(nonce);
    pings += wire::encode_frame(ping);
  }
  ASSERT_TRUE(client.send_raw(pings));
  for (std::uint64_t nonce = 1; nonce <= 3; ++nonce) {
    const auto pong =
        client.expect([](const wire::ServerMessage& m) { return m.has_pong(); }, "a pong");
    EXPECT_EQ(pong.pong().nonce(), nonce);
  }
}

// A TLS client over memory BIOs, so that the test decides what goes out in
// one TCP send.
class MemoryTlsClient {
 public:
  explicit MemoryTlsClient(std::uint16_t port) {
    context_ = SSL_CTX_new(TLS_client_method());
    ssl_ = SSL_new(context_);
    in_ = BIO_new(BIO_s_mem());
    out_ = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(in_, -1);
    SSL_set_bio(ssl_, in_, out_);
    SSL_set_connect_state(ssl_);
    SSL_set_msg_callback(ssl_, count_record);
    SSL_set_msg_callback_arg(ssl_, this);
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ADD_FAILURE() << "connect failed";
    }
  }
  ~MemoryTlsClient() {
    SSL_free(ssl_);
    SSL_CTX_free(context_);
    ::close(fd_);
  }
  MemoryTlsClient(const MemoryTlsClient&) = delete;
  MemoryTlsClient& operator=(const MemoryTlsClient&) = delete;

  // The handshake up to its last flight, which stays unsent: true when done.
  bool handshake_holding_the_last_flight() {
    for (int round = 0; round < 10; ++round) {
      if (SSL_do_handshake(ssl_) == 1) return true;
      send_output();
      if (!receive(std::chrono::seconds(3))) return false;
    }
    return false;
  }
  void write(const std::string& bytes) {
    SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()));
  }
  // Everything OpenSSL made since the last send (and what send_part() kept
  // back), in one TCP send.
  void send_output() {
    take_output();
    if (!unsent_.empty()) ::send(fd_, unsent_.data(), unsent_.size(), MSG_NOSIGNAL);
    unsent_.clear();
  }
  // The first n bytes of it only; the rest waits for send_output().
  void send_part(std::size_t n) {
    take_output();
    n = std::min(n, unsent_.size());
    ::send(fd_, unsent_.data(), n, MSG_NOSIGNAL);
    unsent_.erase(0, n);
  }
  // Records of application data read so far (what the server's frames
  // came in).
  int data_records() const noexcept { return data_records_; }
  // The next message from the server, within timeout.
  std::optional<wire::ServerMessage> next(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      char buffer[16384];
      const int n = SSL_read(ssl_, buffer, sizeof buffer);
      if (n > 0) reader_.commit(copy_into_reader(buffer, n));
      std::string_view body;
      if (reader_.next(body) == wire::FrameReader::Status::kFrame) {
        wire::ServerMessage message;
        if (wire::parse_body(body, message)) return message;
        return std::nullopt;
      }
      if (n > 0) continue;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !receive(left)) return std::nullopt;
    }
  }

 private:
  void take_output() {
    char buffer[16384];
    for (int n; (n = BIO_read(out_, buffer, sizeof buffer)) > 0;) unsent_.append(buffer, n);
  }
  std::size_t copy_into_reader(const char* data, int n) {
    const auto space = reader_.prepare();
    const std::size_t take = std::min(space.size(), static_cast<std::size_t>(n));
    std::memcpy(space.data(), data, take);
    return take;
  }
  bool receive(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char buffer[16384];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    BIO_write(in_, buffer, static_cast<int>(n));
    return true;
  }

  // OpenSSL tells each record it reads; a TLS 1.3 record's inner content
  // type says whether it carries data (not a session ticket, say).
  static void count_record(int write_p, int, int content_type, const void* buf, std::size_t len,
                           SSL*, void* arg) {
    if (write_p == 0 && content_type == SSL3_RT_INNER_CONTENT_TYPE && len == 1 &&
        *static_cast<const unsigned char*>(buf) == SSL3_RT_APPLICATION_DATA) {
      ++static_cast<MemoryTlsClient*>(arg)->data_records_;
    }
  }

  SSL_CTX* context_ = nullptr;
  SSL* ssl_ = nullptr;
  BIO* in_ = nullptr;
  BIO* out_ = nullptr;
  int fd_ = -1;
  int data_records_ = 0;
  std::string unsent_;
  wire::FrameReader reader_{1 << 20};
};

TEST(ServerTls, AHelloSentWithTheHandshakesLastFlightIsAnswered) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  MemoryTlsClient client(server.port());
  ASSERT_TRUE(client.handshake_holding_the_last_flight());
  wire::ClientMessage hello;
  hello.set_request_id(1);
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("eager");
  client.write(wire::encode_frame(hello));
  // The client's Finished and its Hello arrive together: the server has the
  // Hello before it waits for the socket again.
  client.send_output();
  std::optional<wire::ServerMessage> answer;
  while ((answer = client.next(std::chrono::seconds(3))) && !answer->has_welcome()) {
  }
  ASSERT_TRUE(answer) << "no Welcome";
  EXPECT_EQ(answer->welcome().name(), "eager");
}

// What answering one message sends a connection goes out together: a
// player coming back gets its Welcome, its game and the game's state in one
// record, not one a frame.
TEST(ServerTls, WhatAnsweringOneMessageSendsGoesInOneRecord) {
  TempDir dir;
  // One thread (the default), whatever the test run's: the cork spans the
  // handling of one message, and only on one thread does the lobby answer
  // within it (with several, its answers come from its own thread).
  auto config = tls_config(dir.path());
  config.threads = 1;
  TestServer server(config);
  TestClient bob(server.port(), Transport::kTls);
  std::string token;
  {
    TestClient alice(server.port(), Transport::kTls);
    token = alice.hello("alice").resume_token();
    bob.hello("bob");
    alice.create(3);
    const auto id = alice.expect_joined().state().game_id();
    bob.join(id);
    bob.expect_joined();
  }  // alice's link drops; her seat waits for her
  bob.expect([](const wire::ServerMessage& m) { return m.has_opponent(); }, "alice away");
  MemoryTlsClient back(server.port());
  ASSERT_TRUE(back.handshake_holding_the_last_flight());
  back.send_output();
  wire::ClientMessage hello;
  hello.set_request_id(1);
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  back.write(wire::encode_frame(hello));
  back.send_output();
  int frames = 0;
  bool welcome = false, joined = false, state = false;
  while (!(welcome && joined && state)) {
    const auto message = back.next(std::chrono::seconds(3));
    ASSERT_TRUE(message) << "welcome " << welcome << ", joined " << joined << ", state " << state;
    ++frames;
    welcome = welcome || message->has_welcome();
    joined = joined || message->has_joined();
    state = state || message->has_state();
  }
  EXPECT_EQ(frames, 3);
  EXPECT_EQ(back.data_records(), 1) << "one record for the three frames";
}

TEST(ServerTls, PartOfARecordWaitsForItsRestWhileTheServerServesOthers) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  MemoryTlsClient slow(server.port());
  ASSERT_TRUE(slow.handshake_holding_the_last_flight());
  slow.send_output();  // the handshake's last flight
  wire::ClientMessage hello;
  hello.set_request_id(1);
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("trickle");
  slow.write(wire::encode_frame(hello));
  // Three bytes of the record's five-byte header: OpenSSL holds them, and
  // the server must wait on the socket for the rest, not spin on them.
  slow.send_part(3);
  // The server shows nothing of bytes OpenSSL holds: a while passes for
  // them to reach it before another client asks to be served.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  TestClient other(server.port(), Transport::kTls);
  other.hello("other");  // answered: the server's thread is free
  slow.send_output();
  std::optional<wire::ServerMessage> answer;
  while ((answer = slow.next(std::chrono::seconds(3))) && !answer->has_welcome()) {
  }
  ASSERT_TRUE(answer) << "no Welcome once the record was whole";
  EXPECT_EQ(answer->welcome().name(), "trickle");
}

TEST(ServerTls, AClientThatFallsTooFarBehindIsToldWhyBeforeItIsClosed) {
  TempDir dir;
  auto config = tls_flood_config(dir.path());
  config.session.close_linger = std::chrono::milliseconds(30'000);
  config.session.socket_send_buffer = 16 * 1024;
  TestServer server(config);
  TestClient sleeper(server.port(), Transport::kTls);
  TestClient talker(server.port(), Transport::kTls);
  sleeper.set_receive_buffer(4096);
  sleeper.hello("sleeper");
  talker.hello("talker");
  sleeper.create(3);
  const auto game = sleeper.expect_joined().state().game_id();
  talker.join(game);
  talker.expect_joined();
  // 2 MB of chat: far more than the sleeper's 64 KiB queue and the sockets'
  // buffers hold. The talker reads its own echoes, so only the sleeper falls
  // behind.
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text(std::string(200, 'z'));
  for (int batch = 0; batch < 100; ++batch) {
    for (int i = 0; i < 100; ++i) talker.send(chat);
    for (int i = 0; i < 100; ++i) {
      talker.expect([](const wire::ServerMessage& r) { return r.has_chat(); }, "an echo");
    }
  }
  // The sleeper wakes up: behind the records already on their way comes the
  // reason, whole.
  const auto error = sleeper.expect_error(wire::ERROR_CODE_SLOW_CONSUMER, 10s);
  EXPECT_TRUE(error.fatal());
  EXPECT_TRUE(sleeper.wait_closed());
  TestClient after(server.port(), Transport::kTls);
  EXPECT_EQ(after.hello("after").name(), "after");
}

TEST(ServerTls, KeyUpdatesBeforeHelloAreCutOffAtAFew) {
  // Each key update costs the server a key derivation: a peer that sends
  // more than a few after the handshake is closed at once, Hello or not.
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  TestClient victim(server.port(), Transport::kTls);
  victim.hello("victim");
  TestClient updater(server.port(), Transport::kTls);
  std::signal(SIGPIPE, SIG_IGN);  // a write to the closed connection fails, no more
  int sent = 0;
  while (sent < 200 && updater.key_update()) ++sent;
  EXPECT_GT(sent, 8);
  EXPECT_TRUE(updater.wait_closed(3s)) << "still open after " << sent << " key updates";
  EXPECT_TRUE(tls_pinged(victim, 7));
}

TEST(ServerTls, AFewKeyUpdatesAreServedAsUsual) {
  TempDir dir;
  TestServer server(tls_config(dir.path()));
  TestClient c(server.port(), Transport::kTls);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(c.key_update());
  EXPECT_EQ(c.hello("rekeyed").name(), "rekeyed");
  EXPECT_TRUE(tls_pinged(c, 3));
}

TEST(ServerTls, AConnectionStreamingRecordsLeavesOthersServedWhileItStreams) {
  // No rate limit: the reader's turns alone keep one TLS connection's stream
  // of records from holding up everyone else.
  TempDir dir;
  auto config = tls_config(dir.path());
  config.session.messages_per_second = 0;
  TestServer server(config);
  TestClient victim(server.port(), Transport::kTls);
  victim.hello("victim");
  TestClient flooder(server.port(), Transport::kTls);
  flooder.hello("flooder");
  FloodThread flood(flooder, pong_frames(8192), 10s);
  ASSERT_TRUE(eventually([&] { return flood.sent() > (2u << 20) || !flood.running(); }));
  EXPECT_TRUE(tls_pinged(victim, 7, 15s));
  EXPECT_TRUE(flood.running()) << "the ping was answered only once the flood had ended";
  flood.stop();
  EXPECT_FALSE(flood.cut_off());
}

}  // namespace
}  // namespace ttt::testing
