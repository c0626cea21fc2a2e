// How a stored game ended, in the protocol's terms and in words. The games
// table keeps status and reason as text ("x_won", "line"); the wire, the
// client and the export speak of them as enums, a winning line and the
// shared result words (wire::result_text). Plain functions of the records:
// no SQLite, so lobby/ may use them.
#pragma once

#include <optional>
#include <string>

#include "records.hpp"
#include "ttt.pb.h"
#include "ttt/rules.hpp"

namespace ttt::server {

// An end reason as the games table keeps it: "line", "board_full",
// "resignation", "timeout", "disconnect", "draw_agreed", "aborted"; "" for
// none.
std::string stored_reason(wire::EndReason reason);

// The end reason a stored reason names (END_REASON_NONE for "" or unknown).
wire::EndReason end_reason_of(const std::string& stored);

// The status a stored status names: "x_won", "o_won", "draw" ("aborted"
// reads as a draw, as its end reason says); anything else is in progress.
wire::GameStatus game_status_of(const std::string& stored);

// The line that won a game ended by a line, found by replaying its moves
// with the rules; nullopt for any other end, or moves that are not a legal
// game ending in a line (a damaged record).
std::optional<ttt::Line> winning_line_of(const GameRecord& game);

// The result in the words every program uses: "X wins (anti-diagonal)".
std::string result_text(const GameRecord& game);

}  // namespace ttt::server
