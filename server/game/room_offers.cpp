#include "game/room_offers.hpp"

#include "ttt/wire/convert.hpp"

namespace ttt::server {

using wire::side_of;

bool RoomOffers::offer_draw(Player side) noexcept {
  if (draw_by_ == side_of(opponent(side))) {
    draw_by_ = wire::SIDE_NONE;
    return true;
  }
  draw_by_ = side_of(side);
  return false;
}

bool RoomOffers::request_rematch(Player side) noexcept {
  if (rematch_by_ == side_of(opponent(side))) {
    rematch_by_ = wire::SIDE_NONE;
    return true;
  }
  rematch_by_ = side_of(side);
  return false;
}

std::optional<RoomOffers::Ended> RoomOffers::decline(Player side) noexcept {
  const wire::Side other = side_of(opponent(side));
  if (draw_by_ == other) return end(wire::OFFER_KIND_DRAW, wire::OFFER_END_DECLINED);
  if (rematch_by_ == other) return end(wire::OFFER_KIND_REMATCH, wire::OFFER_END_DECLINED);
  return std::nullopt;
}

wire::Side& RoomOffers::pending(wire::OfferKind kind) noexcept {
  return kind == wire::OFFER_KIND_DRAW ? draw_by_ : rematch_by_;
}

std::optional<RoomOffers::Ended> RoomOffers::end(wire::OfferKind kind,
                                                 wire::OfferEnd how) noexcept {
  wire::Side& by = pending(kind);
  if (by != wire::SIDE_X && by != wire::SIDE_O) return std::nullopt;
  const Ended ended{kind, by, how};
  by = wire::SIDE_NONE;
  return ended;
}

std::vector<RoomOffers::Ended> RoomOffers::lapse_without(Player gone) {
  const wire::Side side = side_of(gone);
  std::vector<Ended> ended;
  for (const wire::OfferKind kind : {wire::OFFER_KIND_DRAW, wire::OFFER_KIND_REMATCH}) {
    const wire::Side by = pending(kind);
    if (by == wire::SIDE_NONE) continue;
    if (auto e = end(kind, by == side ? wire::OFFER_END_LEFT : wire::OFFER_END_OPPONENT_LEFT)) {
      ended.push_back(*e);
    }
  }
  return ended;
}

void RoomOffers::clear() noexcept {
  draw_by_ = wire::SIDE_NONE;
  rematch_by_ = wire::SIDE_NONE;
}

}  // namespace ttt::server
