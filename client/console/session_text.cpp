#include "console/session_text.hpp"

#include <cmath>

#include "console/game_text.hpp"
#include "text/safe_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

// "alice (X)"
std::string named(const wire::GameState& state, wire::Side side) {
  return seat_name(info_of(state, side)) + " (" + side_name(side) + ")";
}

// "1205 -> 1189 (-16)"
std::string change_text(double before, double after) {
  const long change = std::lround(after) - std::lround(before);
  return rating_text(before) + " -> " + rating_text(after) + " (" + (change >= 0 ? "+" : "") +
         std::to_string(change) + ")";
}

const char* kind_text(wire::OfferKind kind) {
  return kind == wire::OFFER_KIND_REMATCH ? "rematch request" : "draw offer";
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string whole_seconds(std::chrono::milliseconds ms) {
  const auto count = ms.count() > 0 ? ms.count() : 0;
  return std::to_string((count + 999) / 1000) + " s";
}

std::string connection_lost_text(const std::string& reason, std::chrono::milliseconds left,
                                 std::chrono::milliseconds seat_grace) {
  std::string text =
      "Connection lost (" + reason + "); reconnecting for up to " + whole_seconds(left);
  if (seat_grace.count() > 0) {
    text += " (the server holds your seat " + whole_seconds(seat_grace) + " after it notices)";
  }
  return text + "...";
}

std::string reconnect_countdown_text(std::chrono::milliseconds left) {
  return "Still reconnecting: " + whole_seconds(left) + " left.";
}

std::string reconnecting_prompt(std::chrono::milliseconds left) {
  return "reconnecting (" + whole_seconds(left) + " left)> ";
}

std::string offer_ended_text(const wire::OfferEnded& ended, const wire::GameState& state,
                             wire::Side me) {
  const wire::Side by = ended.by();
  const wire::Side other = other_side(by);
  const std::string what = kind_text(ended.kind());
  const std::string offerer = safe_text(ended.by_name(), field_width::kName);
  const std::string whose = by == me ? "Your " + what : offerer + "'s " + what;
  switch (ended.how()) {
    case wire::OFFER_END_DECLINED:
      if (me == other) return "You declined " + offerer + "'s " + what + ".";
      return named(state, other) + " declined " +
             (by == me ? "your " + what : offerer + "'s " + what) + ".";
    case wire::OFFER_END_MOVED:
      return whose + " lapsed: a move was played.";
    case wire::OFFER_END_LEFT:
      return whose + " lapsed: " + offerer + " left or lost the connection.";
    case wire::OFFER_END_OPPONENT_LEFT:
      return whose + " lapsed: " + (me == other ? std::string("you") : named(state, other)) +
             " left or lost the connection.";
    default:
      return whose + " ended.";
  }
}

std::string rating_change_text(const wire::GameState& state, wire::Side me) {
  if (!state.rated() || !is_over(state)) return "";
  if (me == wire::SIDE_X || me == wire::SIDE_O) {
    const wire::PlayerInfo& mine = info_of(state, me);
    if (mine.rating_before() <= 0) return "";
    return "Your rating: " + change_text(mine.rating_before(), mine.rating()) + ".";
  }
  std::string text;
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = info_of(state, side);
    if (p.rating_before() <= 0) continue;
    text += (text.empty() ? "Ratings: " : ", ") + seat_name(p) + " " +
            change_text(p.rating_before(), p.rating());
  }
  return text.empty() ? "" : text + ".";
}

std::string away_results_text(const wire::Welcome& welcome) {
  std::string text;
  for (const wire::AwayResult& r : welcome.decided_while_away()) {
    wire::GameState as_state;  // the fields result_text reads
    as_state.set_status(r.status());
    as_state.set_end_reason(r.end_reason());
    std::string line = "While you were away, game " + std::to_string(r.game_id()) + " against " +
                       safe_text(r.opponent(), field_width::kName) +
                       " ended: " + result_text(as_state) + ".";
    const std::string personal = personal_result(as_state, r.side());
    if (!personal.empty()) line += " " + personal;
    if (r.rated() && r.rating_before() > 0) {
      if (!line.empty() && line.back() == '.') line.pop_back();
      line += "; your rating " + change_text(r.rating_before(), r.rating_after()) + ".";
    }
    text += (text.empty() ? "" : "\n") + line;
  }
  return text;
}

std::string profile_text(const wire::Profile& p) {
  std::string text =
      safe_text(p.name(), field_width::kName) + ": rating " + rating_text(p.rating());
  if (p.games() == 0 || p.rank() == 0) return text + ", no games yet (unranked).";
  text += ", rank " + std::to_string(p.rank()) + " of " + std::to_string(p.ranked()) + "; " +
          plural(p.games(), "game", "games") + ": " + plural(p.wins(), "win", "wins") + ", " +
          plural(p.losses(), "loss", "losses") + ", " + plural(p.draws(), "draw", "draws") + ".";
  return text;
}

std::string left_text(const wire::Left& left) {
  if (left.reason() == wire::LEFT_REASON_PLAYERS_LEFT) {
    std::string who;
    for (int i = 0; i < left.players_size(); ++i) {
      if (i > 0) who += i + 1 == left.players_size() ? " and " : ", ";
      who += safe_text(left.players(i), field_width::kName);
    }
    return (who.empty() ? "The players left" : who + " left") + "; back in the lobby.";
  }
  return "You are in the lobby: /list, /create, /quick or /join.";
}

std::string player_away_text(const wire::GameState& state, wire::Side side) {
  const wire::PlayerInfo& p = info_of(state, side);
  return named(state, side) + " lost the connection; the seat is held " +
         whole_seconds(std::chrono::milliseconds(p.away_ms_left())) + ".";
}

std::string player_back_text(const wire::GameState& state, wire::Side side) {
  return named(state, side) + " is back.";
}

std::string away_countdown_text(const wire::GameState& state, wire::Side side,
                                std::chrono::milliseconds left) {
  return named(state, side) + " is away: the seat is held " + whole_seconds(left) + " more.";
}

std::string opponent_named_text(const wire::OpponentStatus& status, const wire::GameState& state,
                                wire::Side opponent) {
  if (status.left()) return named(state, opponent) + " left the game.";
  if (!status.connected()) {
    return named(state, opponent) + " lost the connection; the seat is held " +
           whole_seconds(std::chrono::milliseconds(status.grace_ms())) +
           " (then the game is lost by disconnect).";
  }
  return named(state, opponent) + " is back.";
}

std::string mid_game_goodbye(const std::string& command, bool own_server, bool token_kept) {
  const std::string again = "run " + command + " again";
  if (!own_server) return "Your seat is held for a while: " + again + " to take it back.";
  if (token_kept) return "Your game is kept: " + again + " to take it back.";
  return "The game ends here: the server stops with this client.";
}

}  // namespace ttt::client
