// IdentityBackoff: failed identity checks per address (a wrong secret for a
// name, a resume token nobody holds), with a growing delay. The first
// `free_failures` in an hour cost nothing; each one past them shuts the
// address out of identity checks for 1 s, then 2 s, 4 s, ... up to 5
// minutes. An address with no failure for an hour is forgotten. A guesser
// gets a handful of tries an hour; a player who mistypes once never waits.
// The table is bounded (the oldest entries go first). Not thread-safe: the
// lobby's executor only.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <unordered_map>

namespace ttt::server {

class IdentityBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr auto kForgetAfter = std::chrono::hours(1);
  static constexpr auto kLongestWait = std::chrono::minutes(5);

  // free_failures 0: no limit (never a wait).
  explicit IdentityBackoff(std::size_t free_failures, std::size_t max_addresses = 65'536);

  // How long address must still wait before its next check (zero: go
  // ahead). The empty address (the server's own) never waits.
  Clock::duration wait(const std::string& address, Clock::time_point now = Clock::now()) const;

  // A check from address failed.
  void failed(const std::string& address, Clock::time_point now = Clock::now());

  std::size_t size() const noexcept { return failures_.size(); }

 private:
  struct Failures {
    std::size_t count = 0;
    Clock::time_point last;
    Clock::time_point locked_until;
  };
  void forget_oldest();

  std::size_t free_failures_;
  std::size_t max_addresses_;
  std::unordered_map<std::string, Failures> failures_;
};

}  // namespace ttt::server
