// LogLimiter: keeps one address from filling the log. The lines a connection
// causes (opened, closed, a new player, a game started or over) are let
// through in a burst, then one every few seconds per address; the rest are
// counted, and the count goes out with the next line let through for that
// address, or with flush() once the address has gone quiet. Thread-safe (a
// small mutex; nothing else is called while it is held).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ttt::server {

class LogLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // Each address may log burst lines, then one every `every`.
  explicit LogLimiter(double burst = 20, Clock::duration every = std::chrono::seconds(5),
                      std::size_t max_addresses = 65'536);

  // Whether a line for address may be logged now. When it may, `held_back`
  // is how many of its lines were dropped since the last one that went out
  // (say it in the line: suffix() words it).
  struct Verdict {
    bool log = false;
    std::uint64_t held_back = 0;
  };
  Verdict check(const std::string& address, Clock::time_point now = Clock::now());

  // " (N similar lines from ADDRESS held back)", or "" for none.
  static std::string suffix(const std::string& address, std::uint64_t held_back);

  // Logs (at info) the counts of lines held back from addresses that may
  // log a line again (the count is that line); forgets quiet addresses.
  // Call now and then.
  void flush(Clock::time_point now = Clock::now());

  // Lines dropped in all, since the start.
  std::uint64_t dropped() const;

 private:
  struct Entry {
    double tokens;
    Clock::time_point last;
    std::uint64_t held_back = 0;
  };
  void refill(Entry& entry, Clock::time_point now) const;

  const double burst_;
  const double rate_;  // tokens a second
  const std::size_t max_addresses_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::uint64_t dropped_ = 0;
};

}  // namespace ttt::server
