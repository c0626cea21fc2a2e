// Matchmaker: the quick-match queues, one per board size, win length and
// clock, first come first paired. LocalMatchmaker keeps them in this process
// (and answers at once); redis/shared_matchmaker keeps them in Redis for
// every node of the lobby (pairing atomically there, answering later). Runs
// on the logic executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// One player's wish to be paired.
struct MatchRequest {
  SeatId player_id{};
  AccountId account{};
  std::string name;
  bool program = false;  // said Hello as a bot
  std::string node;      // the node the player waits at; empty: this one
  int size = 3;
  int win_length = 3;  // the size for the origin's whole-line rule
  wire::Rated rated = wire::RATED_DEFAULT;
  std::uint32_t clock_initial_ms = 0;  // the Fischer clock asked for; 0: none
  std::uint32_t clock_increment_ms = 0;
};

// A match's outcome: the request it was paired with (taken out of its
// queue), or nothing (the request waits now); or, when the queues can't be
// reached, available false.
struct MatchOutcome {
  std::optional<MatchRequest> paired;
  bool available = true;
};

class Matchmaker {
 public:
  using Done = std::function<void(const MatchOutcome&)>;
  using Cancelled = std::function<void(bool was_waiting)>;

  virtual ~Matchmaker() = default;
  // Pairs the request with the longest-waiting request of the same size, win
  // length and clock, or queues it. A player waits in one queue at most:
  // asking again replaces the wish. done may run before match returns.
  virtual void match(const MatchRequest& request, Done done) = 0;
  // Takes the player out of its queue; done(false) if it was not waiting
  // (never asked, or already paired by someone). done may be empty.
  virtual void cancel(SeatId who, Cancelled done = {}) = 0;
  // How many players wait (here).
  virtual std::size_t waiting() const = 0;
};

// The queues of one server process.
class LocalMatchmaker final : public Matchmaker {
 public:
  void match(const MatchRequest& request, Done done) override { done({match(request), true}); }
  void cancel(SeatId who, Cancelled done) override {
    const bool was_waiting = cancel(who);
    if (done) done(was_waiting);
  }
  std::size_t waiting() const override { return waiting_.size(); }

  // The same, answered at once.
  std::optional<MatchRequest> match(const MatchRequest& request);
  bool cancel(SeatId who);

 private:
  using Rules = std::tuple<int, int, std::uint32_t, std::uint32_t>;  // size, k, clock
  std::map<Rules, std::deque<MatchRequest>> queues_;
  std::unordered_map<SeatId, Rules> waiting_;  // who waits, for which rules
};

}  // namespace ttt::server
