// GameResult: how a finished game ended — the winner (none for a draw or an
// aborted game) and why.
#pragma once

#include <optional>

#include "ttt.pb.h"
#include "ttt/board.hpp"

namespace ttt::server {

struct GameResult {
  std::optional<Player> winner;  // nullopt: a draw (or aborted)
  wire::EndReason reason = wire::END_REASON_NONE;
};

// X's score: 1 for a win, 0.5 for a draw, 0 for a loss.
inline double x_score(const GameResult& result) noexcept {
  return !result.winner ? 0.5 : *result.winner == Player::X ? 1.0 : 0.0;
}

}  // namespace ttt::server
