#include "server/replies.hpp"

namespace ttt::server {

Outbound error_reply(wire::ErrorCode code, std::string text, std::uint32_t request_id,
                     bool fatal) {
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Error* error = message.mutable_error();
  error->set_code(code);
  error->set_text(std::move(text));
  error->set_fatal(fatal);
  return make_outbound(std::move(message));
}

void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id) {
  if (auto participant = to.lock()) {
    participant->deliver(error_reply(code, std::move(text), request_id));
  }
}

wire::ErrorCode error_code(MoveError error) noexcept {
  switch (error) {
    case MoveError::OutOfRange: return wire::ERROR_CODE_OUT_OF_RANGE;
    case MoveError::NotYourTurn: return wire::ERROR_CODE_NOT_YOUR_TURN;
    case MoveError::Occupied: return wire::ERROR_CODE_OCCUPIED;
    case MoveError::GameOver: return wire::ERROR_CODE_GAME_OVER;
  }
  return wire::ERROR_CODE_UNSPECIFIED;
}

wire::Side side_of(Player p) noexcept { return p == Player::X ? wire::SIDE_X : wire::SIDE_O; }

Player player_of(wire::Side side) noexcept { return side == wire::SIDE_O ? Player::O : Player::X; }

}  // namespace ttt::server
