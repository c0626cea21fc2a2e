#include "console/game_clocks.hpp"

#include <algorithm>

#include "console/game_text.hpp"
#include "console/session_text.hpp"
#include "view/clock_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

std::string GameClocks::prompt(time_point now) const {
  const wire::GameState* game = game_.state();
  if (!game || !in_progress(*game)) return "";
  // The mover's clock and the away players' seats run on from the state
  // the server sent.
  const auto since = static_cast<std::uint32_t>(std::min<long long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now - game_.received_at()).count(),
      UINT32_MAX));
  const auto left = [since](std::uint32_t ms) { return since >= ms ? 0u : ms - since; };
  std::string text;
  if (has_chess_clock(*game)) {
    std::uint32_t x = game->x_clock_ms();
    std::uint32_t o = game->o_clock_ms();
    std::uint32_t& running = game->to_move() == wire::SIDE_X ? x : o;
    running = left(running);
    text = "X " + clock_face(x) + " O " + clock_face(o) + " | ";
  } else if (game->move_time_left_ms() > 0) {
    text = side_name(game->to_move()) + " " +
           whole_seconds(std::chrono::milliseconds(left(game->move_time_left_ms()))) + " | ";
  }
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = info_of(*game, side);
    if (p.player_id() == 0 || p.connected() || p.away_ms_left() == 0) continue;
    text += side_name(side) + " away " +
            whole_seconds(std::chrono::milliseconds(left(p.away_ms_left()))) + " | ";
  }
  return text;
}

std::optional<std::chrono::milliseconds> GameClocks::my_time_left(time_point now) const {
  if (!game_.my_turn()) return std::nullopt;
  const wire::GameState& game = *game_.state();
  const auto since =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - game_.received_at());
  std::chrono::milliseconds clock{0};
  if (has_chess_clock(game)) {
    clock = std::chrono::milliseconds(game_.side() == wire::SIDE_X ? game.x_clock_ms()
                                                                   : game.o_clock_ms());
  } else if (game.move_time_left_ms() > 0) {
    clock = std::chrono::milliseconds(game.move_time_left_ms());
  } else {
    return std::nullopt;  // no clock
  }
  return clock > since ? clock - since : std::chrono::milliseconds(0);
}

void GameClocks::warn(time_point now) {
  const auto left = my_time_left(now);
  if (!left || *left > kTimeWarning) return;
  const wire::GameState& game = *game_.state();
  const std::pair<std::uint32_t, std::uint32_t> turn{game.round(), game.move_count()};
  if (warned_turn_ == turn) return;
  warned_turn_ = turn;
  terminal_.bell();
  terminal_.print(time_warning_text(*left, has_chess_clock(game)) + "\n");
}

}  // namespace ttt::client
