#include "console/absences.hpp"

#include "console/session_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

std::size_t seat_index(wire::Side side) { return side == wire::SIDE_O ? 1 : 0; }

std::chrono::milliseconds time_until(std::chrono::steady_clock::time_point end,
                                     std::chrono::steady_clock::time_point now) {
  return end > now ? std::chrono::duration_cast<std::chrono::milliseconds>(end - now)
                   : std::chrono::milliseconds(0);
}

}  // namespace

void Absences::track(const wire::GameState& before, const wire::GameState& after, bool watching,
                     time_point now) {
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& was = info_of(before, side);
    const wire::PlayerInfo& is = info_of(after, side);
    if (is.player_id() == 0 || is.player_id() != was.player_id()) continue;
    const std::size_t i = seat_index(side);
    if (!is.connected()) {
      const std::chrono::milliseconds held(is.away_ms_left());
      away_until_[i] = now + held;
      if (was.connected()) countdowns_[i].start(held);
    }
    // Players hear of their opponent through OpponentStatus.
    if (!watching || was.connected() == is.connected() || !in_progress(after)) continue;
    terminal_.print(
        (is.connected() ? player_back_text(after, side) : player_away_text(after, side)) + "\n");
  }
}

void Absences::tick(const wire::GameState& game, time_point now) {
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = info_of(game, side);
    if (p.player_id() == 0 || p.connected()) continue;
    const std::chrono::milliseconds left = time_until(away_until_[seat_index(side)], now);
    if (countdowns_[seat_index(side)].due(left)) {
      terminal_.print(away_countdown_text(game, side, Countdown::shown(left)) + "\n");
    }
  }
}

}  // namespace ttt::client
