#include "game/room_outbox.hpp"

#include <algorithm>

namespace ttt::server {

void RoomOutbox::send(const std::weak_ptr<Participant>& to, const Outbound& message) {
  if (writes_in_flight_ > 0) {
    held_.emplace_back(to, message);
    return;
  }
  if (auto participant = to.lock()) participant->deliver(message);
}

void RoomOutbox::take_back_move() {
  const auto [first, last] = move_messages_;
  held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(std::min(first, held_.size())),
              held_.begin() + static_cast<std::ptrdiff_t>(std::min(last, held_.size())));
  move_messages_ = {0, 0};
}

void RoomOutbox::flush() {
  auto pending = std::move(held_);
  held_.clear();
  for (auto& [to, message] : pending) {
    if (auto participant = to.lock()) participant->deliver(message);
  }
}

}  // namespace ttt::server
