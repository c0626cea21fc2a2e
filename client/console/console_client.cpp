#include "console/console_client.hpp"

#include <spdlog/spdlog.h>
#include <utility>

#include "console/command_request.hpp"
#include "console/game_text.hpp"
#include "console/screen_fit.hpp"
#include "console/session_text.hpp"
#include "identity/config_files.hpp"
#include "text/safe_text.hpp"
#include "ttt/cli/invocation.hpp"
#include "version.hpp"
#include "view/node_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

// The name the server holds for us, as shown.
std::string name_of(const wire::Welcome& welcome) {
  return safe_text(welcome.name(), field_width::kName);
}

// The file that keeps the resume token between runs; empty: none.
std::string token_path(const ClientConfig& config) {
  if (config.no_token_file) return "";
  if (!config.token_file.empty()) return config.token_file;
  return default_token_path(config.host, config.port, config.name);
}

}  // namespace

ConsoleClient::ConsoleClient(boost::asio::io_context& io, ClientConfig config, Terminal& terminal)
    : io_(io),
      config_(std::move(config)),
      terminal_(terminal),
      pager_(terminal),
      watch_links_(config_.host, config_.port, !config_.trust.no_tls),
      commentary_(terminal, game_, watch_links_),
      moves_(terminal, game_, *this),
      clocks_(terminal, game_),
      absences_(terminal),
      reconnecting_(terminal),
      give_up_(terminal, game_),
      lists_(terminal, pager_, *this, watch_links_),
      panel_(terminal, *this),
      players_(terminal, *this),
      records_(terminal, pager_),
      secret_(terminal),
      exit_(terminal),
      tick_timer_(io) {}

// --- starting and stopping --------------------------------------------------------

void ConsoleClient::start() {
  std::string warning;
  ClaimedName claimed = claim_name(config_.host, config_.port, config_.name, login_name(), warning);
  if (!warning.empty()) spdlog::warn("your default name is not kept for later runs: {}", warning);
  config_.name = std::move(claimed.name);
  name_claim_ = std::move(claimed.claim);
  token_.open(token_path(config_));
  ConnectionOptions options;
  options.host = config_.host;
  options.port = config_.port;
  options.other_nodes = config_.other_nodes;
  options.name = config_.name;
  options.client_version = std::string("ttt-client ") + kVersion;
  options.retry = config_.retry;
  options.connect_timeout = config_.connect_timeout;
  options.take_over = config_.take_over;
  options.restart_wait = config_.restart_wait;
  apply_trust_flags(config_.trust, options);
  known_servers_ = options.known_servers;
  if (!config_.fresh) options.resume_token = token_.earlier();
  secret_.load(config_.secret_file.empty()
                   ? default_secret_path(config_.host, config_.port, config_.name)
                   : config_.secret_file,
               config_.name, options);
  if (!config_.notice.empty()) say(safe_text(config_.notice, field_width::kMessage));
  if (terminal_.interactive())
    say("Connecting to " + config_.host + ":" + std::to_string(config_.port) + "...");
  connection_ = std::make_shared<Connection>(io_.get_executor(), std::move(options), *this);
  connection_->start();
  schedule_tick();
}

void ConsoleClient::quit() {
  if (quitting_) return;
  quitting_ = true;
  const bool mid_game = game_.state() && !game_.watching() && game_.in_progress();
  if (!mid_game) token_.forget();
  if (mid_game && connection_ && connection_->connected()) {
    say(mid_game_goodbye(cli::invocation_name("ttt-client"), config_.own_server, token_.kept()));
  } else if (reconnecting_.active() && game_.in_progress()) {
    say(gave_up_text(cli::invocation_name("ttt-client"), config_.own_server, mid_game));
  }
  // The note the client was started with is said again last: it stays on
  // the screen after the client is gone.
  if (!config_.notice.empty()) say(safe_text(config_.notice, field_width::kMessage));
  if (connection_) {
    connection_->close();
  } else {
    io_.stop();
  }
}

// --- the connection -------------------------------------------------------------

