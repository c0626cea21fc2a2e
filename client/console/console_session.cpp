// ConsoleClient: the session around the game. A lost link and its
// countdown, moves typed while it is down, a move the server has not
// answered yet, players away and back with their seat's countdown, offers
// that ended, confirmations before giving a game up, and the player's
// identity (the resume-token file, a refused name).
#include <spdlog/spdlog.h>

#include "console/console_client.hpp"
#include "console/game_text.hpp"
#include "console/session_text.hpp"
#include "identity/name_refusal.hpp"
#include "text/safe_text.hpp"
#include "view/move_input.hpp"
#include "view/node_text.hpp"

namespace ttt::client {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

// A move without an answer this long is said to be waiting.
constexpr milliseconds kMoveAnswerWait{2'000};
// Countdowns are said every this many seconds in their last minute (and at
// 5 s), once a minute before.
constexpr long kCountdownStep = 10;
// Our time to move this low: a line and a bell, once a turn.
constexpr milliseconds kTimeWarning{10'000};

milliseconds until(steady_clock::time_point end, steady_clock::time_point now) {
  return end > now ? duration_cast<milliseconds>(end - now) : milliseconds(0);
}

// Which countdown mark `left` has reached: one per 10 s in the last
// minute, one at 5 s, one per minute before.
long countdown_mark(milliseconds left) {
  const long seconds = static_cast<long>((left.count() + 999) / 1000);
  if (seconds <= 5) return 0;
  constexpr long kMinute = 60;
  if (seconds > kMinute)
    return kMinute / kCountdownStep + (seconds - kMinute + kMinute - 1) / kMinute;
  return (seconds + kCountdownStep - 1) / kCountdownStep;
}

std::size_t index_of(wire::Side side) { return side == wire::SIDE_O ? 1 : 0; }

}  // namespace

void ConsoleClient::on_left(const wire::Left& left) {
  game_.reset();
  spectating_ = false;
  queued_ = false;
  place_request_.reset();
  pending_moves_.clear();
  confirming_.reset();
  say(left_text(left));
}

// --- the link ---------------------------------------------------------------------

void ConsoleClient::on_reconnecting(const std::string& reason, milliseconds left) {
  const auto now = steady_clock::now();
  if (!reconnecting_) {
    const bool seat = holds_seat();
    const bool restarts = game_ && in_progress(*game_) && config_.restart_wait.count() > 0 &&
                          config_.retry.count() > 0;
    say(connection_lost_text(reason, left, seat ? connection_->server_grace() : milliseconds(0),
                             restarts, terminal_.interactive()));
    if (seat && !pending_moves_.empty()) {
      say("Your moves typed so far wait for the connection.");
    }
    reconnect_announced_ = countdown_mark(left);
  }
  reconnect_deadline_ = now + left;
  reconnecting_ = true;
  move_request_ = 0;
  update_prompt();
}

void ConsoleClient::on_closed(const std::string& reason, bool failed) {
  if (failed) {
    const bool untrusted = !trust_prompt_.refusal().empty();
    exit_code_ = name_refused_ || session_active_ ? kExitNameRefused
                 : untrusted                      ? kExitUntrusted
                                                  : kExitLost;
    if (!session_active_ && !name_refused_ && !untrusted && reason == fatal_said_) {
      terminal_.restore();  // the reason was the last line said: once is enough
      io_.stop();
      return;
    }
    terminal_.print_error("ttt-client: " +
                          (session_active_
                               ? config_.name +
                                     " is connected from another terminal; `--take-over` moves the "
                                     "session here"
                           : name_refused_ ? name_refused_text()
                           : untrusted     ? trust_prompt_.refusal()
                                           : reason));
  }
  io_.stop();
}

void ConsoleClient::on_unknown_server(const std::string& where, const std::string& fingerprint,
                                      std::function<void(bool)> answer) {
  trust_prompt_.ask(
      terminal_.interactive(), where, fingerprint, known_servers_,
      [this](const std::string& line) { say(line); }, std::move(answer));
}

void ConsoleClient::on_redirected(const std::string& where, const std::string& reason) {
  std::string line = redirect_text(where, reason);
  line[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
  say(line);
}

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
  if (terminal_.interactive() && !clocks_prompt().empty()) update_prompt();  // the clocks run
  if (terminal_.shows_lobby()) refresh_lobby_panel();
  if (reconnecting_) {
    const milliseconds left = until(reconnect_deadline_, now);
    const long mark = countdown_mark(left);
    if (mark < reconnect_announced_ && left.count() > 0) {
      reconnect_announced_ = mark;
      say(reconnect_countdown_text(left));
    }
    if (terminal_.interactive() && !pager_.waiting()) {
      terminal_.set_prompt(reconnecting_prompt(left, true));
    }
    return;
  }
  warn_of_time();
  if (move_request_ != 0 && !move_wait_said_ && now - move_sent_at_ >= kMoveAnswerWait) {
    move_wait_said_ = true;
    say("(Your move is sent; no answer from the server yet: the connection may be slow or "
        "down.)");
  }
  if (!game_ || !in_progress(*game_)) return;
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& p = side == wire::SIDE_X ? game_->x() : game_->o();
    if (p.player_id() == 0 || p.connected()) continue;
    const milliseconds left = until(away_until_[index_of(side)], now);
    const long mark = countdown_mark(left);
    if (mark < away_announced_[index_of(side)] && left.count() > 0) {
      away_announced_[index_of(side)] = mark;
      say(away_countdown_text(*game_, side, left));
    }
  }
}

void ConsoleClient::warn_of_time() {
  const auto left = my_time_left();
  if (!left || *left > kTimeWarning) return;
  const std::pair<std::uint32_t, std::uint32_t> turn{game_->round(), game_->move_count()};
  if (time_warned_ == turn) return;
  time_warned_ = turn;
  terminal_.bell();
  say(time_warning_text(*left, has_chess_clock(*game_)));
}

bool ConsoleClient::holds_seat() const noexcept {
  return game_ && !spectating_ && seated() && in_progress(*game_);
}

// --- moves while the link is down -------------------------------------------------

void ConsoleClient::type_move_offline(const std::string& text) {
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
  if (!offline_position_) offline_position_.emplace(game_->round(), game_->move_count());
  pending_moves_.push_back(text);
  say("(" + cell_name(*parsed.move) +
      " is pending: it is sent when the connection is back, if the position is unchanged)");
}

void ConsoleClient::check_offline_moves(const wire::GameState& state) {
  const auto typed_at = std::exchange(offline_position_, std::nullopt);
  if (!typed_at || pending_moves_.empty()) return;
  if (typed_at->first == state.round() && typed_at->second == state.move_count()) {
    say("Sending the moves typed while disconnected.");
    return;
  }
  std::string cells;
  for (const std::string& text : pending_moves_) cells += (cells.empty() ? "" : ", ") + text;
  pending_moves_.clear();
  say("Not sent: " + cells +
      " (the position changed while you were disconnected; look at the board and move again).");
}

// --- who is here ------------------------------------------------------------------

void ConsoleClient::track_presence(const wire::GameState& before, const wire::GameState& after) {
  const auto now = steady_clock::now();
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const wire::PlayerInfo& was = side == wire::SIDE_X ? before.x() : before.o();
    const wire::PlayerInfo& is = side == wire::SIDE_X ? after.x() : after.o();
    if (is.player_id() == 0 || is.player_id() != was.player_id()) continue;
    const std::size_t i = index_of(side);
    if (!is.connected()) {
      away_until_[i] = now + milliseconds(is.away_ms_left());
      if (was.connected()) away_announced_[i] = countdown_mark(milliseconds(is.away_ms_left()));
    }
    // Players hear of their opponent through OpponentStatus.
    if (!spectating_ || was.connected() == is.connected() || !in_progress(after)) continue;
    say(is.connected() ? player_back_text(after, side) : player_away_text(after, side));
  }
}

