#include "view/state_view.hpp"

#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::client {

wire::Side side_of(const wire::GameState& state, std::uint64_t player_id) noexcept {
  if (player_id == 0) return wire::SIDE_NONE;
  if (state.x().player_id() == player_id) return wire::SIDE_X;
  if (state.o().player_id() == player_id) return wire::SIDE_O;
  return wire::SIDE_NONE;
}

bool is_over(const wire::GameState& state) noexcept { return is_over(state.status()); }

bool is_over(wire::GameStatus status) noexcept {
  return status == wire::GAME_STATUS_X_WON || status == wire::GAME_STATUS_O_WON ||
         status == wire::GAME_STATUS_DRAW;
}

bool in_progress(const wire::GameState& state) noexcept {
  return state.status() == wire::GAME_STATUS_IN_PROGRESS;
}

wire::Side other_side(wire::Side side) noexcept {
  if (side == wire::SIDE_X) return wire::SIDE_O;
  if (side == wire::SIDE_O) return wire::SIDE_X;
  return wire::SIDE_NONE;
}

std::optional<Board> board_of(const wire::GameState& state) {
  auto board = Board::from_cells(state.cells(), state.win_length());
  if (!board || board->size() != state.size()) return std::nullopt;
  return board;
}

std::optional<Move> last_move_of(const wire::GameState& state) {
  if (!state.has_last_move() || state.move_count() == 0) return std::nullopt;
  return Move{state.last_move().row(), state.last_move().col()};
}

std::optional<Line> winning_line_of(const wire::GameState& state) {
  if (state.end_reason() != wire::END_REASON_LINE || !state.has_winning_line()) return std::nullopt;
  return wire::line_of(state.winning_line());
}

const wire::PlayerInfo& info_of(const wire::GameState& state, wire::Side side) noexcept {
  return side == wire::SIDE_O ? state.o() : state.x();
}

std::string seat_name(const wire::PlayerInfo& info) {
  return info.player_id() == 0 ? "(free)" : safe_text(info.name(), field_width::kName);
}

bool board_changed(const wire::GameState& before, const wire::GameState& after) noexcept {
  return before.cells() != after.cells() || before.status() != after.status() ||
         before.round() != after.round() || before.to_move() != after.to_move();
}

bool players_changed(const wire::GameState& before, const wire::GameState& after) noexcept {
  return before.x().player_id() != after.x().player_id() ||
         before.o().player_id() != after.o().player_id() ||
         before.x().connected() != after.x().connected() ||
         before.o().connected() != after.o().connected() ||
         before.spectators() != after.spectators();
}

RoundKey round_key(const wire::GameState& state) noexcept {
  return RoundKey{state.game_id(), state.round()};
}

}  // namespace ttt::client