void ConsoleClient::on_welcome(const wire::Welcome& welcome) {
  // A request for a place that got no answer (a Redirect answered it, or the
  // link dropped first) is asked again below when the Welcome brings no game.
  std::optional<wire::ClientMessage> unanswered = places_.take_unanswered(awaiting_);
  reconnecting_.end();
  const wire::Side played = game_.side();  // in the game before this Welcome, if any
  game_.set_player(welcome.player_id());
  players_.set_own_name(welcome.name());
  watch_links_.welcomed(welcome);
  awaiting_.clear();
  records_.clear();
  pager_.clear();
  moves_.forget_in_flight();
  token_.welcomed(welcome);
  if (auto secret = secret_.welcomed(welcome, connection_->secret())) {
    connection_->set_secret(std::move(*secret));
  }
  const bool restarted = connection_->server_restarted();
  // A node that sent us here was said in one line (on_redirected): nothing
  // more about connecting is said.
  const bool redirected = connection_->redirected();
  if (welcome.game_id() != 0) {
    resume_game(welcome, restarted, redirected);
  } else {
    back_in_lobby(welcome, std::move(unanswered), played, restarted, redirected);
  }
  const std::string away = away_results_text(welcome);
  if (!away.empty()) say(away);
  welcomed_before_ = true;
  tell_stakes();
  while (!held_lines_.empty() && connection_->connected()) {
    const std::string line = std::move(held_lines_.front());
    held_lines_.pop_front();
    on_line(line);
  }
  update_prompt();
  finish_if_input_done();
}

void ConsoleClient::resume_game(const wire::Welcome& welcome, bool restarted, bool redirected) {
  // The room sends Joined next: our game again, or (after a redirect) maybe
  // a seat the node kept for us.
  const wire::GameState* game = game_.state();
  resuming_ = !redirected || (game && game->game_id() == welcome.game_id());
  if (!redirected) {
    say(std::string(restarted ? "The server restarted" : "Reconnected as " + name_of(welcome)) +
        ": back in game " + std::to_string(welcome.game_id()) + ".");
  }
  // The reply to this comes after the room's Joined: until then, typed
  // moves wait for the game like moves typed after /join.
  wire::ClientMessage barrier;
  barrier.mutable_list_games();
  barrier_request_ = send(barrier, true);
}

void ConsoleClient::back_in_lobby(const wire::Welcome& welcome,
                                  std::optional<wire::ClientMessage> unanswered, wire::Side played,
                                  bool restarted, bool redirected) {
  // A queue place, an open game still waiting, or a watched game is asked
  // for again; a game that was being played is gone.
  const wire::GameState* game = game_.state();
  const bool was_playing =
      game && !game_.watching() && !is_over(*game) && game->status() != wire::GAME_STATUS_WAITING;
  const bool had_place = queued_ || game_.watching() || (game && !was_playing && !is_over(*game));
  const std::optional<wire::ClientMessage> again =
      places_.to_ask_again(std::move(unanswered), had_place);
  if (was_playing) dropped_.dropped(*game, played);
  look_for_dropped_round(welcome, was_playing);
  if (restarted) say("The server restarted.");
  game_.clear();
  queued_ = false;
  moves_.clear();
  if (!redirected) say(connected_line(connection_->current_server(), welcome, welcomed_before_));
  if (again) {
    // Its Joined is the place said just now: no second line about it.
    if (!redirected) say(place_again_text(*again));
    places_.asked_again(*again, send(*again, true));
  }
  if (!config_.play_bot.empty() && !started_game_) {
    started_game_ = true;
    Command create;
    create.kind = CommandKind::Create;
    create.size = config_.size;
    create.win_length = config_.win_length;
    create.bot = parse_level(config_.play_bot);
    execute(create);
  }
}

