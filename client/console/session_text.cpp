#include "console/session_text.hpp"

#include <algorithm>
#include <cctype>
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

// "2nd", "11th", "23rd"
std::string ordinal(std::uint32_t n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    suffix = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  }
  return std::to_string(n) + suffix;
}

// Why a rating moved less than the result alone would move it, from the
// player's side (about_me) or a spectator's; empty when there is no note
// and the change is not a rounded zero.
std::string rating_note_text(const wire::PlayerInfo& p, const std::string& opponent, bool about_me,
                             long change) {
  switch (p.rating_note()) {
    case wire::RATING_NOTE_REPEAT: {
      const std::uint32_t n = p.repeat_game();
      const std::string nth = n > 1 ? ordinal(n) + " " : "repeated ";
      const std::string game = std::string(about_me ? "your " : "their ") + nth +
                               "rated game against each other within 24 hours";
      if (change == 0 || n >= 5) return game + ": from the 5th on they move no rating";
      return game + " counts 1/" + std::to_string(1u << std::min<std::uint32_t>(n - 1, 3));
    }
    case wire::RATING_NOTE_PROVISIONAL_OPPONENT:
      return opponent + "'s rating is provisional: an established rating does not move against it";
    case wire::RATING_NOTE_TOO_SHORT:
      return "the game ended before both players moved";
    case wire::RATING_NOTE_FEW_OPPONENTS: {
      const std::uint32_t n = std::min<std::uint32_t>(p.opponent_variety(), 9);
      return opponent + " has played rated games against only " + std::to_string(n) +
             (n == 1 ? " other account" : " other accounts") + ": it counts " + std::to_string(n) +
             "/10";
    }
    default:
      return change == 0 ? "the result the ratings expected" : "";
  }
}

// "1205 -> 1189 (-16)", with why it moved less when it did:
// "1205 -> 1205 (+0: ...)".
std::string change_text(double before, double after, const std::string& why = "") {
  const long change = std::lround(after) - std::lround(before);
  return rating_text(before) + " -> " + rating_text(after) + " (" + (change >= 0 ? "+" : "") +
         std::to_string(change) + (why.empty() ? "" : ": " + why) + ")";
}

long rounded_change(const wire::PlayerInfo& p) {
  return std::lround(p.rating()) - std::lround(p.rating_before());
}

const char* kind_text(wire::OfferKind kind) {
  return kind == wire::OFFER_KIND_REMATCH ? "rematch request" : "draw offer";
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string sentence_case(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::string whole_seconds(std::chrono::milliseconds ms) {
  const auto count = ms.count() > 0 ? ms.count() : 0;
  return std::to_string((count + 999) / 1000) + " s";
}

std::string wait_text(std::chrono::milliseconds ms) {
  const long long seconds = (std::max<long long>(ms.count(), 0) + 999) / 1000;
  if (seconds <= 90) return std::to_string(seconds) + " s";
  const long long minutes = seconds / 60;
  return std::to_string(minutes) + " min" +
         (seconds % 60 == 0 ? "" : " " + std::to_string(seconds % 60) + " s");
}

std::string countdown_text(std::chrono::milliseconds ms) {
  const long long seconds = (std::max<long long>(ms.count(), 0) + 999) / 1000;
  if (seconds < 60) return std::to_string(seconds) + " s";
  const long long rest = seconds % 60;
  return std::to_string(seconds / 60) + ":" + (rest < 10 ? "0" : "") + std::to_string(rest);
}

std::string connection_lost_text(const std::string& reason, std::chrono::milliseconds left,
                                 std::chrono::milliseconds seat_grace, bool restarts,
                                 bool give_up_hint) {
  std::string text = "Connection lost (" + reason + "); reconnecting for up to " + wait_text(left);
  std::string why;
  if (seat_grace.count() > 0) {
    why = "the server holds your seat " + whole_seconds(seat_grace) + " after it notices";
  }
  if (restarts)
    why += (why.empty() ? "" : "; ") + std::string("a restarted server gives the game back");
  if (!why.empty()) text += " (" + why + ")";
  return text + "..." + (give_up_hint ? " Ctrl-C or /quit gives up." : "");
}

std::string reconnect_countdown_text(std::chrono::milliseconds left) {
  return "Still reconnecting: " + wait_text(left) + " left.";
}

std::string reconnecting_prompt(std::chrono::milliseconds left, bool give_up_hint) {
  return "reconnecting (" + countdown_text(left) + " left" +
         (give_up_hint ? "; Ctrl-C gives up" : "") + ")> ";
}

std::string time_warning_text(std::chrono::milliseconds left, bool fischer) {
  return whole_seconds(left) + (fischer ? " left on your clock" : " left to move") +
         ": the game is lost when it runs out.";
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
    const std::string why = rating_note_text(mine, seat_name(info_of(state, other_side(me))), true,
                                             rounded_change(mine));
    return "Your rating: " + change_text(mine.rating_before(), mine.rating(), why) + ".";
  }
  std::string text;
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = info_of(state, side);
    if (p.rating_before() <= 0) continue;
    const std::string why =
        rating_note_text(p, seat_name(info_of(state, other_side(side))), false, rounded_change(p));
    text += (text.empty() ? "Ratings: " : ", ") + seat_name(p) + " " +
            change_text(p.rating_before(), p.rating(), why);
  }
  return text.empty() ? "" : text + ".";
}

namespace {

// "RESULT. PERSONAL." of a game that ended while the player was away.
std::string result_and_yours(wire::GameStatus status, wire::EndReason reason, wire::Side side) {
  wire::GameState as_state;  // the fields result_text reads
  as_state.set_status(status);
  as_state.set_end_reason(reason);
  std::string line = result_text(as_state) + ".";
  const std::string personal = personal_result(as_state, side);
  if (!personal.empty()) line += " " + personal;
  return line;
}

}  // namespace

std::string away_results_text(const wire::Welcome& welcome) {
  std::string text;
  for (const wire::AwayResult& r : welcome.decided_while_away()) {
    std::string line = "While you were away, game " + std::to_string(r.game_id()) + " against " +
                       safe_text(r.opponent(), field_width::kName) +
                       " ended: " + result_and_yours(r.status(), r.end_reason(), r.side());
    if (r.rated() && r.rating_before() > 0) {
      if (!line.empty() && line.back() == '.') line.pop_back();
      line += "; your rating " + change_text(r.rating_before(), r.rating_after()) + ".";
    }
    text += (text.empty() ? "" : "\n") + line;
  }
  return text;
}

std::string dropped_round_text(const RoundEnd& end) {
  return "Game " + std::to_string(end.round.game_id) + " against " +
         safe_text(end.opponent, field_width::kName) +
         " ended while you were away: " + result_and_yours(end.status, end.reason, end.side);
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

std::string gave_up_text(const std::string& command, bool own_server, bool seated) {
  if (own_server || !seated) return "Stopped reconnecting.";
  return "Stopped reconnecting: if the server still holds your game, run " + command +
         " again to take it back.";
}

std::string mid_game_goodbye(const std::string& command, bool own_server, bool token_kept) {
  const std::string again = "run " + command + " again";
  if (!own_server) return "Your seat is held for a while: " + again + " to take it back.";
  if (token_kept) return "Your game is kept: " + again + " to take it back.";
  return "The game ends here: the server stops with this client.";
}

}  // namespace ttt::client
