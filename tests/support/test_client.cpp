#include "support/test_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>

#include "ttt/tls/fingerprint.hpp"

namespace ttt::testing {

namespace {

SSL_CTX* client_context() {
  static SSL_CTX* const context = [] {
    SSL_CTX* made = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(made, TLS1_2_VERSION);
    return made;
  }();
  return context;
}

}  // namespace

TestClient::TestClient(std::uint16_t port, const std::string& host, const std::string& from)
    : TestClient(port, Transport::kPlain, host, from) {}

TestClient::TestClient(std::uint16_t port, Transport transport, const std::string& host,
                       const std::string& from) {
  const bool v6 = host.find(':') != std::string::npos;
  fd_ = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (!from.empty() && !v6) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from.c_str(), &local.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
      const int error = errno;
      ::close(fd_);
      throw std::runtime_error("bind " + from + ": " + std::strerror(error));
    }
  }
  int rc = -1;
  if (v6) {
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_port = htons(port);
    ::inet_pton(AF_INET6, host.c_str(), &addr.sin6_addr);
    rc = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    ::inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
    rc = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  }
  if (rc != 0) {
    const int error = errno;
    ::close(fd_);
    throw std::runtime_error(std::string("connect: ") + std::strerror(error));
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (transport == Transport::kPlain) return;
  // The handshake blocks, bounded by a receive timeout.
  timeval limit{5, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  tls_ = SSL_new(client_context());
  SSL_set_fd(tls_, fd_);
  if (SSL_connect(tls_) != 1) {
    SSL_free(tls_);
    ::close(fd_);
    throw std::runtime_error("TLS handshake with port " + std::to_string(port) + " failed");
  }
  limit = {0, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  X509* certificate = SSL_get1_peer_certificate(tls_);
  peer_fingerprint_ = tls::fingerprint(certificate);
  X509_free(certificate);
}

std::string TestClient::tls_version() const { return tls_ != nullptr ? SSL_get_version(tls_) : ""; }

bool TestClient::key_update() {
  return tls_ != nullptr && SSL_key_update(tls_, SSL_KEY_UPDATE_NOT_REQUESTED) == 1 &&
         SSL_do_handshake(tls_) == 1;
}

TestClient::~TestClient() {
  if (tls_ != nullptr) SSL_free(tls_);
  if (fd_ >= 0) ::close(fd_);
}

std::uint32_t TestClient::send(wire::ClientMessage message) {
  if (message.request_id() == 0) message.set_request_id(next_request_id_++);
  send_raw(wire::encode_frame(message));
  return message.request_id();
}

bool TestClient::send_raw(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = tls_ != nullptr
                          ? SSL_write(tls_, bytes.data(), static_cast<int>(bytes.size()))
                          : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::optional<wire::ServerMessage> TestClient::receive(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool spent = false;  // the socket was looked at once after the deadline
  for (;;) {
    std::string_view body;
    const auto status = reader_.next(body);
    if (status == wire::FrameReader::Status::kFrame) {
      wire::ServerMessage message;
      if (!wire::parse_body(body, message)) {
        ADD_FAILURE() << "server sent a frame that is not a ServerMessage";
        return std::nullopt;
      }
      return message;
    }
    if (status == wire::FrameReader::Status::kTooLarge) {
      ADD_FAILURE() << "server sent an oversized frame";
      return std::nullopt;
    }
    if (closed_) return std::nullopt;
    // Rounded up, so a short timeout still waits; once it is spent, what has
    // already arrived is still read (a zero timeout takes only that).
    auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      if (spent) return std::nullopt;
      spent = true;
      left = std::chrono::milliseconds(0);
    }
    const Read read = read_some(left);
    if (read == Read::kClosed) closed_ = true;
    if (read == Read::kTimeout) return std::nullopt;
  }
}

TestClient::Read TestClient::read_some(std::chrono::milliseconds wait) {
  // TLS may hold decrypted bytes the socket no longer shows.
  if (tls_ == nullptr || SSL_pending(tls_) == 0) {
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(wait.count()));
    if (ready < 0 && errno == EINTR) return Read::kAgain;
    if (ready <= 0) return Read::kTimeout;
  }
  const std::span<char> space = reader_.prepare();
  if (tls_ != nullptr) {
    const int n = SSL_read(tls_, space.data(), static_cast<int>(space.size()));
    if (n > 0) {
      reader_.commit(static_cast<std::size_t>(n));
      return Read::kAgain;
    }
    // A record not yet whole is no end: wait for the rest.
    return SSL_get_error(tls_, n) == SSL_ERROR_WANT_READ ? Read::kAgain : Read::kClosed;
  }
  const ssize_t n = ::recv(fd_, space.data(), space.size(), 0);
  if (n < 0 && errno == EINTR) return Read::kAgain;
  if (n <= 0) return Read::kClosed;
  reader_.commit(static_cast<std::size_t>(n));
  return Read::kAgain;
}

wire::ServerMessage TestClient::expect(const std::function<bool(const wire::ServerMessage&)>& pred,
                                       std::string_view what, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    auto message = receive(std::max(left, std::chrono::milliseconds(0)));
    if (!message) {
      ADD_FAILURE() << "expected " << what << " within " << timeout.count() << " ms"
                    << (closed_ ? " (connection closed)" : "");
      return {};
    }
    if (pred(*message)) return *message;
  }
}

