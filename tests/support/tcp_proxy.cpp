#include "support/tcp_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ttt::testing {

TcpProxy::TcpProxy(std::string host, std::uint16_t port)
    : host_(std::move(host)), target_port_(port) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listener_, 64) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("the proxy can't listen on loopback");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { run(); });
}

TcpProxy::~TcpProxy() {
  stopping_ = true;
  thread_.join();
  for (Pair& pair : pairs_) close_pair(pair);
  ::close(listener_);
}

int TcpProxy::connect_upstream() const {
  if (host_.starts_with('/')) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = host_ + "/.s.PGSQL." + std::to_string(target_port_);
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(target_port_);
  ::inet_pton(AF_INET, host_ == "localhost" ? "127.0.0.1" : host_.c_str(), &address.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void TcpProxy::close_pair(Pair& pair) {
  if (pair.client >= 0) ::close(pair.client);
  if (pair.server >= 0) ::close(pair.server);
  pair.client = pair.server = -1;
}

void TcpProxy::run() {
  char buffer[16384];
  while (!stopping_) {
    const bool frozen = frozen_;
    if (!frozen) {
      for (Pair& pair : pairs_) {
        if (pair.client >= 0 && pair.server < 0) {
          pair.server = connect_upstream();
          if (pair.server < 0) close_pair(pair);
        }
      }
    }
    std::vector<pollfd> fds{{listener_, POLLIN, 0}};
    if (!frozen) {
      for (const Pair& pair : pairs_) {
        if (pair.client < 0 || pair.server < 0) continue;
        fds.push_back({pair.client, POLLIN, 0});
        fds.push_back({pair.server, POLLIN, 0});
      }
    }
    if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
    if (fds[0].revents & POLLIN) {
      const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client >= 0) pairs_.push_back({client, -1});
    }
    for (std::size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      auto it = std::find_if(pairs_.begin(), pairs_.end(), [&](const Pair& p) {
        return p.client == fds[i].fd || p.server == fds[i].fd;
      });
      if (it == pairs_.end()) continue;
      const int to = it->client == fds[i].fd ? it->server : it->client;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      bool ok = n > 0;
      for (ssize_t sent = 0; ok && sent < n;) {
        const ssize_t w =
            ::send(to, buffer + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
        ok = w > 0;
        sent += std::max<ssize_t>(w, 0);
      }
      if (!ok) close_pair(*it);
    }
    pairs_.erase(
        std::remove_if(pairs_.begin(), pairs_.end(), [](const Pair& p) { return p.client < 0; }),
        pairs_.end());
  }
}

}  // namespace ttt::testing
