// What the server accepts as a player name or a chat line. The Unicode rules
// (invisible characters, look-alike names) are in name_rules.hpp.
#pragma once

#include <string>
#include <string_view>

#include "lobby/name_rules.hpp"

namespace ttt::server {

inline constexpr std::size_t kMaxNameBytes = 32;
inline constexpr std::size_t kMaxChatBytes = 200;

// The server's bots are called "bot (LEVEL)"; players can't take such names.
inline constexpr std::string_view kBotNamePrefix = "bot (";

// True iff text is well-formed UTF-8 without control characters.
bool is_printable_utf8(std::string_view text) noexcept;

// The key under which a name is unique: its confusable skeleton
// (name_skeleton), so "Alice", "ALICE" and "аlice" (Cyrillic а) are one name.
std::string name_key(std::string_view name);

}  // namespace ttt::server
