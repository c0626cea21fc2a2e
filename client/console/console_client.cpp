#include "console/console_client.hpp"

#include <spdlog/spdlog.h>
#include <utility>

#include "console/command_request.hpp"
#include "console/game_text.hpp"
#include "console/record_text.hpp"
#include "console/session_text.hpp"
#include "identity/name_refusal.hpp"
#include "text/safe_text.hpp"
#include "ttt/cli/invocation.hpp"
#include "version.hpp"
#include "view/move_input.hpp"
#include "view/node_text.hpp"

namespace ttt::client {
namespace {

// The name the server holds for us, as shown.
std::string name_of(const wire::Welcome& welcome) {
  return safe_text(welcome.name(), field_width::kName);
}

// Words of ours or the server's as a line of the console: a capital first.
std::string sentence_case(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

}  // namespace

ConsoleClient::ConsoleClient(boost::asio::io_context& io, ClientConfig config, Terminal& terminal)
    : io_(io), config_(std::move(config)), terminal_(terminal), pager_(terminal), tick_timer_(io) {}

// --- starting and stopping --------------------------------------------------------

void ConsoleClient::start() {
  std::string warning;
  ClaimedName claimed = claim_name(config_.host, config_.port, config_.name, login_name(), warning);
  if (!warning.empty()) spdlog::warn("your default name is not kept for later runs: {}", warning);
  config_.name = std::move(claimed.name);
  name_claim_ = std::move(claimed.claim);
  open_token_file();
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
  if (token_file_ && !config_.fresh) options.resume_token = token_file_->read();
  secret_path_ = config_.secret_file.empty()
                     ? default_secret_path(config_.host, config_.port, config_.name)
                     : config_.secret_file;
  load_secret(options);
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
  const bool mid_game = game_ && !spectating_ && in_progress(*game_);
  if (token_file_ && !mid_game) token_file_->clear();
  if (mid_game && connection_ && connection_->connected()) {
    say(mid_game_goodbye(cli::invocation_name("ttt-client"), config_.own_server,
                         token_file_ != nullptr));
  } else if (reconnecting_ && game_ && in_progress(*game_)) {
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
  std::optional<wire::ClientMessage> unanswered;
  if (entry_request_ && awaiting_.count(entry_request_->first) > 0) {
    unanswered = entry_request_->second;
  }
  entry_request_.reset();
  reconnecting_ = false;
  player_id_ = welcome.player_id();
  server_name_ = welcome.name();
  web_client_ = welcome.web_client();
  web_url_ = safe_text(welcome.web_url(), 200);
  awaiting_.clear();
  record_queries_.clear();
  pager_.clear();
  move_request_ = 0;
  if (token_file_) token_file_->write(welcome.resume_token());
  on_welcome_secret(welcome);
  const bool restarted = connection_->server_restarted();
  // A node that sent us here was said in one line (on_redirected): nothing
  // more about connecting is said.
  const bool redirected = connection_->redirected();
  if (welcome.game_id() != 0) {
    // The room sends Joined next: our game again, or (after a redirect) maybe
    // a seat the node kept for us.
    resuming_ = !redirected || (game_ && game_->game_id() == welcome.game_id());
    if (!redirected) {
      say(std::string(restarted ? "The server restarted" : "Reconnected as " + name_of(welcome)) +
          ": back in game " + std::to_string(welcome.game_id()) + ".");
    }
    // The reply to this comes after the room's Joined: until then, typed
    // moves wait for the game like moves typed after /join.
    wire::ClientMessage barrier;
    barrier.mutable_list_games();
    barrier_request_ = send(barrier, true);
  } else {
    // A queue place, an open game still waiting, or a watched game is asked
    // for again; a game that was being played is gone.
    const bool was_playing =
        game_ && !spectating_ && !is_over(*game_) && game_->status() != wire::GAME_STATUS_WAITING;
    const bool had_place = queued_ || spectating_ || (game_ && !was_playing && !is_over(*game_));
    std::optional<wire::ClientMessage> again = unanswered;
    if (!again && had_place && place_request_) again = place_request_;
    if (was_playing) say("The server no longer holds your game: you are in the lobby.");
    if (restarted) say("The server restarted.");
    game_.reset();
    spectating_ = false;
    queued_ = false;
    pending_moves_.clear();
    if (!redirected) say(connected_line(connection_->current_server(), welcome, welcomed_before_));
    if (again) {
      if (!redirected) say(place_again_text(*again));
      // Its Joined is the place said just now: no second line about it.
      rejoining_game_ = again->has_spectate()    ? again->spectate().game_id()
                        : again->has_join_game() ? again->join_game().game_id()
                                                 : 0;
      if (const std::uint32_t id = send(*again, true); id != 0) entry_request_.emplace(id, *again);
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
  const std::string away = away_results_text(welcome);
  if (!away.empty()) say(away);
  welcomed_before_ = true;
  connection_->set_seat_at_stake(holds_seat());
  connection_->set_in_game(game_ && in_progress(*game_));
  while (!held_lines_.empty() && connection_->connected()) {
    const std::string line = std::move(held_lines_.front());
    held_lines_.pop_front();
    on_line(line);
  }
  update_prompt();
  finish_if_input_done();
}

void ConsoleClient::on_message(const wire::ServerMessage& message) {
  if (message.in_reply_to() != 0) awaiting_.erase(message.in_reply_to());
  if (on_lobby_panel(message)) return;
  if (auto query = record_queries_.find(message.in_reply_to()); query != record_queries_.end()) {
    const Command command = std::move(query->second);
    record_queries_.erase(query);
    on_record(message, command);
    update_prompt();
    finish_if_input_done();
    return;
  }
  switch (message.body_case()) {
    case wire::ServerMessage::kError:
      on_error(message.error(), message.in_reply_to());
      break;
    case wire::ServerMessage::kGameList:
      if (message.in_reply_to() != barrier_request_) on_game_list(message.game_list());
      break;
    case wire::ServerMessage::kSpectatorCount:
      on_spectator_count(message.spectator_count());
      break;
    case wire::ServerMessage::kSecretRotated:
      on_secret_rotated();
      break;
    case wire::ServerMessage::kChatSettings:
      on_chat_settings(message.chat_settings());
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
      if (!mutes_.muted(message.chat().from())) say(chat_line(message.chat()));
      break;
    case wire::ServerMessage::kOpponent:
      say(game_ && seated() ? opponent_named_text(message.opponent(), *game_, other_side(my_side()))
                            : opponent_text(message.opponent()));
      break;
    case wire::ServerMessage::kOfferEnded:
      on_offer_ended(message.offer_ended());
      break;
    case wire::ServerMessage::kGoodbye:
      say("The server is going away: " +
          safe_text(message.goodbye().reason(), field_width::kMessage));
      break;
    case wire::ServerMessage::kNotice:
      say(sentence_case(notice_text(message.notice())));
      break;
    default:
      if (!on_players_message(message)) {
        spdlog::debug("ignored a server message of kind {}", static_cast<int>(message.body_case()));
      }
  }
  play_pending();
  connection_->set_seat_at_stake(holds_seat());
  connection_->set_in_game(game_ && in_progress(*game_));
  update_prompt();
  finish_if_input_done();
}

// --- input ----------------------------------------------------------------------

void ConsoleClient::on_line(const std::string& line) {
  if (quitting_) return;
  if (trust_prompt_.take(line, [this](const std::string& text) { say(text); })) return;
  if (confirming_ && answer_confirmation(line)) return;
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
    if (reconnecting_ && holds_seat()) {
      type_move_offline(line);
    } else {
      held_lines_.push_back(line);
    }
    return;
  }
  type_move(line);
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
// typing (our queued moves, the opponent's reply) or a reply is due.
void ConsoleClient::finish_if_input_done() {
  if (!input_ended_ || quitting_) return;
  if (!welcomed_before_ || reconnecting_ || !held_lines_.empty() || !awaiting_.empty()) return;
  if (game_) {
    const wire::GameState& s = *game_;
    if (spectating_ && !is_over(s)) return;
    if (in_progress(s) && (!pending_moves_.empty() || move_request_ != 0 || !my_turn())) return;
    if (s.status() == wire::GAME_STATUS_WAITING && !pending_moves_.empty()) return;
  } else if (queued_ && !pending_moves_.empty()) {
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

void ConsoleClient::execute(const Command& command) {
  if (execute_extra(command) || execute_players(command)) return;
  if (command.kind == CommandKind::Help) {
    pager_.show(help_text(screen_width()));  // longer than a screen: a page at a time
    update_prompt();
    return;
  }
  if (command.kind == CommandKind::Quit) {
    quit();
    return;
  }
  if (confirm_first(command)) return;
  if (command.kind == CommandKind::Leave) pending_moves_.clear();
  const std::optional<wire::ClientMessage> request = request_for(command);
  if (!request) return;
  const std::uint32_t id = send(*request, awaits_reply(command.kind));
  if (id == 0) return;
  if (is_record_query(command.kind)) record_queries_[id] = command;
  if (asks_for_a_place(command.kind)) place_request_ = *request;  // asked again after a restart
  if (asks_for_a_place(command.kind) || command.kind == CommandKind::Join) {
    entry_request_.emplace(id, *request);  // asked again if a Redirect answers it
  }
}

void ConsoleClient::type_move(const std::string& text) {
  if (!game_) {
    if (!awaiting_.empty() || queued_) {
      pending_moves_.push_back(text);  // a game is on its way
      return;
    }
    say("You are not in a game: /create 3, /quick 3 or /join ID first (/help for more)");
    return;
  }
  if (spectating_) {
    say("You are watching this game: spectators can't move");
    return;
  }
  if (is_over(*game_)) {
    say("The game is over: /rematch to play again, /leave for the lobby");
    return;
  }
  const MoveParse parsed = parse_move(text, game_->size());
  if (!parsed.move) {
    say(parsed.error);
    return;
  }
  if (auto board = board_of(*game_);
      board && board->at(parsed.move->row, parsed.move->col) != Cell::Empty) {
    say(std::string(kCellTaken));
    return;
  }
  pending_moves_.push_back(text);
  if (terminal_.interactive() && (!my_turn() || move_request_ != 0 || pending_moves_.size() > 1)) {
    say("(" + cell_name(*parsed.move) + " will be played on your turn)");
  }
  play_pending();
  update_prompt();
}

// Plays the first queued move that is legal now; the others wait their turn.
void ConsoleClient::play_pending() {
  while (game_ && !spectating_ && in_progress(*game_) && my_turn() && move_request_ == 0 &&
         !pending_moves_.empty()) {
    const std::string text = std::move(pending_moves_.front());
    pending_moves_.pop_front();
    const MoveParse parsed = parse_move(text, game_->size());
    if (!parsed.move) {
      say(parsed.error);
      continue;
    }
    const auto board = board_of(*game_);
    if (!board) return;
    if (auto refusal = move_refusal(*board, *parsed.move, true)) {
      say(*refusal + " (" + cell_name(*parsed.move) + "): choose another cell");
      continue;
    }
    wire::ClientMessage m;
    m.mutable_make_move()->set_game_id(game_->game_id());
    m.mutable_make_move()->set_row(parsed.move->row);
    m.mutable_make_move()->set_col(parsed.move->col);
    move_request_ = send(m, false);
    if (move_request_ == 0) pending_moves_.push_front(text);
    move_sent_at_ = std::chrono::steady_clock::now();
    move_wait_said_ = false;
    return;
  }
}

// --- server events --------------------------------------------------------------

void ConsoleClient::on_error(const wire::Error& error, std::uint32_t in_reply_to) {
  if (error.fatal()) {
    if (error.code() == wire::ERROR_CODE_NAME_TAKEN) {
      name_refused_ = true;  // said when the connection ends, with what to do about it
      if (secret_) secret_->forget_made();  // a secret made for a free name owns nothing
    } else if (error.code() == wire::ERROR_CODE_SESSION_ACTIVE) {
      session_active_ = true;  // said when the connection ends
    } else if (error.code() == wire::ERROR_CODE_REPLACED) {
      say("This session was taken over by another terminal (" + cli::invocation_name("ttt-client") +
          " --take-over there); this one stops.");
    } else if (error.code() == wire::ERROR_CODE_BAD_RESUME_TOKEN) {
      say("The server no longer holds this session: signing in again as " + config_.name + ".");
    } else if (const auto words = node_error_text(error.code())) {
      say(sentence_case(*words) + ".");  // the connection tries again (another node first)
    } else if (welcomed_before_) {
      // Said here; the error the client may end with does not say it again.
      // (Before any Welcome, that error says it: "cannot connect to ...".)
      fatal_said_ =
          "the server closed the connection: " + safe_text(error.text(), field_width::kMessage);
      say(sentence_case(fatal_said_));
    }
    return;
  }
  if (in_reply_to != 0 && in_reply_to == move_request_) move_request_ = 0;
  say(error_text(error));
}

void ConsoleClient::on_joined(const wire::Joined& joined) {
  const bool resumed = std::exchange(resuming_, false);
  game_ = joined.state();
  state_received_at_ = std::chrono::steady_clock::now();
  spectating_ = joined.side() == wire::SIDE_SPECTATOR;
  queued_ = false;
  move_request_ = 0;
  if (resumed) check_offline_moves(joined.state());
  const std::string id = std::to_string(joined.state().game_id());
  const bool said = std::exchange(rejoining_game_, 0) == joined.state().game_id();
  if (spectating_) {
    if (!said) {  // else "Watching game N again." said it
      say("Watching game " + id + ".");
      if (!watch_link(joined.state().game_id()).empty()) {
        say("In a browser: " + watch_link(joined.state().game_id()));
      }
    }
  } else {
    say(std::string(resumed ? "Back in game " : "You play ") +
        (resumed ? id + " as " + side_name(my_side()) : side_name(my_side()) + " in game " + id) +
        ".");
  }
  if (!joined.invite_code().empty()) {
    say("Private game: others join with /join " + id + " " +
        safe_text(joined.invite_code(), field_width::kShort));
  }
  show_state(joined.state());
}

void ConsoleClient::on_state(const wire::GameState& state) {
  if (!game_ || state.game_id() != game_->game_id()) return;  // from a game we left
  const wire::GameState before = std::move(*game_);
  game_ = state;
  state_received_at_ = std::chrono::steady_clock::now();
  track_presence(before, state);
  if (state.move_count() != before.move_count() || state.round() != before.round()) {
    move_request_ = 0;
  }
  if (state.round() != before.round() && !spectating_) {
    say("Rematch: round " + std::to_string(state.round()) + ", you play " + side_name(my_side()) +
        ".");
  }
  if (before.status() == wire::GAME_STATUS_WAITING && in_progress(state) &&
      state.round() == before.round() && seated()) {
    say(joined_game_text(state, my_side()));  // someone took the free seat
  }
  if (board_changed(before, state)) {
    // Say the other side's move in words too: easier to follow than a redrawn board.
    // A screen that draws the game says our own moves too (placed with the
    // cursor or the mouse, they are typed nowhere).
    show_state(state, move_headline(before, state, spectating_ ? wire::SIDE_SPECTATOR : my_side(),
                                    terminal_.draws_game()));
  } else {
    // Only what is new: the turn line after the board still stands.
    const std::string news =
        offers_news(before, state, spectating_ ? wire::SIDE_SPECTATOR : my_side());
    if (!news.empty()) say(news);
    if (players_changed(before, state)) say(players_line(state));
  }
}

// The board with who plays whom, the result once, and whose turn it is.
void ConsoleClient::show_state(const wire::GameState& state, const std::string& headline) {
  const bool with_result = is_over(state) && board_of(state) && announced_end_ != round_key(state);
  if (with_result) announced_end_ = round_key(state);
  terminal_.print(state_text(state, spectating_ ? wire::SIDE_SPECTATOR : my_side(), headline,
                             board_style(state.size()), with_result, !terminal_.draws_game()));
  if (with_result && !watch_link(state.game_id()).empty()) {
    say("Watch or replay it in a browser: " + watch_link(state.game_id()));
  }
}

std::string ConsoleClient::watch_link(std::uint64_t game_id) const {
  if (!web_client_) return "";
  if (!web_url_.empty()) return web_url_ + "/game/" + std::to_string(game_id);
  const bool ipv6 = config_.host.find(':') != std::string::npos;
  return std::string(config_.trust.no_tls ? "http://" : "https://") + (ipv6 ? "[" : "") +
         config_.host + (ipv6 ? "]" : "") + ":" + std::to_string(config_.port) + "/game/" +
         std::to_string(game_id);
}

// --- helpers --------------------------------------------------------------------

wire::Side ConsoleClient::my_side() const noexcept {
  return game_ ? side_of(*game_, player_id_) : wire::SIDE_NONE;
}

bool ConsoleClient::seated() const noexcept { return !spectating_ && my_side() != wire::SIDE_NONE; }

bool ConsoleClient::my_turn() const noexcept {
  return game_ && seated() && in_progress(*game_) && game_->to_move() == my_side();
}

void ConsoleClient::say(const std::string& line) { terminal_.print(line + "\n"); }

RenderStyle ConsoleClient::board_style(int size) const {
  RenderStyle style{terminal_.color()};
  // A board with its borders taller than the screen is drawn without them.
  constexpr std::size_t kLinesAround = 5;  // the players line, headline, result, turn line
  style.compact =
      terminal_.interactive() &&
      2 * static_cast<std::size_t>(std::max(size, 0)) + 2 + kLinesAround > terminal_.size().rows;
  return style;
}

std::size_t ConsoleClient::screen_width() const {
  return terminal_.interactive() ? terminal_.size().columns : 0;
}

void ConsoleClient::update_prompt() {
  terminal_.show_game(game_ ? &*game_ : nullptr, spectating_ ? wire::SIDE_SPECTATOR : my_side());
  if (pager_.waiting()) {
    terminal_.set_prompt(pager_.prompt());
    return;
  }
  if (reconnecting_) {
    const auto left = reconnect_deadline_ - std::chrono::steady_clock::now();
    terminal_.set_prompt(
        reconnecting_prompt(std::chrono::duration_cast<std::chrono::milliseconds>(left), true));
    return;
  }
  terminal_.set_prompt(clocks_prompt() +
                       (my_turn() ? "your move (" + side_name(my_side()) + ")> " : "> "));
}

}  // namespace ttt::client