void ConsoleClient::on_offer_ended(const wire::OfferEnded& ended) {
  if (!game_ || ended.game_id() != game_->game_id()) return;
  say(offer_ended_text(ended, *game_, spectating_ ? wire::SIDE_SPECTATOR : my_side()));
}

// --- confirmations ----------------------------------------------------------------

bool ConsoleClient::confirm_first(const Command& command) {
  if (std::exchange(confirming_, std::nullopt)) return false;  // confirmed: go ahead
  const bool gives_up = command.kind == CommandKind::Resign || command.kind == CommandKind::Leave;
  if (!gives_up || !terminal_.interactive() || !holds_seat()) return false;
  const wire::PlayerInfo& other = my_side() == wire::SIDE_X ? game_->o() : game_->x();
  const std::string game =
      "game " + std::to_string(game_->game_id()) + " against " + seat_name(other);
  say(command.kind == CommandKind::Resign
          ? "Resign " + game + "? Type y to confirm, anything else to play on."
          : "Leave " + game + "? That resigns it. Type y to confirm, anything else to play on.");
  confirming_ = command;
  return true;
}

bool ConsoleClient::answer_confirmation(const std::string& line) {
  Command command = *confirming_;
  std::string answer;
  for (char c : line) {
    if (c != ' ' && c != '\t')
      answer += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (answer != "y" && answer != "yes") {
    confirming_.reset();
    say("Playing on.");
    return true;
  }
  // confirming_ stays set for this one call: confirm_first lets it through.
  execute(command);
  confirming_.reset();
  return true;
}

// --- identity ---------------------------------------------------------------------

void ConsoleClient::open_token_file() {
  if (config_.no_token_file) return;
  std::string path = config_.token_file;
  if (path.empty()) path = default_token_path(config_.host, config_.port, config_.name);
  if (path.empty()) return;
  std::string error;
  token_file_ = TokenFile::open(path, error);
  if (!token_file_) spdlog::warn("resume token not kept between runs: {}", error);
}

std::string ConsoleClient::name_refused_text() const {
  NameRefusal refusal;
  refusal.name = config_.name;
  refusal.server = config_.host + ":" + std::to_string(config_.port);
  refusal.secret_path = secret_path_;
  refusal.had_secret = !secret_path_.empty() && !read_secret(secret_path_).empty();
  refusal.secret_flag = "--secret-file";
  return name_refusal_text(refusal);
}

}  // namespace ttt::client
