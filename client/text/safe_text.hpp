// Text from the network, made safe to show. Anyone can host a lobby, so every
// string a server sends (names, chat, errors, lists, records, reasons) may
// carry escape sequences that would retitle or clear the player's terminal,
// colour it or write its clipboard (OSC 52), bidi controls that reverse what
// follows, or invisible characters that make one name look like another.
// safe_text is the one function such text passes before ttt-client prints it
// or ttt-bot logs it. Unicode properties come from ICU (docs/client.md says
// why).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ttt::client {

// Display widths (terminal columns) of the server's fields, cut beyond them.
namespace field_width {
inline constexpr std::size_t kName = 32;      // player names (the server allows 32 bytes)
inline constexpr std::size_t kChat = 240;     // a chat line (the server allows 200 bytes)
inline constexpr std::size_t kMessage = 200;  // an error's text, a goodbye's reason
inline constexpr std::size_t kShort = 24;     // a server version, an invite code, a board's cells
}  // namespace field_width

// How many combining marks one character keeps; more are dropped, so that
// stacked marks can't paint over the lines around them.
inline constexpr std::size_t kMaxCombiningMarks = 4;

// raw as one line of valid UTF-8 that a terminal only displays, at most
// max_width columns wide (max_width >= 1):
// - C0 controls and DEL in caret notation: ESC "^[", BEL "^G", LF "^J",
//   TAB "^I", NUL "^@", DEL "^?". An escape sequence (CSI, OSC, DCS, ...)
//   thus shows as plain text, "^[[31m", and does nothing.
// - C1 controls (U+0080..U+009F), bidi controls (U+202A..U+202E,
//   U+2066..U+2069, U+200E, U+200F, U+061C), every other format character
//   (category Cf: zero-width spaces and joiners, soft hyphen, BOM, tags),
//   other invisible fillers (default-ignorable code points that are not
//   combining marks, such as U+3164), line and paragraph separators, and
//   unassigned code points and noncharacters: the code point as "<U+202E>".
// - Bytes that are not UTF-8: U+FFFD, one per maximal ill-formed subsequence.
// - Combining marks past kMaxCombiningMarks on one character: dropped.
// - Wider than max_width: cut between characters (never inside a mark or
//   a character's combining marks) and ended with "…" (U+2026), the whole
//   at most max_width columns.
// Printable text, wide CJK characters and emoji included, is kept as it is.
// safe_text is idempotent: its output passes through unchanged.
std::string safe_text(std::string_view raw, std::size_t max_width);

// A player's name from the server, as shown: safe_text at field_width::kName.
inline std::string safe_name(std::string_view raw) { return safe_text(raw, field_width::kName); }

}  // namespace ttt::client
