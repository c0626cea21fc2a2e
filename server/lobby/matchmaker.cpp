#include "lobby/matchmaker.hpp"

#include <algorithm>

namespace ttt::server {

std::optional<MatchRequest> LocalMatchmaker::match(const MatchRequest& request) {
  cancel(request.player_id);
  const Rules rules{request.size, request.win_length, request.clock_initial_ms,
                    request.clock_increment_ms};
  auto queue = queues_.find(rules);
  if (queue != queues_.end() && !queue->second.empty()) {
    MatchRequest waiting = queue->second.front();
    queue->second.pop_front();
    if (queue->second.empty()) queues_.erase(queue);
    waiting_.erase(waiting.player_id);
    return waiting;
  }
  queues_[rules].push_back(request);
  waiting_[request.player_id] = rules;
  return std::nullopt;
}

bool LocalMatchmaker::cancel(SeatId who) {
  const auto waiting = waiting_.find(who);
  if (waiting == waiting_.end()) return false;
  auto queue = queues_.find(waiting->second);
  waiting_.erase(waiting);
  if (queue == queues_.end()) return true;
  std::erase_if(queue->second, [who](const MatchRequest& r) { return r.player_id == who; });
  if (queue->second.empty()) queues_.erase(queue);
  return true;
}

}  // namespace ttt::server
