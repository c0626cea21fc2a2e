// The plain-text export of finished games (ttt-server --export-games FILE).
// One record per game, fields one per line as "key value", moves one per
// line, a blank line after each record; docs/persistence.md describes it.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "store/store.hpp"

namespace ttt::server {

// Text as the export writes it: every character that does not print as
// itself (controls, U+2028/U+2029 and other separators, format and invisible
// characters, spaces other than U+0020, private-use characters,
// noncharacters) as \u{XXXX}, a byte that is not UTF-8 as \x{XX}, and a
// backslash as \\; so a name can never start a line of its own, for any
// reader.
std::string escape_export_text(std::string_view text);

// Writes every finished game in the store; returns how many.
std::size_t export_games(Store& store, std::ostream& out);

}  // namespace ttt::server
