// TcpProxy: a TCP relay a test puts between a server and what it uses
// (Redis, PostgreSQL), on a free loopback port, forwarding each connection to
// a TCP address or a Unix socket. freeze() makes the far side fall silent as
// a stopped process or a cut link would: connections stay open, nothing
// passes either way, new ones are accepted and left waiting; heal() lets
// everything through again (what waited flows on). One thread of its own,
// every wait bounded; the destructor closes everything.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ttt::testing {

class TcpProxy {
 public:
  // To host:port; or, with a host starting with '/', to that folder's
  // PostgreSQL socket (".s.PGSQL.<port>").
  TcpProxy(std::string host, std::uint16_t port);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  void freeze() { frozen_ = true; }
  void heal() { frozen_ = false; }

 private:
  struct Pair {
    int client = -1;
    int server = -1;  // -1 until connected (after a freeze: on heal)
  };
  void run();
  int connect_upstream() const;
  void close_pair(Pair& pair);

  std::string host_;
  std::uint16_t target_port_;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> frozen_{false};
  std::atomic<bool> stopping_{false};
  std::vector<Pair> pairs_;  // the relay thread's own
  std::thread thread_;
};

}  // namespace ttt::testing
