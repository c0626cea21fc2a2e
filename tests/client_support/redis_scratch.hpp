// RedisScratch: a redis-server of a test's own (Debian's redis-server) on a
// free loopback port, keeping nothing on disk (--save '' --appendonly no),
// killed and reaped when the scratch ends, so tests side by side never share
// one. A test can stop it, pause it (SIGSTOP: it answers nothing) and start
// it again on the same port, to see what nodes do while Redis is away.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "client_support/child_process.hpp"

namespace ttt::testing {

// TTT_REQUIRE_REDIS=1 (./ttt test sets it): a test that needs Redis fails
// without it instead of skipping.
bool redis_required();

class RedisScratch {
 public:
  // Empty when redis-server can be run; else why not.
  static std::string unavailable();

  // How it is reached, beyond the defaults: more redis-server arguments
  // (--requirepass, --user ...), what redis-cli must say to reach it (-a,
  // --user, --tls --cacert ...), and TLS only on its port (the TLS files
  // among the arguments).
  struct Options {
    std::vector<std::string> server_args;
    std::vector<std::string> cli_args;
    bool tls = false;
  };

  RedisScratch() : RedisScratch(Options{}) {}  // starts it and waits (bounded) for PING
  explicit RedisScratch(Options options);
  ~RedisScratch();
  RedisScratch(const RedisScratch&) = delete;
  RedisScratch& operator=(const RedisScratch&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // Kills it (its data is gone, as after a crash of a Redis that keeps nothing).
  void stop();
  // Starts it again on the same port.
  void start();
  // SIGSTOP and SIGCONT: a Redis that hangs, then comes back.
  void pause();
  void resume();

  // Runs one command through redis-cli and returns its output (trimmed).
  std::string cli(const std::string& command) const;

 private:
  std::uint16_t port_ = 0;
  Options options_;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace ttt::testing

// In a test body: skips (or fails under ./ttt test) without redis-server.
#define TTT_NEED_REDIS()                                                              \
  do {                                                                                \
    if (const auto why = ::ttt::testing::RedisScratch::unavailable(); !why.empty()) { \
      if (::ttt::testing::redis_required()) FAIL() << why;                            \
      GTEST_SKIP() << why;                                                            \
    }                                                                                 \
  } while (false)
