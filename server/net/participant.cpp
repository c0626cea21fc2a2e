#include "net/participant.hpp"

#include "ttt/wire/frame.hpp"

namespace ttt::server {

Outbound make_outbound(wire::ServerMessage message) {
  auto shared = std::make_shared<const wire::ServerMessage>(std::move(message));
  auto frame = std::make_shared<const std::string>(wire::encode_frame(*shared));
  return {std::move(shared), std::move(frame)};
}

}  // namespace ttt::server
