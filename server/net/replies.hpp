// Building the server's own messages: error replies, pings and pongs.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "net/participant.hpp"
#include "ttt/game.hpp"

namespace ttt::server {

// An Error reply to request_id (0 for none).
Outbound error_reply(wire::ErrorCode code, std::string text, std::uint32_t request_id,
                     bool fatal = false);

// A message too large for a connection's whole send queue (max_queued
// bytes): nothing a client does makes one, so it is logged as the server's
// error (for `peer`); the reply is the short Error the client gets instead,
// and the connection stays open.
Outbound oversized_refusal(const Outbound& message, std::string_view peer, std::size_t max_queued);

// A Ping to a silent peer, its nonce taken from `now`.
wire::ServerMessage ping_at(std::chrono::steady_clock::time_point now);
// The Pong that answers a peer's Ping.
wire::ServerMessage pong_to(const wire::ClientMessage& ping);

// Sends an Error to a participant, if it is still there.
void send_error(const std::weak_ptr<Participant>& to, wire::ErrorCode code, std::string text,
                std::uint32_t request_id);

}  // namespace ttt::server
