// SharedMatchmaker: quick-match queues every node of the lobby shares, in
// Redis: one list per board size, win length and clock
// (ttt:queue:SIZE:K:INITIAL:INCREMENT), each entry a waiting player and the
// node it waits at, and ttt:waiting:NODE:SEAT naming the entry a player
// has. Pairing is one Lua script, so it is atomic across nodes: it takes out
// the player's previous wish, then pops the oldest entry of a live node that
// is not draining (dropping entries of dead nodes and of the same account),
// or queues the request. Cancelling is another script, which tells whether
// the entry was still there (if not, a node has just paired it and its seat
// request is on the way). Runs on the logic executor.
#pragma once

#include <unordered_set>

#include "lobby/matchmaker.hpp"

namespace ttt::server::redis {

class RedisCluster;

class SharedMatchmaker final : public Matchmaker {
 public:
  explicit SharedMatchmaker(RedisCluster& cluster) : cluster_(cluster) {}

  void match(const MatchRequest& request, Done done) override;
  void cancel(SeatId who, Cancelled done) override;
  std::size_t waiting() const override { return waiting_.size(); }

 private:
  RedisCluster& cluster_;
  std::unordered_set<SeatId> waiting_;  // this node's players in a shared queue
};

// A queue entry and back (exposed for tests).
std::string queue_entry(const MatchRequest& request, const std::string& node);
std::optional<MatchRequest> parse_queue_entry(const std::string& entry);

}  // namespace ttt::server::redis
