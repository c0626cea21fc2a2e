// Building the server's error replies.
#pragma once

#include <cstdint>
#include <string>

#include "net/participant.hpp"
#include "ttt/game.hpp"

namespace ttt::server {

// An Error reply to request_id (0 for none).
Outbound error_reply(wire::ErrorCode code, std::string text, std::uint32_t request_id,
                     bool fatal = false);

// Sends an Error to a participant, if it is still there.
void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id);

}  // namespace ttt::server
