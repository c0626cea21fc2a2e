#include "console/current_game.hpp"

#include <utility>

#include "view/state_view.hpp"

namespace ttt::client {

void CurrentGame::join(const wire::Joined& joined, time_point now) {
  game_ = joined.state();
  watching_ = joined.side() == wire::SIDE_SPECTATOR;
  received_at_ = now;
}

std::optional<wire::GameState> CurrentGame::update(const wire::GameState& state, time_point now) {
  if (!game_ || state.game_id() != game_->game_id()) return std::nullopt;
  std::optional<wire::GameState> before = std::exchange(game_, state);
  received_at_ = now;
  return before;
}

void CurrentGame::clear() noexcept {
  game_.reset();
  watching_ = false;
}

bool CurrentGame::set_spectators(const wire::SpectatorCount& count) {
  if (!game_ || game_->game_id() != count.game_id() || game_->spectators() == count.spectators()) {
    return false;
  }
  game_->set_spectators(count.spectators());
  return true;
}

wire::Side CurrentGame::side() const noexcept {
  return game_ ? side_of(*game_, player_id_) : wire::SIDE_NONE;
}

wire::Side CurrentGame::viewpoint() const noexcept {
  return watching_ ? wire::SIDE_SPECTATOR : side();
}

bool CurrentGame::seated() const noexcept { return !watching_ && side() != wire::SIDE_NONE; }

bool CurrentGame::my_turn() const noexcept {
  return game_ && seated() && client::in_progress(*game_) && game_->to_move() == side();
}

bool CurrentGame::holds_seat() const noexcept {
  return game_ && seated() && client::in_progress(*game_);
}

bool CurrentGame::in_progress() const noexcept { return game_ && client::in_progress(*game_); }

}  // namespace ttt::client
