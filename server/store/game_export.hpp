// The plain-text export of finished games (ttt-server --export-games FILE).
// One record per game, fields one per line as "key value", moves one per
// line, a blank line after each record; docs/persistence.md describes it.
#pragma once

#include <ostream>

#include "store/store.hpp"

namespace ttt::server {

// Writes every finished game in the store; returns how many.
std::size_t export_games(Store& store, std::ostream& out);

}  // namespace ttt::server
