// Matchmaker: the quick-match queues, one per board size, first come first
// paired. In-process today; a matchmaker shared by several nodes (pairing
// atomically in Redis) can replace it behind this interface. Runs on the
// logic executor.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// One player's wish to be paired.
struct MatchRequest {
  SeatId player{};
  int size = 3;
  wire::Rated rated = wire::RATED_DEFAULT;
};

class Matchmaker {
 public:
  virtual ~Matchmaker() = default;
  // Pairs the request with the longest-waiting request of the same size
  // (taken out of its queue and returned), or queues it and returns nullopt.
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
  std::size_t waiting() const override { return sizes_.size(); }

 private:
  std::map<int, std::deque<MatchRequest>> queues_;
  std::unordered_map<SeatId, int> sizes_;  // who waits, for which size
};

}  // namespace ttt::server
