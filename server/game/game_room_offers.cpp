// A room's offers: draw offers and rematch requests, taken up, declined, or
// lapsing (a move played, the offerer gone), each end told to everyone in
// the room so that no offer just disappears.
#include <spdlog/spdlog.h>

#include "executor_check.hpp"
#include "game/game_room.hpp"
#include "net/replies.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {

using wire::side_of;

void GameRoom::offer_draw(SeatId player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::offer_draw");
  auto side = require_playing(player, request_id);
  if (!side) return;
  if (draw_offered_by_ == side_of(opponent(*side))) {
    finish({std::nullopt, wire::END_REASON_DRAW_AGREED});
    return;
  }
  draw_offered_by_ = side_of(*side);
  broadcast_state();
}

void GameRoom::rematch(SeatId player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::rematch");
  auto side = require_player(player, request_id);
  if (!side) return;
  const Seat& other = seat_for(opponent(*side));
  const char* refusal = nullptr;
  if (!result_) {
    refusal = "a rematch is possible once the game is over";
  } else if (other.player.id == SeatId{}) {
    refusal = "your opponent has left";
  } else if (other.away) {
    refusal = "your opponent is away";
  }
  if (refusal != nullptr) {
    send_error_to(seat_for(*side).player, wire::ERROR_CODE_BAD_REQUEST, refusal, request_id);
    return;
  }
  if (rematch_requested_by_ == side_of(opponent(*side))) {
    std::swap(seats_[0].player, seats_[1].player);
    ++round_;
    refresh_ratings();
    start_round();
    links_.owner.room_changed(*this);
    return;
  }
  rematch_requested_by_ = side_of(*side);
  broadcast_state();
}

void GameRoom::decline(SeatId player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::decline");
  auto side = require_player(player, request_id);
  if (!side) return;
  const wire::Side other = side_of(opponent(*side));
  if (draw_offered_by_ == other) {
    end_offer(wire::OFFER_KIND_DRAW, wire::OFFER_END_DECLINED);
  } else if (rematch_requested_by_ == other) {
    end_offer(wire::OFFER_KIND_REMATCH, wire::OFFER_END_DECLINED);
  } else {
    send_error_to(seat_for(*side).player, wire::ERROR_CODE_NOTHING_TO_ACCEPT,
                  "your opponent has no draw offer or rematch request pending", request_id);
    return;
  }
  broadcast_state();
}

void GameRoom::end_offer(wire::OfferKind kind, wire::OfferEnd how) {
  wire::Side& pending = kind == wire::OFFER_KIND_DRAW ? draw_offered_by_ : rematch_requested_by_;
  if (pending != wire::SIDE_X && pending != wire::SIDE_O) return;
  wire::ServerMessage message;
  wire::OfferEnded* ended = message.mutable_offer_ended();
  ended->set_game_id(id_);
  ended->set_kind(kind);
  ended->set_by(pending);
  ended->set_by_name(seat_for(pending == wire::SIDE_X ? Player::X : Player::O).player.name);
  ended->set_how(how);
  pending = wire::SIDE_NONE;
  broadcast(make_outbound(std::move(message)));
}

void GameRoom::offers_lapse_without(Player gone) {
  const wire::Side side = side_of(gone);
  for (const wire::OfferKind kind : {wire::OFFER_KIND_DRAW, wire::OFFER_KIND_REMATCH}) {
    const wire::Side pending =
        kind == wire::OFFER_KIND_DRAW ? draw_offered_by_ : rematch_requested_by_;
    if (pending == wire::SIDE_NONE) continue;
    end_offer(kind, pending == side ? wire::OFFER_END_LEFT : wire::OFFER_END_OPPONENT_LEFT);
  }
}

}  // namespace ttt::server