void ConsoleClient::look_for_dropped_round(const wire::Welcome& welcome, bool was_playing) {
  if (was_playing) say("The server no longer holds your game: you are in the lobby.");
  if (!dropped_.pending()) return;
  if (dropped_.in_welcome(welcome)) {
    dropped_.settle();  // said with the other games decided while away
    return;
  }
  recall_request_ = send_quietly(DroppedRound::history_request());
  if (recall_request_ == 0) {
    dropped_.settle();
  } else {
    awaiting_.insert(recall_request_);  // a script's run ends after its answer
  }
}

void ConsoleClient::recalled(const wire::ServerMessage& reply) {
  recall_request_ = 0;
  if (reply.has_history()) {
    if (const std::optional<RoundEnd> end = dropped_.in_history(reply.history())) {
      say(dropped_round_text(*end));
    }
  }
  dropped_.settle();
  update_prompt();
  finish_if_input_done();
}

void ConsoleClient::on_message(const wire::ServerMessage& message) {
  if (message.in_reply_to() != 0) awaiting_.erase(message.in_reply_to());
  if (recall_request_ != 0 && message.in_reply_to() == recall_request_) {
    recalled(message);
    return;
  }
  if (panel_.take(message)) return;
  if (const auto query = records_.take(message.in_reply_to())) {
    if (!records_.show(message, *query)) on_error(message.error(), message.in_reply_to());
    update_prompt();
    finish_if_input_done();
    return;
  }
  switch (message.body_case()) {
    case wire::ServerMessage::kError:
      on_error(message.error(), message.in_reply_to());
      break;
    case wire::ServerMessage::kGameList:
      if (message.in_reply_to() != barrier_request_) lists_.on_game_list(message.game_list());
      break;
    case wire::ServerMessage::kPlayerList:
      lists_.on_player_list(message.player_list());
      break;
    case wire::ServerMessage::kSpectatorCount:
      if (game_.set_spectators(message.spectator_count())) {
        commentary_.spectators(message.spectator_count());
      }
      break;
    case wire::ServerMessage::kSecretRotated:
      // The new token first: the old ones stopped working with the old secret.
      token_.rotated(message.secret_rotated());
      if (auto secret = secret_.rotated()) connection_->set_secret(std::move(*secret));
      break;
    case wire::ServerMessage::kChatSettings:
      say(message.chat_settings().spectators()
              ? "You hear the spectators' chat too (/spectators off to stop)."
              : "You don't hear the spectators' chat (/spectators on to hear it).");
      break;
    case wire::ServerMessage::kJoined:
      on_joined(message.joined());
      break;
    case wire::ServerMessage::kState:
      on_state(message.state());
      break;
    case wire::ServerMessage::kQueued:
      queued_ = true;
      say(queued_text(message.queued()));
      break;
    case wire::ServerMessage::kLeft:
      on_left(message.left());
      break;
    case wire::ServerMessage::kChat:
      if (!players_.muted(message.chat().from())) say(chat_line(message.chat()));
      break;
    case wire::ServerMessage::kOpponent:
      commentary_.opponent(message.opponent());
      break;
    case wire::ServerMessage::kOfferEnded:
      commentary_.offer_ended(message.offer_ended());
      break;
    case wire::ServerMessage::kGoodbye:
      say("The server is going away: " +
          safe_text(message.goodbye().reason(), field_width::kMessage));
      break;
    case wire::ServerMessage::kNotice:
      say(sentence_case(notice_text(message.notice())));
      break;
    default:
      if (!players_.on_message(message)) {
        spdlog::debug("ignored a server message of kind {}", static_cast<int>(message.body_case()));
      }
  }
  moves_.play();
  tell_stakes();
  update_prompt();
  finish_if_input_done();
}

void ConsoleClient::on_reconnecting(const std::string& reason, milliseconds left) {
  if (!reconnecting_.active()) {
    const bool seat = game_.holds_seat();
    const bool restarts =
        game_.in_progress() && config_.restart_wait.count() > 0 && config_.retry.count() > 0;
    say(connection_lost_text(reason, left, seat ? connection_->server_grace() : milliseconds(0),
                             restarts, terminal_.interactive()));
    if (seat && !moves_.empty()) say("Your moves typed so far wait for the connection.");
  }
  reconnecting_.begin(left, steady_clock::now());
  moves_.forget_in_flight();
  update_prompt();
}

