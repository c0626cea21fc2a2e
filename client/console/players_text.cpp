#include "console/players_text.hpp"

#include <chrono>
#include <vector>

#include "console/game_text.hpp"
#include "console/session_text.hpp"
#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"
#include "view/board_name.hpp"
#include "view/clock_text.hpp"

namespace ttt::client {
namespace {

std::string board_with_clock(int size, int win_length, const wire::ClockSettings& clock) {
  std::string text = board_name(size, win_length);
  if (clock.initial_ms() != 0) {
    text += ", clock " + clock_name({clock.initial_ms(), clock.increment_ms()});
  }
  return text;
}

}  // namespace

std::string challenge_settings_text(const wire::Challenge& settings, bool rated) {
  const int size = settings.size() == 0 ? 3 : settings.size();
  std::string text = board_with_clock(size, settings.win_length(), settings.clock());
  if (!rated) text += ", unrated";
  return text;
}

std::string activity_text(const wire::PlayerPresence& p) {
  const std::string board = board_with_clock(p.size(), p.win_length(), p.clock());
  const std::string game =
      p.game_id() != 0 ? "game " + std::to_string(p.game_id()) : std::string("a private game");
  // The server's own bots are named so that no player can take their names.
  const std::string opponent =
      p.opponent().empty()
          ? std::string()
          : (p.opponent_server_bot() ? "the server's " : "") + safe_name(p.opponent());
  switch (p.activity()) {
    case wire::ACTIVITY_QUEUED:
      return "waiting in quick match for a " + board + " game";
    case wire::ACTIVITY_WAITING:
      return "waiting for an opponent in " + game + " (" + board + ")";
    case wire::ACTIVITY_PLAYING:
      return "playing " + game + (opponent.empty() ? "" : " against " + opponent) + " (" + board +
             ")";
    case wire::ACTIVITY_FINISHED:
      return "just finished " + game + (opponent.empty() ? "" : " against " + opponent) + " (" +
             board + ")";
    case wire::ACTIVITY_WATCHING:
      return "watching " + game + " (" + safe_text(p.opponent(), 2 * field_width::kName + 4) + ")";
    default:
      return "in the lobby";
  }
}

std::string player_list_text(const wire::PlayerList& list, std::size_t width) {
  if (list.players().empty()) return "Nobody else is online.";
  TextTable table({{"name", 9, 8, false, false, 0, kNameColumnWidth},
                   {"rating", 6, 0, true, false, 2, 6},
                   {"doing", 8, 12, false, true, 2, 0}});
  for (const wire::PlayerPresence& p : list.players()) {
    std::string name = safe_text(p.name(), kNameColumnWidth);
    if (p.is_bot()) name += " (bot)";
    if (p.away()) name += " [away]";
    table.add_row({name, rating_text(p.rating()), activity_text(p)});
  }
  std::string text = table.render(width);
  text.pop_back();  // the last line's '\n'
  return text;
}

std::string challenge_offer_text(const wire::ChallengeOffer& offer) {
  const bool rated = offer.settings().rated() != wire::RATED_NO;
  return safe_name(offer.from()) + (offer.from_bot() ? " (bot, " : " (") +
         rating_text(offer.from_rating()) + ") challenges you to a " +
         challenge_settings_text(offer.settings(), rated) +
         " game: /accept or /decline (challenge " + std::to_string(offer.challenge_id()) +
         ", for " + whole_seconds(std::chrono::milliseconds(offer.expires_in_ms())) + ").";
}

std::string challenge_sent_text(const wire::ChallengeSent& sent) {
  const bool rated = sent.settings().rated() != wire::RATED_NO;
  return "You challenged " + safe_name(sent.settings().name()) + " to a " +
         challenge_settings_text(sent.settings(), rated) + " game (challenge " +
         std::to_string(sent.challenge_id()) + "); it stands " +
         whole_seconds(std::chrono::milliseconds(sent.expires_in_ms())) + ".";
}

std::string challenge_ended_text(const wire::ChallengeEnded& ended, const std::string& me) {
  const bool mine = ended.challenger() == me;
  const std::string them = safe_name(mine ? ended.challenged() : ended.challenger());
  switch (ended.how()) {
    case wire::CHALLENGE_END_DECLINED:
      return mine ? them + " declined your challenge." : "You declined " + them + "'s challenge.";
    case wire::CHALLENGE_END_EXPIRED:
      return mine ? "Your challenge to " + them + " expired: no answer within its time."
                  : them + "'s challenge expired.";
    case wire::CHALLENGE_END_WITHDRAWN:
      return mine ? "Your challenge to " + them + " ended: you went into another game."
                  : them + "'s challenge ended: " + them + " went offline or into another game.";
    case wire::CHALLENGE_END_UNAVAILABLE:
      return mine ? "Your challenge to " + them + " ended: " + them +
                        " went offline or into another game."
                  : them + "'s challenge ended: you went into another game.";
    default:
      return "Challenge " + std::to_string(ended.challenge_id()) + " ended.";
  }
}

std::string block_list_text(const wire::BlockList& list) {
  if (list.names().empty()) return "Nobody is blocked.";
  std::string text = "Blocked (no challenges or chat from them):";
  for (int i = 0; i < list.names_size(); ++i) {
    text += (i == 0 ? " " : ", ") + safe_name(list.names(i));
  }
  return text + ".";
}

std::string block_answer_text(const wire::BlockList& list, const std::string& name, bool blocked) {
  const std::string who = safe_name(name);
  const auto key = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  std::string others;
  bool listed = false;
  for (const std::string& n : list.names()) {
    if (key(n) == key(name)) {
      listed = true;
    } else {
      others += (others.empty() ? "" : ", ") + safe_name(n);
    }
  }
  const std::string all = listed ? who + (others.empty() ? "" : ", " + others) : others;
  if (blocked && listed) {
    return who + " is blocked: no challenges or chat from " + who + " (blocked: " + all + ").";
  }
  if (listed) return who + " is still blocked (blocked: " + all + ").";
  return who + " is not blocked " +
         (others.empty() ? std::string("(nobody is).") : "(blocked: " + others + ").");
}

}  // namespace ttt::client
