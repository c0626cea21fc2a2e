// The request a slash command sends to the server: /list is ListGames,
// /create is CreateGame, /top is GetLeaderboard, and so on. Pure, so tests
// can check every field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "console/command.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// Games /history asks for.
inline constexpr std::uint32_t kHistoryLength = 20;

// The request for command, or nullopt for the commands the client acts on by
// itself (/help, /quit).
std::optional<wire::ClientMessage> request_for(const Command& command);

// Whether the server answers the command's request directly (in_reply_to),
// as it does /list, /create, /join, /quick, /watch, /leave and the records.
bool awaits_reply(CommandKind kind) noexcept;

// Whether the command asks for a place (/create, /quick, /watch): a place the
// client asks for again when a restarted server no longer holds it.
bool asks_for_a_place(CommandKind kind) noexcept;

// What the client says when it asks again for that place: "Back in the
// quick-match queue.", "Opening your game again.", "Joining game 4 again.",
// "Watching game 4 again.".
std::string place_again_text(const wire::ClientMessage& request);

// Whether the command asks for the server's records (/top, /history, /replay, /me).
bool is_record_query(CommandKind kind) noexcept;

}  // namespace ttt::client
