// A room's absent players: a dropped player's seat is held for the grace
// period (the move clock runs on; running out while away counts as a
// disconnect), the others are told with the time left, a returning player is
// reseated, and results decided while a player was away are kept for them.
#include <spdlog/spdlog.h>

#include "game/game_room.hpp"
#include "ttt/rules.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {

using std::chrono::steady_clock;
using wire::side_of;

void GameRoom::on_move_clock() {
  if (!in_progress() || lost_) return;
  const Player mover = game_.to_move();
  // A Fischer clock's flag fell against an opponent who could no longer
  // complete any line: nobody can win, a draw.
  if (chess_.enabled() && !can_still_win(game_.board(), opponent(mover))) {
    finish({std::nullopt, wire::END_REASON_TIMEOUT_NO_WIN});
    return;
  }
  // The clock ran out while its player was away: the link, not the player's
  // thinking, lost the game (docs/protocol.md, "The clock while away").
  finish({opponent(mover),
          seat_for(mover).away ? wire::END_REASON_DISCONNECT : wire::END_REASON_TIMEOUT});
}

void GameRoom::away(SeatId player) {
  if (auto it = spectators_.find(player); it != spectators_.end()) {
    spectators_.erase(it);
    links_.owner.left_room(*this, player);
    spectators_changed();
    return;
  }
  Seat* seat = seat_of(player);
  if (seat == nullptr) return;
  if (!in_progress()) {
    leave(player, 0);
    return;
  }
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  hold_seat(*seat, settings_.reconnect_grace);
  note(fmt::format("game {}: {} is away, seat held for {} ms", id_, seat->player.name,
                   settings_.reconnect_grace.count()));
  offers_lapse_without(side);
  wire::OpponentStatus status;
  status.set_connected(false);
  status.set_grace_ms(static_cast<std::uint32_t>(settings_.reconnect_grace.count()));
  tell_opponent(side, status);
  broadcast_state();
}

void GameRoom::hold_seat(Seat& seat, std::chrono::milliseconds grace) {
  seat.away = true;
  seat.player.conn.reset();
  seat.away_until = steady_clock::now() + grace;
  seat.grace.expires_at(seat.away_until);
  seat.grace.async_wait(
      [weak = weak_from_this(), player = seat.player.id](const boost::system::error_code& ec) {
        if (ec) return;
        if (auto room = weak.lock()) room->on_grace_expired(player);
      });
}

void GameRoom::on_grace_expired(SeatId player) {
  Seat* seat = seat_of(player);
  if (seat == nullptr || !seat->away || lost_) return;
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  note(fmt::format("game {}: {} did not come back", id_, seat->player.name));
  if (in_progress()) finish({opponent(side), wire::END_REASON_DISCONNECT});
  remove_seat(*seat);
  wire::OpponentStatus status;
  status.set_left(true);
  tell_opponent(side, status);
  close_if_empty();
}

void GameRoom::back(const PlayerRef& player, std::uint32_t request_id) {
  if (auto it = spectators_.find(player.id); it != spectators_.end()) {
    it->second.conn = player.conn;  // a watcher on a new connection
    send_joined(it->second, wire::SIDE_SPECTATOR, request_id);
    return;
  }
  Seat* seat = seat_of(player.id);
  if (seat == nullptr) return;
  const bool was_away = seat->away;
  seat->grace.cancel();
  seat->away = false;
  seat->player.conn = player.conn;
  seat->player.hears_spectators = player.hears_spectators;
  if (auto conn = player.conn.lock()) conn->set_heartbeat(true);
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  send_joined(seat->player, side_of(side), request_id);
  // A session moved to another terminal was never away: nobody is told.
  if (!was_away) return;
  note(fmt::format("game {}: {} is back", id_, seat->player.name));
  wire::OpponentStatus status;
  status.set_connected(true);
  tell_opponent(side, status);
  broadcast_state();
}

std::vector<GameRoom::AwayPlayer> GameRoom::away_players() const {
  std::vector<AwayPlayer> away;
  for (const Player side : {Player::X, Player::O}) {
    const Seat& seat = seats_[side == Player::X ? 0 : 1];
    if (!seat.away || seat.player.is_bot || seat.player.id == SeatId{}) continue;
    away.push_back({seat.player.account, side, seats_[side == Player::X ? 1 : 0].player.name});
  }
  return away;
}

void GameRoom::report_away_results(const GameEnding& recorded,
                                   const std::vector<AwayPlayer>& away) {
  for (const AwayPlayer& p : away) {
    wire::AwayResult result;
    result.set_game_id(id_);
    result.set_round(round_);
    result.set_side(side_of(p.side));
    result.set_status(!recorded.result.winner                ? wire::GAME_STATUS_DRAW
                      : *recorded.result.winner == Player::X ? wire::GAME_STATUS_X_WON
                                                             : wire::GAME_STATUS_O_WON);
    result.set_end_reason(recorded.result.reason);
    result.set_opponent(p.opponent);
    result.set_rated(rated());
    if (rated() && recorded.settlement) {
      const PlayerResult& mine =
          p.side == Player::X ? recorded.settlement->x : recorded.settlement->o;
      const double after = links_.ratings.rating(p.account);
      result.set_rating_after(after);
      result.set_rating_before(after - mine.rating_change);
    }
    links_.owner.decided_while_away(p.account, std::move(result));
  }
}

}  // namespace ttt::server