void ConsoleClient::on_closed(const std::string& reason, bool failed) {
  if (failed) {
    const std::string server = config_.host + ":" + std::to_string(config_.port);
    exit_.failed(reason, config_.name,
                 exit_.name_refused() ? secret_.refusal_text(config_.name, server) : "",
                 trust_question_.refusal());
  }
  io_.stop();
}

void ConsoleClient::on_unknown_server(const std::string& where, const std::string& fingerprint,
                                      std::function<void(bool)> answer) {
  trust_question_.ask(
      terminal_.interactive(), where, fingerprint, known_servers_,
      [this](const std::string& line) { say(line); }, std::move(answer));
}

void ConsoleClient::on_redirected(const std::string& where, const std::string& reason) {
  say(sentence_case(redirect_text(where, reason)));
}

void ConsoleClient::tell_stakes() {
  connection_->set_seat_at_stake(game_.holds_seat());
  connection_->set_in_game(game_.in_progress());
}

// --- input ----------------------------------------------------------------------

void ConsoleClient::on_line(const std::string& line) {
  if (quitting_) return;
  if (trust_question_.take(line, [this](const std::string& text) { say(text); })) return;
  if (give_up_.waiting()) {
    if (const auto confirmed = give_up_.answer(line)) carry_out(*confirmed);
    return;
  }
  if (pager_.waiting() && pager_.take(line)) {
    update_prompt();
    return;
  }
  if (is_command(line)) {
    const CommandParse parsed = parse_command(line);
    if (!parsed.command) {
      say(parsed.error);
      return;
    }
    const CommandKind kind = parsed.command->kind;
    if (kind != CommandKind::Quit && kind != CommandKind::Help && !connection_->connected()) {
      held_lines_.push_back(line);  // acted on once connected
      return;
    }
    execute(*parsed.command);
    return;
  }
  if (line.find_first_not_of(" \t") == std::string::npos) return;
  if (!connection_->connected()) {
    if (reconnecting_.active() && game_.holds_seat()) {
      moves_.type_while_down(line);
    } else {
      held_lines_.push_back(line);
    }
    return;
  }
  if (moves_.type(line, !awaiting_.empty() || queued_)) update_prompt();
}

void ConsoleClient::on_input_end() {
  input_ended_ = true;
  if (terminal_.interactive()) {
    quit();
    return;
  }
  finish_if_input_done();
}

// At the end of a script: stay while the game can still move on without us
// typing (our moves typed ahead, the opponent's reply) or a reply is due.
void ConsoleClient::finish_if_input_done() {
  if (!input_ended_ || quitting_) return;
  if (!welcomed_before_ || reconnecting_.active() || !held_lines_.empty() || !awaiting_.empty()) {
    return;
  }
  if (const wire::GameState* s = game_.state()) {
    if (game_.watching() && !is_over(*s)) return;
    if (in_progress(*s) && (!moves_.empty() || moves_.in_flight() || !game_.my_turn())) return;
    if (s->status() == wire::GAME_STATUS_WAITING && !moves_.empty()) return;
  } else if (queued_ && !moves_.empty()) {
    return;
  }
  quit();
}

std::uint32_t ConsoleClient::send(wire::ClientMessage message, bool awaits_reply) {
  const std::uint32_t id = connection_->send(std::move(message));
  if (id == 0) {
    say("Not connected to the server right now: try again in a moment.");
  } else if (awaits_reply) {
    awaiting_.insert(id);
  }
  return id;
}

std::uint32_t ConsoleClient::send_quietly(wire::ClientMessage message) {
  return connection_->send(std::move(message));
}

void ConsoleClient::execute(const Command& command) {
  if (lists_.execute(command) || players_.execute(command, game_.state())) return;
  switch (command.kind) {
    case CommandKind::Help:
      pager_.show(help_text(screen_width(terminal_)));  // longer than a screen: a page at a time
      update_prompt();
      return;
    case CommandKind::Quit:
      quit();
      return;
    case CommandKind::SecretRotate:
      rotate_secret();
      return;
    default:
      if (!give_up_.ask(command)) carry_out(command);
  }
}

