// How the console client's text fits the terminal it is on: the width text
// may take, and how a board is drawn there.
#pragma once

#include <cstddef>

#include "console/board_render.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

// The columns text may take on this terminal (0 in line mode: no limit).
std::size_t screen_width(const Terminal& terminal);

// How a size x size board is drawn: coloured as the terminal is, compact
// when the board with its borders would not fit the screen's height.
RenderStyle board_style(const Terminal& terminal, int size);

}  // namespace ttt::client
