// What the server accepts as a player name or a chat line. The Unicode rules
// (invisible characters, look-alike names) are in name_rules.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lobby/name_rules.hpp"

namespace ttt::server {

inline constexpr std::size_t kMaxNameBytes = 32;
inline constexpr std::size_t kMaxChatBytes = 200;

// A Fischer clock's range: 1 s to 3 h for the game, at most 1 min a move.
inline constexpr std::uint32_t kMinClockMs = 1'000;
inline constexpr std::uint32_t kMaxClockMs = 3 * 3'600'000;
inline constexpr std::uint32_t kMaxIncrementMs = 60'000;

// The server's bots are called "bot (LEVEL)"; players can't take such names.
inline constexpr std::string_view kBotNamePrefix = "bot (";

// True iff text is well-formed UTF-8 without control characters.
bool is_printable_utf8(std::string_view text) noexcept;

// Whether text contains part, ASCII letters compared without case (how
// lists filter by a name); an empty part is in every text.
bool contains_ignoring_ascii_case(std::string_view text, std::string_view part) noexcept;

// The key under which a name is unique: its confusable skeleton
// (name_skeleton), so "Alice", "ALICE" and "аlice" (Cyrillic а) are one name.
std::string name_key(std::string_view name);

}  // namespace ttt::server
