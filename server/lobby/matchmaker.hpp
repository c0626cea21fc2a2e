// Matchmaker: the quick-match queues, one per board size and win length,
// first come first paired. In-process today; a matchmaker shared by several nodes (pairing
// atomically in Redis) can replace it behind this interface. Runs on the
// logic executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// One player's wish to be paired.
struct MatchRequest {
  SeatId player{};
  int size = 3;
  int win_length = 3;  // the size for the origin's whole-line rule
  wire::Rated rated = wire::RATED_DEFAULT;
  std::uint32_t clock_initial_ms = 0;  // the Fischer clock asked for; 0: none
  std::uint32_t clock_increment_ms = 0;
};

class Matchmaker {
 public:
  virtual ~Matchmaker() = default;
  // Pairs the request with the longest-waiting request of the same size, win
  // length and clock (taken out of its queue and returned), or queues it and
  // returns nullopt.
  // A player waits in one queue at most: asking again replaces the wish.
  virtual std::optional<MatchRequest> match(const MatchRequest& request) = 0;
  // Takes the player out of its queue; false if it was not waiting.
  virtual bool cancel(SeatId player) = 0;
  // How many players wait.
  virtual std::size_t waiting() const = 0;
};

// The queues of one server process.
class LocalMatchmaker final : public Matchmaker {
 public:
  std::optional<MatchRequest> match(const MatchRequest& request) override;
  bool cancel(SeatId player) override;
  std::size_t waiting() const override { return waiting_.size(); }

 private:
  using Rules = std::tuple<int, int, std::uint32_t, std::uint32_t>;  // size, k, clock
  std::map<Rules, std::deque<MatchRequest>> queues_;
  std::unordered_map<SeatId, Rules> waiting_;  // who waits, for which rules
};

}  // namespace ttt::server
