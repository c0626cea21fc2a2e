#include "console/game_commentary.hpp"

#include "console/game_text.hpp"
#include "console/screen_fit.hpp"
#include "console/session_text.hpp"
#include "text/safe_text.hpp"
#include "view/move_input.hpp"

namespace ttt::client {

void GameCommentary::joined(const wire::Joined& joined, bool resumed, bool said_already) {
  const std::string id = std::to_string(joined.state().game_id());
  if (game_.watching()) {
    if (!said_already) {  // else "Watching game N again." said it
      say("Watching game " + id + ".");
      const std::string link = links_.game(joined.state().game_id());
      if (!link.empty()) say("In a browser: " + link);
    }
  } else {
    const std::string side = side_name(game_.side());
    say(std::string(resumed ? "Back in game " : "You play ") +
        (resumed ? id + " as " + side : side + " in game " + id) + ".");
  }
  if (!joined.invite_code().empty()) {
    say("Private game: others join with /join " + id + " " +
        safe_text(joined.invite_code(), field_width::kShort));
  }
  show(joined.state());
}

void GameCommentary::changed(const wire::GameState& before) {
  const wire::GameState& state = *game_.state();
  if (state.round() != before.round() && !game_.watching()) {
    say("Rematch: round " + std::to_string(state.round()) + ", you play " +
        side_name(game_.side()) + ".");
  }
  if (before.status() == wire::GAME_STATUS_WAITING && in_progress(state) &&
      state.round() == before.round() && game_.seated()) {
    say(joined_game_text(state, game_.side()));  // someone took the free seat
  }
  if (board_changed(before, state)) {
    // Say the other side's move in words too: easier to follow than a redrawn board.
    // A screen that draws the game says our own moves too (placed with the
    // cursor or the mouse, they are typed nowhere).
    show(state, move_headline(before, state, game_.viewpoint(), terminal_.draws_game()));
  } else {
    // Only what is new: the turn line after the board still stands.
    const std::string news = offers_news(before, state, game_.viewpoint());
    if (!news.empty()) say(news);
    if (players_changed(before, state)) say(players_line(state));
  }
}

void GameCommentary::offer_ended(const wire::OfferEnded& ended) {
  const wire::GameState* state = game_.state();
  if (!state || ended.game_id() != state->game_id()) return;
  say(offer_ended_text(ended, *state, game_.viewpoint()));
}

void GameCommentary::opponent(const wire::OpponentStatus& status) {
  const wire::GameState* state = game_.state();
  say(state && game_.seated() ? opponent_named_text(status, *state, other_side(game_.side()))
                              : opponent_text(status));
}

void GameCommentary::spectators(const wire::SpectatorCount& count) {
  // The server says it at most once a second, however many come and go.
  say(std::to_string(count.spectators()) + " watching game " + std::to_string(count.game_id()) +
      ".");
}

void GameCommentary::show(const wire::GameState& state, const std::string& headline) {
  const bool with_result = is_over(state) && board_of(state) && announced_end_ != round_key(state);
  if (with_result) announced_end_ = round_key(state);
  terminal_.print(state_text(state, game_.viewpoint(), headline,
                             board_style(terminal_, state.size()), with_result,
                             !terminal_.draws_game()));
  const std::string link = links_.game(state.game_id());
  if (with_result && !link.empty()) say("Watch or replay it in a browser: " + link);
}

void GameCommentary::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
