#include "support/test_server.hpp"

#include <spdlog/spdlog.h>

#include "support/test_threads.hpp"

namespace ttt::testing {

server::ServerConfig test_config() {
  server::ServerConfig config;
  config.bind = "127.0.0.1";
  config.port = 0;
  config.threads = test_server_threads();
  config.db = ":memory:";
  // Plain TCP: these tests speak the protocol over raw sockets; the TLS
  // tests turn it on with a certificate of their own.
  config.tls.enabled = false;
  // No caps per address: every test client comes from 127.0.0.1 (the tests
  // of those limits set them).
  config.max_connections_per_ip = 0;
  config.listener.connections_per_second = 0;
  config.lobby.new_names_per_hour = 0;
  config.lobby.identity_failures = 0;
  config.lobby.bot_budget = std::chrono::milliseconds(20);
  // Every test client comes from 127.0.0.1: the caps per address are off
  // unless a test is about them.
  config.lobby.quotas = {0, 0};
  // Rated games between test clients, all of one address (the tests of that
  // rule turn it off).
  config.lobby.rate_one_address = true;
  spdlog::set_level(spdlog::level::warn);
  return config;
}

TestServer::TestServer(server::ServerConfig config)
    : server_(std::move(config)), thread_([this] { server_.run(); }) {}

TestServer::~TestServer() {
  server_.stop("test over");
  thread_.join();
}

}  // namespace ttt::testing
