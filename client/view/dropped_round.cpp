#include "view/dropped_round.hpp"

namespace ttt::client {
namespace {

constexpr std::uint32_t kHistoryGames = 5;

}  // namespace

void DroppedRound::dropped(const wire::GameState& state, wire::Side side) {
  round_ = round_key(state);
  side_ = side;
  name_ = side == wire::SIDE_X ? state.x().name() : state.o().name();
  opponent_ = side == wire::SIDE_X ? state.o().name() : state.x().name();
}

std::optional<RoundEnd> DroppedRound::in_welcome(const wire::Welcome& welcome) const {
  if (!round_) return std::nullopt;
  for (const wire::AwayResult& r : welcome.decided_while_away()) {
    if (r.game_id() == round_->game_id && r.round() == round_->round && r.side() == side_ &&
        is_over(r.status())) {
      return RoundEnd{*round_, r.status(), r.end_reason(), side_, r.opponent()};
    }
  }
  return std::nullopt;
}

wire::ClientMessage DroppedRound::history_request() {
  wire::ClientMessage ask;
  ask.mutable_get_history()->set_limit(kHistoryGames);
  return ask;
}

std::optional<RoundEnd> DroppedRound::in_history(const wire::History& history) const {
  if (!round_) return std::nullopt;
  for (const wire::GameRecord& g : history.games()) {
    const std::string& on_our_side = side_ == wire::SIDE_X ? g.x_name() : g.o_name();
    if (g.game_id() == round_->game_id && g.round() == round_->round && on_our_side == name_ &&
        is_over(g.status())) {
      return RoundEnd{*round_, g.status(), g.end_reason(), side_, opponent_};
    }
  }
  return std::nullopt;
}

}  // namespace ttt::client
