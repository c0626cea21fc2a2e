#include "client_support/fake_server.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "client_support/loopback_trust.hpp"

namespace ttt::testing {

FakeServer::FakeServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), size) != 0 ||
      ::listen(listen_fd_, 1) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &size) != 0) {
    if (listen_fd_ >= 0) ::close(listen_fd_);
    throw std::runtime_error("the fake server could not listen");
  }
  port_ = ntohs(addr.sin_port);
  register_server(port_, "");  // plain TCP: the clients come with --no-tls
}

FakeServer::~FakeServer() {
  forget_server(port_, "");
  for (int fd : {fd_, listen_fd_}) {
    if (fd >= 0) ::close(fd);
  }
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
    pollfd p{fd_ >= 0 ? fd_ : listen_fd_, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      return std::nullopt;
    }
    if (fd_ < 0) {
      fd_ = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      continue;
    }
    const auto space = reader_.prepare();
    const ssize_t n = ::read(fd_, space.data(), space.size());
    if (n <= 0) return std::nullopt;  // the client hung up
    reader_.commit(static_cast<std::size_t>(n));
  }
}

bool FakeServer::hang_up_after_the_client(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  expect([](const wire::ClientMessage&) { return false; }, timeout);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return std::chrono::steady_clock::now() < deadline;
}

void FakeServer::send(const wire::ServerMessage& message) {
  const std::string frame = wire::encode_frame(message);
  ASSERT_EQ(::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(frame.size()));
}

void FakeServer::welcome(const wire::ClientMessage& hello, const std::string& name) {
  wire::ServerMessage m;
  m.set_in_reply_to(hello.request_id());
  m.mutable_welcome()->set_player_id(1);
  m.mutable_welcome()->set_resume_token("token");
  m.mutable_welcome()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_welcome()->set_name(name.empty() ? hello.hello().name() : name);
  m.mutable_welcome()->set_rating(1200);
  send(m);
}

void FakeServer::state(const wire::GameState& state, std::uint32_t in_reply_to) {
  wire::ServerMessage m;
  m.set_in_reply_to(in_reply_to);
  *m.mutable_state() = state;
  send(m);
}

}  // namespace ttt::testing
