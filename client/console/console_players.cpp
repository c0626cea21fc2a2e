// ConsoleClient and the other players: who is online (/who, a page at a
// time), challenges made, received (a line and a bell; a muted player's are
// declined unseen), answered and ended, /challenges on|off, /block and
// /unblock; and a game's clocks (Fischer clocks, the move limit, an away
// player's seat) counting down in the prompt.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>

#include "console/console_client.hpp"
#include "console/game_text.hpp"
#include "console/players_text.hpp"
#include "console/session_text.hpp"
#include "view/clock_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
bool ConsoleClient::execute_players(const Command& command) {
  wire::ClientMessage m;
  switch (command.kind) {
    case CommandKind::Who:
      if (command.next_page) {
        if (who_next_.empty()) {
          say("There is no next page: /who shows the players online from the first.");
          return true;
        }
        m.mutable_list_players()->set_name(who_filter_);
        m.mutable_list_players()->set_after(who_next_);
      } else {
        who_filter_ = command.text;
        who_shown_ = 0;
        m.mutable_list_players()->set_name(command.text);
      }
      send(m, true);
      return true;
    case CommandKind::Block:
    case CommandKind::Unblock: {
      m.mutable_block()->set_name(command.text);
      m.mutable_block()->set_blocked(command.kind == CommandKind::Block);
      // The answer lists who is blocked; it is worded after what was asked.
      if (const std::uint32_t id = send(m, true); id != 0) block_requests_[id] = command;
      return true;
    }
    case CommandKind::Decline:
      // The opponent's offer comes first; without one, a challenge.
      if (command.challenge_id == 0 &&
          (challenges_received_.empty() ||
           (game_ && (game_->draw_offered_by() != wire::SIDE_NONE ||
                      game_->rematch_requested_by() != wire::SIDE_NONE)))) {
        return false;
      }
      m.mutable_answer_challenge()->set_challenge_id(command.challenge_id);
      m.mutable_answer_challenge()->set_accept(false);
      send(m, true);
      return true;
    default:
      return false;
  }
}

bool ConsoleClient::on_players_message(const wire::ServerMessage& message) {
  switch (message.body_case()) {
    case wire::ServerMessage::kPlayerList: {
      const wire::PlayerList& list = message.player_list();
      std::string text = player_list_text(list, screen_width());
      const auto first = who_shown_ + 1;
      who_shown_ += static_cast<std::uint32_t>(list.players_size());
      who_next_ = list.next_after();
      if (!who_next_.empty() || first > 1) {
        text += "\nPlayers " + std::to_string(first) + "-" + std::to_string(who_shown_) + " of " +
                std::to_string(list.total()) + (who_next_.empty() ? "." : ": /who next for more.");
      }
      if (who_next_.empty()) who_shown_ = 0;
      pager_.show(text + "\n");
      return true;
    }
    case wire::ServerMessage::kChallengeOffer: {
      const wire::ChallengeOffer& offer = message.challenge_offer();
      if (mutes_.muted(offer.from())) {
        // Declined unseen; its end is not said either.
        if (muted_challenges_.size() < kMaxMutedChallenges) {
          muted_challenges_.insert(offer.challenge_id());
        }
        wire::ClientMessage decline;
        decline.mutable_answer_challenge()->set_challenge_id(offer.challenge_id());
        decline.mutable_answer_challenge()->set_accept(false);
        connection_->send(std::move(decline));
        return true;
      }
      challenges_received_[offer.challenge_id()] = offer;
      if (terminal_.interactive()) terminal_.bell();
      say(challenge_offer_text(offer));
      return true;
    }
    case wire::ServerMessage::kChallengeSent:
      say(challenge_sent_text(message.challenge_sent()));
      return true;
    case wire::ServerMessage::kChallengeEnded:
      if (muted_challenges_.erase(message.challenge_ended().challenge_id()) > 0) return true;
      challenges_received_.erase(message.challenge_ended().challenge_id());
      say(challenge_ended_text(message.challenge_ended(), server_name_));
      return true;
    case wire::ServerMessage::kChallengeSettings:
      say(message.challenge_settings().refuse_all()
              ? "You refuse every challenge now (/challenges on to take them again)."
              : "You take challenges (/challenges off to refuse them all).");
      return true;
    case wire::ServerMessage::kBlockList: {
      const auto asked = block_requests_.find(message.in_reply_to());
      if (asked == block_requests_.end() || asked->second.text.empty()) {
        if (asked != block_requests_.end()) block_requests_.erase(asked);
        say(block_list_text(message.block_list()));
        return true;
      }
      const Command command = std::move(asked->second);
      block_requests_.erase(asked);
      say(block_answer_text(message.block_list(), command.text,
                            command.kind == CommandKind::Block));
      return true;
    }
    default:
      return false;
  }
}

