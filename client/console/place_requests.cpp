#include "console/place_requests.hpp"

#include "console/command_request.hpp"

namespace ttt::client {

void PlaceRequests::sent(CommandKind kind, const wire::ClientMessage& request, std::uint32_t id) {
  if (asks_for_a_place(kind)) place_ = request;  // asked again after a restart
  if (asks_for_a_place(kind) || kind == CommandKind::Join) {
    entry_.emplace(id, request);  // asked again if a Redirect answers it
  }
}

std::optional<wire::ClientMessage> PlaceRequests::take_unanswered(
    const std::set<std::uint32_t>& awaiting) {
  std::optional<wire::ClientMessage> unanswered;
  if (entry_ && awaiting.count(entry_->first) > 0) unanswered = std::move(entry_->second);
  entry_.reset();
  return unanswered;
}

std::optional<wire::ClientMessage> PlaceRequests::to_ask_again(
    std::optional<wire::ClientMessage> unanswered, bool had_place) const {
  if (!unanswered && had_place && place_) return place_;
  return unanswered;
}

void PlaceRequests::asked_again(const wire::ClientMessage& request, std::uint32_t id) {
  rejoining_ = request.has_spectate()    ? request.spectate().game_id()
               : request.has_join_game() ? request.join_game().game_id()
                                         : 0;
  if (id != 0) entry_.emplace(id, request);
}

bool PlaceRequests::rejoined(std::uint64_t game_id) noexcept {
  return std::exchange(rejoining_, 0) == game_id;
}

}  // namespace ttt::client