void ConsoleClient::carry_out(const Command& command) {
  if (command.kind == CommandKind::Leave) moves_.clear();
  const std::optional<wire::ClientMessage> request = request_for(command);
  if (!request) return;
  const std::uint32_t id = send(*request, awaits_reply(command.kind));
  if (id == 0) return;
  if (is_record_query(command.kind)) records_.asked(id, command);
  places_.sent(command.kind, *request, id);
}

void ConsoleClient::rotate_secret() {
  const std::optional<std::string> next = secret_.begin_rotation();
  if (!next) return;
  connection_->offer_next_secret(*next);
  wire::ClientMessage m;
  m.mutable_rotate_secret()->set_new_secret(*next);
  send(m, true);
}

// --- server events --------------------------------------------------------------

void ConsoleClient::on_error(const wire::Error& error, std::uint32_t in_reply_to) {
  if (error.fatal()) {
    exit_.fatal(error, welcomed_before_, config_.name);
    if (exit_.name_refused()) secret_.name_taken();  // a secret made for a free name owns nothing
    return;
  }
  moves_.refused(in_reply_to);
  say(error_text(error));
}

void ConsoleClient::on_joined(const wire::Joined& joined) {
  const bool resumed = std::exchange(resuming_, false);
  game_.join(joined, steady_clock::now());
  queued_ = false;
  moves_.forget_in_flight();
  if (resumed) moves_.check_after_resume(joined.state());
  commentary_.joined(joined, resumed, places_.rejoined(joined.state().game_id()));
}

void ConsoleClient::on_state(const wire::GameState& state) {
  const auto now = steady_clock::now();
  const std::optional<wire::GameState> before = game_.update(state, now);
  if (!before) return;  // from a game we left
  absences_.track(*before, state, game_.watching(), now);
  if (state.move_count() != before->move_count() || state.round() != before->round()) {
    moves_.forget_in_flight();
  }
  commentary_.changed(*before);
}

void ConsoleClient::on_left(const wire::Left& left) {
  game_.clear();
  queued_ = false;
  places_.left();
  moves_.clear();
  give_up_.drop();
  say(left_text(left));
}

// --- the clock and the screen ------------------------------------------------------

void ConsoleClient::schedule_tick() {
  tick_timer_.expires_after(std::chrono::seconds(1));
  tick_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || quitting_) return;
    tick();
    schedule_tick();
  });
}

void ConsoleClient::tick() {
  const auto now = steady_clock::now();
  if (terminal_.interactive() && !clocks_.prompt(now).empty()) update_prompt();  // the clocks run
  if (terminal_.shows_lobby() && !game_.state() && welcomed_before_ && connection_->connected() &&
      !quitting_) {
    panel_.refresh(now);
  }
  if (reconnecting_.active()) {
    reconnecting_.tick(now);
    if (terminal_.interactive() && !pager_.waiting()) {
      terminal_.set_prompt(reconnecting_.prompt(now));
    }
    return;
  }
  clocks_.warn(now);
  moves_.tick(now);
  if (const wire::GameState* game = game_.state(); game && in_progress(*game)) {
    absences_.tick(*game, now);
  }
}

void ConsoleClient::say(const std::string& line) { terminal_.print(line + "\n"); }

void ConsoleClient::update_prompt() {
  terminal_.show_game(game_.state(), game_.viewpoint());
  if (pager_.waiting()) {
    terminal_.set_prompt(pager_.prompt());
    return;
  }
  const auto now = steady_clock::now();
  if (reconnecting_.active()) {
    terminal_.set_prompt(reconnecting_.prompt(now));
    return;
  }
  terminal_.set_prompt(clocks_.prompt(now) +
                       (game_.my_turn() ? "your move (" + side_name(game_.side()) + ")> " : "> "));
}

}  // namespace ttt::client
