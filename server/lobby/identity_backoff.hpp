// IdentityBackoff: failed identity checks per key (a name asked for from
// one network, a resume token or the operator's token from one address),
// with a growing delay. The first `free_failures` in an hour cost nothing;
// each one past them shuts the key out of identity checks for 1 s, then
// 2 s, 4 s, ... up to 5 minutes. A key with no failure for an hour is
// forgotten. A guesser gets a handful of tries an hour; a player who
// mistypes once never waits, and wrong secrets for one name never lock
// another name out of the same address (a NAT). The table is bounded (the
// key failing least recently goes first, in constant time). Not
// thread-safe: the lobby's executor only.
#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>

namespace ttt::server {

class IdentityBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr auto kForgetAfter = std::chrono::hours(1);
  static constexpr auto kLongestWait = std::chrono::minutes(5);

  // free_failures 0: no limit (never a wait).
  explicit IdentityBackoff(std::size_t free_failures, std::size_t max_keys = 65'536);

  // How long key must still wait before its next check (zero: go ahead).
  // The empty key (the server's own) never waits.
  Clock::duration wait(const std::string& key, Clock::time_point now = Clock::now()) const;

  // A check under key failed.
  void failed(const std::string& key, Clock::time_point now = Clock::now());

  std::size_t size() const noexcept { return failures_.size(); }

  // The key of a name asked for from an address key: the name's key and the
  // address's network (an IPv6 /48; an IPv4 address itself).
  static std::string name_key(const std::string& name_key, const std::string& address);

 private:
  struct Failures {
    std::size_t count = 0;
    Clock::time_point last;
    Clock::time_point locked_until;
    std::list<std::string>::iterator at;  // its place in recent_
  };

  std::size_t free_failures_;
  std::size_t max_keys_;
  std::unordered_map<std::string, Failures> failures_;
  std::list<std::string> recent_;  // keys, the latest failure first
};

}  // namespace ttt::server
