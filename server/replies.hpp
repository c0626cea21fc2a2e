// Building the server's replies: errors and the mapping from the rules'
// refusals to wire error codes.
#pragma once

#include <cstdint>
#include <string>

#include "server/participant.hpp"
#include "ttt/game.hpp"

namespace ttt::server {

// An Error reply to request_id (0 for none).
Outbound error_reply(wire::ErrorCode code, std::string text, std::uint32_t request_id,
                     bool fatal = false);

// Sends an Error to a participant, if it is still there.
void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id);

// The wire code for a move the rules refused.
wire::ErrorCode error_code(MoveError error) noexcept;

// The wire side of a player.
wire::Side side_of(Player p) noexcept;

// The player of a wire side; precondition: SIDE_X or SIDE_O.
Player player_of(wire::Side side) noexcept;

}  // namespace ttt::server
