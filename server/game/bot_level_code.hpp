// How a room, its journal and the database write down the server's bot in a
// game: its ttt::Level + 1, and 0 for a game without the bot. One place, so
// that writing and reading the number can't disagree.
#pragma once

#include <algorithm>

#include "ttt/ai.hpp"

namespace ttt::server {

inline constexpr int kNoBotLevel = 0;

// The code written for a game against the bot at `level` (never kNoBotLevel).
constexpr int bot_level_code(Level level) noexcept { return static_cast<int>(level) + 1; }

// The level a stored code names; a code out of range (a database written by
// another version) reads as the nearest level there is.
constexpr Level level_of_code(int code) noexcept {
  return static_cast<Level>(
      std::clamp(code, bot_level_code(Level::Random), bot_level_code(Level::Perfect)) - 1);
}

}  // namespace ttt::server
