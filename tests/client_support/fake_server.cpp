#include "client_support/fake_server.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "client_support/loopback_trust.hpp"

namespace ttt::testing {
namespace {

// A socket's reads and writes give up after this (a TLS handshake blocks).
constexpr timeval kSocketTimeout{5, 0};

}  // namespace

FakeServer::FakeServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), size) != 0 ||
      ::listen(listen_fd_, 4) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &size) != 0) {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    throw std::runtime_error("the fake server could not listen");
  }
  port_ = ntohs(addr.sin_port);
  register_server(port_, "");  // plain TCP: the clients come with --no-tls
}

FakeServer::FakeServer(const CertificateFiles& certificate) : FakeServer() {
  forget_server(port_, "");
  tls_ = SSL_CTX_new(TLS_server_method());
  if (tls_ == nullptr || SSL_CTX_use_certificate_chain_file(tls_, certificate.cert.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(tls_, certificate.key.c_str(), SSL_FILETYPE_PEM) != 1) {
    if (tls_ != nullptr) SSL_CTX_free(tls_);
    ::close(listen_fd_);
    throw std::runtime_error("the fake server could not load its certificate");
  }
  fingerprint_ = certificate.fingerprint;
  register_server(port_, fingerprint_);
}

FakeServer::~FakeServer() {
  forget_server(port_, fingerprint_);
  close_connection();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (tls_ != nullptr) SSL_CTX_free(tls_);
}

void FakeServer::close_connection() {
  if (ssl_ != nullptr) SSL_free(ssl_);
  ssl_ = nullptr;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  reader_ = wire::FrameReader();
}

bool FakeServer::accept_one() {
  fd_ = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd_ < 0 || tls_ == nullptr) return fd_ >= 0;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &kSocketTimeout, sizeof kSocketTimeout);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &kSocketTimeout, sizeof kSocketTimeout);
  // OpenSSL writes to the socket with write(): a client that already hung
  // up must be an EPIPE for the test, not a SIGPIPE that ends it.
  ::signal(SIGPIPE, SIG_IGN);
  ssl_ = SSL_new(tls_);
  if (ssl_ != nullptr && SSL_set_fd(ssl_, fd_) == 1 && SSL_accept(ssl_) == 1) return true;
  close_connection();  // a client that refused the certificate, say
  return false;
}

bool FakeServer::buffered() const { return ssl_ != nullptr && SSL_pending(ssl_) > 0; }

bool FakeServer::read_some() {
  const auto space = reader_.prepare();
  const ssize_t n = ssl_ != nullptr ? SSL_read(ssl_, space.data(), static_cast<int>(space.size()))
                                    : ::read(fd_, space.data(), space.size());
  if (n <= 0) return false;
  reader_.commit(static_cast<std::size_t>(n));
  return true;
}

std::optional<wire::ClientMessage> FakeServer::expect(
    const std::function<bool(const wire::ClientMessage&)>& pred,
    std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::string_view body;
    if (fd_ >= 0 && reader_.next(body) == wire::FrameReader::Status::kFrame) {
      wire::ClientMessage m;
      if (wire::parse_body(body, m) && pred(m)) return m;
      continue;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (!buffered()) {
      pollfd p{fd_ >= 0 ? fd_ : listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
    }
    if (fd_ < 0) {
      accept_one();
      continue;
    }
    if (!read_some()) return std::nullopt;  // the client hung up
  }
}

bool FakeServer::hang_up_after_the_client(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  expect([](const wire::ClientMessage&) { return false; }, timeout);
  close_connection();
  return std::chrono::steady_clock::now() < deadline;
}

void FakeServer::send(const wire::ServerMessage& message) {
  const std::string frame = wire::encode_frame(message);
  const ssize_t n = ssl_ != nullptr ? SSL_write(ssl_, frame.data(), static_cast<int>(frame.size()))
                                    : ::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL);
  ASSERT_EQ(n, static_cast<ssize_t>(frame.size()));
}

void FakeServer::redirect(const wire::Redirect& redirect, std::uint32_t in_reply_to) {
  wire::ServerMessage m;
  m.set_in_reply_to(in_reply_to);
  *m.mutable_redirect() = redirect;
  send(m);
  close_connection();
}

void FakeServer::welcome(const wire::ClientMessage& hello, const std::string& name,
                         const std::string& instance, std::uint64_t game_id) {
  send(welcome_message(hello, name, instance, game_id));
}

wire::ServerMessage FakeServer::welcome_message(const wire::ClientMessage& hello,
                                                const std::string& name,
                                                const std::string& instance,
                                                std::uint64_t game_id) {
  wire::ServerMessage m;
  m.set_in_reply_to(hello.request_id());
  m.mutable_welcome()->set_player_id(1);
  m.mutable_welcome()->set_resume_token("token");
  m.mutable_welcome()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_welcome()->set_name(name.empty() ? hello.hello().name() : name);
  m.mutable_welcome()->set_rating(1200);
  m.mutable_welcome()->set_server_instance(instance);
  m.mutable_welcome()->set_game_id(game_id);
  return m;
}

void FakeServer::state(const wire::GameState& state, std::uint32_t in_reply_to) {
  wire::ServerMessage m;
  m.set_in_reply_to(in_reply_to);
  *m.mutable_state() = state;
  send(m);
}

}  // namespace ttt::testing
