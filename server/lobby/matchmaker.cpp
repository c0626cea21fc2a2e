#include "lobby/matchmaker.hpp"

#include <algorithm>

namespace ttt::server {

std::optional<MatchRequest> LocalMatchmaker::match(const MatchRequest& request) {
  cancel(request.player);
  auto queue = queues_.find(request.size);
  if (queue != queues_.end() && !queue->second.empty()) {
    MatchRequest waiting = queue->second.front();
    queue->second.pop_front();
    if (queue->second.empty()) queues_.erase(queue);
    sizes_.erase(waiting.player);
    return waiting;
  }
  queues_[request.size].push_back(request);
  sizes_[request.player] = request.size;
  return std::nullopt;
}

bool LocalMatchmaker::cancel(SeatId player) {
  const auto waiting = sizes_.find(player);
  if (waiting == sizes_.end()) return false;
  auto queue = queues_.find(waiting->second);
  sizes_.erase(waiting);
  if (queue == queues_.end()) return true;
  std::erase_if(queue->second, [player](const MatchRequest& r) { return r.player == player; });
  if (queue->second.empty()) queues_.erase(queue);
  return true;
}

}  // namespace ttt::server
