// DroppedRound: the round a player (a bot, or ttt-client's user) was playing
// when its connection dropped and that the next Welcome does not give back. Its end may have come
// meanwhile: the seat's grace ran out, the opponent resigned, or the game's node went down just
// after the last move was saved, before the bot heard the result. The result is looked for in the
// Welcome's games decided while away, then in the player's history; a round found in neither is
// lost.
#pragma once

#include <optional>
#include <string>

#include "ttt.pb.h"
#include "view/state_view.hpp"

namespace ttt::client {

// How a round ended, for the player's side of it.
struct RoundEnd {
  RoundKey round;
  wire::GameStatus status = wire::GAME_STATUS_UNSPECIFIED;
  wire::EndReason reason = wire::END_REASON_NONE;
  wire::Side side = wire::SIDE_NONE;  // the player's
  std::string opponent;               // the other side's name
};

class DroppedRound {
 public:
  // The player played `side` in state, in progress, when the link dropped.
  void dropped(const wire::GameState& state, wire::Side side);
  // The round is settled: its result was found, or it counts as lost.
  void settle() { round_.reset(); }

  bool pending() const noexcept { return round_.has_value(); }
  // The round being looked for (pending() only).
  const RoundKey& round() const { return *round_; }

  // The round's end if the Welcome tells it (decided_while_away).
  std::optional<RoundEnd> in_welcome(const wire::Welcome& welcome) const;
  // The request for the history the round's end is looked for in: the
  // player's own newest games (the dropped round was the newest, or one of
  // the newest if others were recorded since).
  static wire::ClientMessage history_request();
  // The round's end if the history lists it: a record of the same game and
  // round, with the player's name on the side it played, that is over.
  std::optional<RoundEnd> in_history(const wire::History& history) const;

 private:
  std::optional<RoundKey> round_;
  wire::Side side_ = wire::SIDE_NONE;
  std::string name_;      // the player's name in that game
  std::string opponent_;  // the other side's
};

}  // namespace ttt::client
