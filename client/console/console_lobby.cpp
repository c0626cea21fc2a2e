// ConsoleClient's lobby extras: the secret that owns the player's name (made
// here before the first Hello, rotated with /secret rotate), the game list a
// page at a time (/list, /list next), mutes (/mute, /unmute: a muted
// player's chat is hidden and challenges declined unseen), and whether the
// player hears the spectators' chat (/spectators on|off).
#include <spdlog/spdlog.h>

#include "console/console_client.hpp"
#include "console/game_text.hpp"
#include "console/record_text.hpp"
#include "console/session_text.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

// The name the server holds for us, as shown.
std::string shown_name(const wire::Welcome& welcome) {
  return safe_text(welcome.name(), field_width::kName);
}

}  // namespace

// --- the secret -------------------------------------------------------------------

void ConsoleClient::load_secret(ConnectionOptions& options) {
  secret_.emplace(secret_path_);
  std::string error;
  if (!secret_->load_or_make(error)) {
    // Still usable for this run; the player must keep it by hand.
    say("The secret for the name " + config_.name + " could not be saved (" + error +
        "). Keep it to use the name again: " + secret_->current());
  }
  options.secret = secret_->current();
  options.next_secret = secret_->pending();
}

void ConsoleClient::on_welcome_secret(const wire::Welcome& welcome) {
  if (!welcome.secret().empty()) {
    keep_secret(welcome);  // an older server made the secret
    return;
  }
  if (!secret_) return;
  std::string error;
  if (!secret_->pending().empty() && connection_->secret() == secret_->pending()) {
    // A rotation whose answer was lost: the server took the new secret.
    if (!secret_->finish_rotation(error)) say("The new secret could not be saved: " + error);
  }
  if (secret_->made_now() && !welcome.resumed()) {
    // The name was free and is ours now: the secret sent with it owns it.
    if (!secret_->path().empty()) {
      say("The name " + shown_name(welcome) +
          " is now yours on this server; its secret is kept in " + secret_->path() + ".");
    }
    secret_->registered();
  }
}

// The server gives a name's secret once, when the name is first used (a
// server older than client-made secrets).
void ConsoleClient::keep_secret(const wire::Welcome& welcome) {
  std::string error;
  if (secret_ && secret_->adopt(welcome.secret(), error)) {
    connection_->set_secret(welcome.secret());
    say("The name " + shown_name(welcome) + " is now yours on this server; its secret is kept in " +
        secret_->path() + ".");
    return;
  }
  constexpr std::size_t kSecretWidth = 64;  // a real one is 32 hex digits
  say("The name " + shown_name(welcome) +
      " is now yours on this server. Keep its secret to use it again: " +
      safe_text(welcome.secret(), kSecretWidth) +
      (error.empty() ? "" : " (not saved: " + error + ")"));
}

void ConsoleClient::rotate_secret() {
  std::string error;
  const std::string next = secret_ ? secret_->begin_rotation(error) : "";
  if (next.empty()) {
    say("The secret can't be replaced: " + (error.empty() ? "none is kept" : error) + ".");
    return;
  }
  connection_->offer_next_secret(next);
  wire::ClientMessage m;
  m.mutable_rotate_secret()->set_new_secret(next);
  send(m, true);
}

void ConsoleClient::on_secret_rotated() {
  std::string error;
  if (!secret_ || !secret_->finish_rotation(error)) {
    say("The server took the new secret, but it could not be saved here: " + error);
    return;
  }
  connection_->set_secret(secret_->current());
  say("Your name has a new secret, kept in " + secret_->path() + "; the old one no longer works.");
}

// --- commands -----------------------------------------------------------------------

bool ConsoleClient::execute_extra(const Command& command) {
  wire::ClientMessage m;
  switch (command.kind) {
    case CommandKind::List: {
      std::string why;
      auto request = list_query_.request(command, why);
      if (!request) {
        if (!why.empty()) say(why);  // empty: it waits for the page on its way
        return true;
      }
      *m.mutable_list_games() = std::move(*request);
      send(m, true);
      return true;
    }
    case CommandKind::Mute: {
      if (command.text.empty()) {
        const auto names = mutes_.names();
        std::string line = names.empty() ? "Nobody is muted." : "Muted:";
        for (const auto& name : names) line += " " + name + ";";
        if (!names.empty()) line.back() = '.';
        say(line);
      } else if (mutes_.mute(command.text)) {
        say("Muted " + command.text +
            ": their chat is hidden and their challenges declined unseen, " + "until /unmute " +
            command.text + ".");
      } else {
        say(command.text + " is muted already.");
      }
      return true;
    }
    case CommandKind::Unmute:
      say(mutes_.unmute(command.text) ? "You hear " + command.text + " again."
                                      : command.text + " was not muted.");
      return true;
    case CommandKind::SecretRotate:
      rotate_secret();
      return true;
    default:
      return false;
  }
}

// --- server messages ----------------------------------------------------------------

void ConsoleClient::on_game_list(const wire::GameList& list) {
  const std::string footer = list_query_.on_page(list);
  const std::string link = watch_link(0);
  const std::string browser =
      link.empty() ? ""
                   : wrap_text("In a browser: " + link.substr(0, link.size() - 1) + "ID",
                               screen_width()) +
                         "\n";
  pager_.show(game_list_text(list, screen_width()) + "\n" +
              (footer.empty() ? "" : wrap_text(footer, screen_width()) + "\n") + browser);
  // A /list typed while this page was on its way goes now (and the next
  // after its page).
  while (auto waiting = list_query_.take_waiting()) execute_extra(*waiting);
}

void ConsoleClient::on_spectator_count(const wire::SpectatorCount& count) {
  if (!game_ || game_->game_id() != count.game_id() || game_->spectators() == count.spectators()) {
    return;
  }
  game_->set_spectators(count.spectators());
  // The server says it at most once a second, however many come and go.
  say(std::to_string(count.spectators()) + " watching game " + std::to_string(count.game_id()) +
      ".");
}

void ConsoleClient::on_chat_settings(const wire::ChatSettings& settings) {
  say(settings.spectators() ? "You hear the spectators' chat too (/spectators off to stop)."
                            : "You don't hear the spectators' chat (/spectators on to hear it).");
}

// --- records --------------------------------------------------------------------

void ConsoleClient::on_record(const wire::ServerMessage& message, const Command& query) {
  switch (message.body_case()) {
    case wire::ServerMessage::kLeaderboard:
      pager_.show(leaderboard_text(message.leaderboard(), screen_width()) + "\n");
      break;
    case wire::ServerMessage::kHistory:
      pager_.show(history_text(message.history(), TimeZone::Local, screen_width()) + "\n");
      break;
    case wire::ServerMessage::kReplay:
      pager_.show_replay(message.replay().game(), board_style(message.replay().game().size()),
                         TimeZone::Local);
      break;
    case wire::ServerMessage::kProfile:
      say(profile_text(message.profile()));
      break;
    case wire::ServerMessage::kError:
      if (message.error().fatal()) {
        on_error(message.error(), message.in_reply_to());
      } else {
        say(record_error_text(message.error(), query));
      }
      break;
    default:
      spdlog::debug("unexpected reply of kind {} to a records query",
                    static_cast<int>(message.body_case()));
  }
}

}  // namespace ttt::client
