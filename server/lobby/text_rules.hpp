// What the server accepts as a player name or a chat line.
#pragma once

#include <string>
#include <string_view>

namespace ttt::server {

inline constexpr std::size_t kMaxNameBytes = 32;
inline constexpr std::size_t kMaxChatBytes = 200;

// The server's bots are called "bot (LEVEL)"; players can't take such names.
inline constexpr std::string_view kBotNamePrefix = "bot (";

// True iff text is well-formed UTF-8 without control characters.
bool is_printable_utf8(std::string_view text) noexcept;

// 1..kMaxNameBytes bytes, printable UTF-8, not starting or ending with a space.
bool is_valid_name(std::string_view name) noexcept;

// The key under which a name is unique: ASCII letters folded to lowercase, so
// "Alice" and "alice" are one name.
std::string name_key(std::string_view name);

}  // namespace ttt::server
