#include "console/command_request.hpp"

#include "ttt/wire/convert.hpp"

namespace ttt::client {
namespace {

// The command's Fischer clock, if it asks for one.
void set_clock(const Command& command, wire::ClockSettings& clock) {
  if (!command.clock) return;
  clock.set_initial_ms(command.clock->initial_ms);
  clock.set_increment_ms(command.clock->increment_ms);
}

}  // namespace

std::optional<wire::ClientMessage> request_for(const Command& command) {
  wire::ClientMessage m;
  switch (command.kind) {
    case CommandKind::List: {
      // The first page with the command's filters (GameListQuery asks for
      // the pages after it).
      wire::ListGames* list = m.mutable_list_games();
      list->set_size(command.list_size);
      list->set_win_length(command.win_length);
      list->set_open_only(command.open_only);
      if (command.rated) list->set_rated(*command.rated ? wire::RATED_YES : wire::RATED_NO);
      list->set_name(command.text);
      break;
    }
    case CommandKind::Create: {
      wire::CreateGame* create = m.mutable_create_game();
      create->set_size(command.size);
      create->set_win_length(command.win_length);
      create->set_is_private(command.is_private);
      create->set_vs_bot(command.bot.has_value());
      if (command.bot) create->set_bot_level(wire::bot_level_of(*command.bot));
      if (command.rated) create->set_rated(*command.rated ? wire::RATED_YES : wire::RATED_NO);
      set_clock(command, *create->mutable_clock());
      break;
    }
    case CommandKind::Join:
      m.mutable_join_game()->set_game_id(command.game_id);
      m.mutable_join_game()->set_invite_code(command.code);
      break;
    case CommandKind::Quick:
      m.mutable_quick_match()->set_size(command.size);
      m.mutable_quick_match()->set_win_length(command.win_length);
      set_clock(command, *m.mutable_quick_match()->mutable_clock());
      break;
    case CommandKind::Who:
      // The first page with the name filter (PlayerListQuery asks for the
      // pages after it).
      m.mutable_list_players()->set_name(command.text);
      break;
    case CommandKind::Challenge: {
      wire::Challenge* challenge = m.mutable_challenge();
      challenge->set_name(command.text);
      challenge->set_size(command.size);
      challenge->set_win_length(command.win_length);
      if (command.rated) challenge->set_rated(*command.rated ? wire::RATED_YES : wire::RATED_NO);
      set_clock(command, *challenge->mutable_clock());
      break;
    }
    case CommandKind::Accept:
      m.mutable_answer_challenge()->set_challenge_id(command.challenge_id);
      m.mutable_answer_challenge()->set_accept(true);
      break;
    case CommandKind::Challenges:
      m.mutable_challenge_settings()->set_refuse_all(!command.on);
      break;
    case CommandKind::Block:
    case CommandKind::Unblock:
      m.mutable_block()->set_name(command.text);
      m.mutable_block()->set_blocked(command.kind == CommandKind::Block);
      break;
    case CommandKind::Watch:
      m.mutable_spectate()->set_game_id(command.game_id);
      m.mutable_spectate()->set_invite_code(command.code);
      break;
    case CommandKind::Resign:
      m.mutable_resign();
      break;
    case CommandKind::Draw:
      m.mutable_offer_draw();
      break;
    case CommandKind::Rematch:
      m.mutable_rematch();
      break;
    case CommandKind::Decline:
      // A challenge when one is named; which one without an id, the client
      // decides (ConsoleClient: the opponent's offer first).
      if (command.challenge_id != 0) {
        m.mutable_answer_challenge()->set_challenge_id(command.challenge_id);
      } else {
        m.mutable_decline();
      }
      break;
    case CommandKind::Me:
      m.mutable_get_profile();
      break;
    case CommandKind::Leave:
      m.mutable_leave();
      break;
    case CommandKind::Say:
      m.mutable_chat()->set_text(command.text);
      break;
    case CommandKind::Top:
      m.mutable_get_leaderboard()->set_limit(static_cast<std::uint32_t>(command.limit));
      break;
    case CommandKind::History:
      m.mutable_get_history()->set_name(command.text);
      m.mutable_get_history()->set_limit(kHistoryLength);
      break;
    case CommandKind::Replay:
      m.mutable_get_replay()->set_record_id(command.record_id);
      break;
    case CommandKind::Spectators:
      m.mutable_chat_settings()->set_spectators(command.on);
      break;
    case CommandKind::Mute:
    case CommandKind::Unmute:
    case CommandKind::SecretRotate:  // the new secret is made and saved first
    case CommandKind::Help:
    case CommandKind::Quit:
      return std::nullopt;
  }
  return m;
}

bool awaits_reply(CommandKind kind) noexcept {
  switch (kind) {
    case CommandKind::Resign:
    case CommandKind::Draw:
    case CommandKind::Rematch:
    case CommandKind::Decline:
    case CommandKind::Say:
    case CommandKind::Mute:
    case CommandKind::Unmute:
    case CommandKind::Help:
    case CommandKind::Quit:
      return false;
    default:
      return true;
  }
}

bool asks_for_a_place(CommandKind kind) noexcept {
  return kind == CommandKind::Create || kind == CommandKind::Quick || kind == CommandKind::Watch;
}

std::string place_again_text(const wire::ClientMessage& request) {
  if (request.has_quick_match()) return "Back in the quick-match queue.";
  if (request.has_create_game()) return "Opening your game again.";
  if (request.has_join_game()) {
    return "Joining game " + std::to_string(request.join_game().game_id()) + " again.";
  }
  return "Watching game " + std::to_string(request.spectate().game_id()) + " again.";
}

bool is_record_query(CommandKind kind) noexcept {
  return kind == CommandKind::Top || kind == CommandKind::History || kind == CommandKind::Replay ||
         kind == CommandKind::Me;
}

}  // namespace ttt::client
