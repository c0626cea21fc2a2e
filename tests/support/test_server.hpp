// TestServer: a ttt-server running in-process on 127.0.0.1 and a free port,
// on its own thread; stopped and joined when the object goes away.
#pragma once

#include <thread>

#include "server.hpp"

namespace ttt::testing {

// A configuration for tests: loopback, any port, a throwaway in-memory
// database, plain TCP (no TLS), no limits per address (connections, new
// names, identity failures), quiet logs; timers at their defaults unless a
// test changes them.
server::ServerConfig test_config();

class TestServer {
 public:
  explicit TestServer(server::ServerConfig config = test_config());
  ~TestServer();

  std::uint16_t port() const { return server_.port(); }
  server::Server& server() { return server_; }
  server::LobbyStats stats() { return server_.stats(); }

 private:
  server::Server server_;
  std::thread thread_;
};

}  // namespace ttt::testing
