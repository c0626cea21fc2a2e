// The words for how a game ended, in one place for every program that shows
// a result: ttt-client's game screen, /history and replays, and ttt-server's
// export and log. A result reads the same wherever a player meets it.
#pragma once

#include <optional>
#include <string>

#include "ttt.pb.h"
#include "ttt/rules.hpp"

namespace ttt::wire {

// The result and why: "X wins (row 1)", "X wins (anti-diagonal)", "O wins (X
// resigned)", "O wins (X ran out of time)", "X wins (O disconnected)",
// "draw", "draw (agreed)", "no result (the server shut down)". line is the
// winning line of a win by END_REASON_LINE (named as line_name does); without
// it such a win reads "X wins (a line)". A game not over reads "in progress"
// (or "waiting for an opponent").
std::string result_text(GameStatus status, EndReason reason, const std::optional<ttt::Line>& line);

}  // namespace ttt::wire
