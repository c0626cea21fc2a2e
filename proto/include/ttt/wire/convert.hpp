// Between the rules' values (ttt::Player, ttt::Line, ttt::MoveError) and
// their wire forms, for every program that speaks the protocol.
#pragma once

#include <optional>

#include "ttt.pb.h"
#include "ttt/ai.hpp"
#include "ttt/game.hpp"

namespace ttt::wire {

// SIDE_X or SIDE_O.
Side side_of(Player player) noexcept;

// X for SIDE_X, O for SIDE_O (and X for anything else).
Player player_of(Side side) noexcept;

LineKind line_kind_of(ttt::LineKind kind) noexcept;

// The rules' line a wire line names (a whole line, or a run when length >
// 0), or nullopt for LINE_KIND_NONE or an unknown kind. Nothing else is
// checked: ttt::line_cells leaves out cells off the board.
std::optional<ttt::Line> line_of(const Line& line) noexcept;

// The wire form of a rules' line: kind and index, and for a run its start and
// length.
Line wire_line_of(const ttt::Line& line);

// The win length a wire field asks for on a size×size board: 0 means the
// size (the origin's whole-line rule).
int win_length_of(int size, int win_length) noexcept;

// The AI level a wire level asks for (UNSPECIFIED: Perfect, the server's
// default), or nullopt for a value this program does not know.
std::optional<Level> level_of(BotLevel level) noexcept;

// The wire form of an AI level.
BotLevel bot_level_of(Level level) noexcept;

// The error code of a refused move.
ErrorCode error_code_of(MoveError error) noexcept;

}  // namespace ttt::wire
