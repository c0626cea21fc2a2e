// RoomOffers: a game's pending offers, a draw offer and a rematch request,
// each by one side at a time, and the rules of their ends: taken up by the
// other side's own offer, declined, or lapsing (a move played, the offerer
// or the opponent gone, a new round). Every end it reports is one the room
// tells everyone, so that no offer just disappears; the room says how.
#pragma once

#include <optional>
#include <vector>

#include "ttt.pb.h"
#include "ttt/board.hpp"

namespace ttt::server {

class RoomOffers {
 public:
  // An offer that ended: of which kind, whose, and how.
  struct Ended {
    wire::OfferKind kind{};
    wire::Side by = wire::SIDE_NONE;
    wire::OfferEnd how{};
  };

  // Who offers a draw, who asks for a rematch (SIDE_NONE: nobody).
  wire::Side draw_by() const noexcept { return draw_by_; }
  wire::Side rematch_by() const noexcept { return rematch_by_; }

  // side offers a draw: true when the opponent offered one already (a draw
  // agreed: the offer is used up), else side's offer is pending.
  bool offer_draw(Player side) noexcept;
  // The same for a rematch request.
  bool request_rematch(Player side) noexcept;
  // side declines the opponent's pending draw offer, else its rematch
  // request; nullopt when the opponent has neither pending.
  std::optional<Ended> decline(Player side) noexcept;
  // Ends the pending offer of `kind`, if any, `how`.
  std::optional<Ended> end(wire::OfferKind kind, wire::OfferEnd how) noexcept;
  // `gone` left or is away: every pending offer lapses (LEFT for gone's
  // own, OPPONENT_LEFT for the other side's).
  std::vector<Ended> lapse_without(Player gone);
  // The game ended: a draw offer is moot (nothing is told).
  void game_over() noexcept { draw_by_ = wire::SIDE_NONE; }
  // A new round: nothing is pending.
  void clear() noexcept;
  // A move whose write was refused is taken back with the draw offer it
  // ended: `by` offers again.
  void restore_draw(wire::Side by) noexcept { draw_by_ = by; }

 private:
  wire::Side& pending(wire::OfferKind kind) noexcept;

  wire::Side draw_by_ = wire::SIDE_NONE;
  wire::Side rematch_by_ = wire::SIDE_NONE;
};

}  // namespace ttt::server