wire::Error TestClient::expect_error(wire::ErrorCode code, std::chrono::milliseconds timeout) {
  auto is_that_error = [code](const wire::ServerMessage& r) {
    return r.has_error() && r.error().code() == code;
  };
  return expect(is_that_error, "error " + wire::ErrorCode_Name(code), timeout).error();
}

wire::GameState TestClient::expect_state(const std::function<bool(const wire::GameState&)>& pred,
                                         std::string_view what, std::chrono::milliseconds timeout) {
  auto m = expect(
      [&pred](const wire::ServerMessage& r) {
        return (r.has_state() && pred(r.state())) || (r.has_joined() && pred(r.joined().state()));
      },
      what, timeout);
  return m.has_joined() ? m.joined().state() : m.state();
}

bool TestClient::wait_closed(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!closed_ && std::chrono::steady_clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    receive(left);
  }
  return closed_;
}

namespace {

// The secrets servers issued, by name, as a real client keeps them in its
// identity file. A server that doesn't know the name ignores the secret.
std::map<std::string, std::string>& known_secrets() {
  static std::map<std::string, std::string> secrets;
  return secrets;
}

}  // namespace

wire::Welcome TestClient::hello(const std::string& name, const std::string& resume_token,
                                bool take_over) {
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_take_over(take_over);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_resume_token(resume_token);
  m.mutable_hello()->set_client("test");
  if (auto known = known_secrets().find(name); known != known_secrets().end()) {
    m.mutable_hello()->set_secret(known->second);
  }
  send(m);
  auto welcome =
      expect([](const wire::ServerMessage& r) { return r.has_welcome(); }, "Welcome").welcome();
  if (!welcome.secret().empty()) known_secrets()[welcome.name()] = welcome.secret();
  return welcome;
}

std::uint32_t TestClient::create(int size, bool is_private, bool vs_bot, wire::BotLevel level) {
  wire::ClientMessage m;
  m.mutable_create_game()->set_size(size);
  m.mutable_create_game()->set_is_private(is_private);
  m.mutable_create_game()->set_vs_bot(vs_bot);
  m.mutable_create_game()->set_bot_level(level);
  return send(m);
}

std::uint32_t TestClient::join(std::uint64_t game_id, const std::string& code) {
  wire::ClientMessage m;
  m.mutable_join_game()->set_game_id(game_id);
  m.mutable_join_game()->set_invite_code(code);
  return send(m);
}

std::uint32_t TestClient::quick(int size) {
  wire::ClientMessage m;
  m.mutable_quick_match()->set_size(size);
  return send(m);
}

std::uint32_t TestClient::spectate(std::uint64_t game_id, const std::string& code) {
  wire::ClientMessage m;
  m.mutable_spectate()->set_game_id(game_id);
  m.mutable_spectate()->set_invite_code(code);
  return send(m);
}

std::uint32_t TestClient::move(int row, int col, std::uint64_t game_id) {
  wire::ClientMessage m;
  m.mutable_make_move()->set_game_id(game_id);
  m.mutable_make_move()->set_row(row);
  m.mutable_make_move()->set_col(col);
  return send(m);
}

std::uint32_t TestClient::simple(void (*set)(wire::ClientMessage&)) {
  wire::ClientMessage m;
  set(m);
  return send(m);
}

wire::Joined TestClient::expect_joined(std::chrono::milliseconds timeout) {
  return expect([](const wire::ServerMessage& m) { return m.has_joined(); }, "Joined", timeout)
      .joined();
}

std::string frame_header(std::uint32_t length) {
  std::string header(4, '\0');
  header[0] = static_cast<char>(length >> 24);
  header[1] = static_cast<char>(length >> 16);
  header[2] = static_cast<char>(length >> 8);
  header[3] = static_cast<char>(length);
  return header;
}

void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

void TestClient::set_receive_buffer(int bytes) {
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

}  // namespace ttt::testing
