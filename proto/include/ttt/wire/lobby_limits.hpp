// The lobby's limits, shared by the server and its clients.
#pragma once

#include "ttt/board.hpp"

namespace ttt::wire {

// The largest board the lobby hosts (proto/ttt.proto's sizes 3..19): the
// server's games, the stored games and replays, the web page, the terminal
// client and ttt-bot. The rules and the AI go further, to Board::kMaxSize
// (20×20, the board every Gomocup engine must play), for ttt-engine and
// ttt-arena.
inline constexpr int kMaxLobbySize = 19;
static_assert(kMaxLobbySize <= Board::kMaxSize);

}  // namespace ttt::wire
