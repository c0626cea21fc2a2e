// The server's TLS (issue 14): its own self-signed certificate, a CA's
// certificate and key from files, reloading them, and what a peer that
// speaks the other transport is told. Real OpenSSL over loopback; the
// certificates are made in temporary directories and go with them.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "client_support/child_process.hpp"
#include "client_support/test_certificates.hpp"
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

TEST(ServerTls, AFullServerSaysSoOverTls) {
  TempDir dir;
  auto config = tls_config(dir.path());
  config.max_connections = 1;
  TestServer server(config);
  TestClient first(server.port(), Transport::kTls);
  first.hello("first");
  TestClient second(server.port(), Transport::kTls);
  second.expect_error(wire::ERROR_CODE_SERVER_FULL, 3s);
  EXPECT_TRUE(second.wait_closed(3s));
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

}  // namespace
}  // namespace ttt::testing