std::string ConsoleClient::clocks_prompt() const {
  if (!game_ || !in_progress(*game_)) return "";
  // The mover's clock and the away players' seats run on from the state
  // the server sent.
  const auto since = static_cast<std::uint32_t>(std::min<long long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                            state_received_at_)
          .count(),
      UINT32_MAX));
  const auto left = [since](std::uint32_t ms) { return since >= ms ? 0u : ms - since; };
  std::string text;
  if (has_chess_clock(*game_)) {
    std::uint32_t x = game_->x_clock_ms();
    std::uint32_t o = game_->o_clock_ms();
    std::uint32_t& running = game_->to_move() == wire::SIDE_X ? x : o;
    running = left(running);
    text = "X " + clock_face(x) + " O " + clock_face(o) + " | ";
  } else if (game_->move_time_left_ms() > 0) {
    text = side_name(game_->to_move()) + " " +
           whole_seconds(std::chrono::milliseconds(left(game_->move_time_left_ms()))) + " | ";
  }
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = info_of(*game_, side);
    if (p.player_id() == 0 || p.connected() || p.away_ms_left() == 0) continue;
    text += side_name(side) + " away " +
            whole_seconds(std::chrono::milliseconds(left(p.away_ms_left()))) + " | ";
  }
  return text;
}

std::optional<std::chrono::milliseconds> ConsoleClient::my_time_left() const {
  if (!my_turn()) return std::nullopt;
  const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - state_received_at_);
  std::chrono::milliseconds clock{0};
  if (has_chess_clock(*game_)) {
    clock = std::chrono::milliseconds(my_side() == wire::SIDE_X ? game_->x_clock_ms()
                                                                : game_->o_clock_ms());
  } else if (game_->move_time_left_ms() > 0) {
    clock = std::chrono::milliseconds(game_->move_time_left_ms());
  } else {
    return std::nullopt;  // no clock
  }
  return clock > since ? clock - since : std::chrono::milliseconds(0);
}

void ConsoleClient::refresh_lobby_panel() {
  constexpr auto kEvery = std::chrono::seconds(3);
  constexpr std::uint32_t kPanelRows = 20;  // the panel shows no more
  const auto now = std::chrono::steady_clock::now();
  if (game_ || !welcomed_before_ || !connection_->connected() || quitting_ ||
      panel_games_request_ != 0 || panel_players_request_ != 0 || now - panel_asked_at_ < kEvery) {
    return;
  }
  panel_asked_at_ = now;
  wire::ClientMessage games;
  games.mutable_list_games()->set_page_size(kPanelRows);
  panel_games_request_ = connection_->send(games);
  wire::ClientMessage players;
  players.mutable_list_players()->set_page_size(kPanelRows);
  panel_players_request_ = connection_->send(players);
}

bool ConsoleClient::on_lobby_panel(const wire::ServerMessage& message) {
  const std::uint32_t id = message.in_reply_to();
  if (id == 0 || (id != panel_games_request_ && id != panel_players_request_)) return false;
  if (id == panel_games_request_) {
    panel_games_request_ = 0;
    if (message.has_game_list()) panel_games_ = message.game_list();
  } else {
    panel_players_request_ = 0;
    if (message.has_player_list() && panel_games_) {
      terminal_.show_lobby(*panel_games_, message.player_list());
    }
  }
  return true;
}

}  // namespace ttt::client
