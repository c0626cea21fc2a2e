#include "bot/bot_player.hpp"

#include "ttt/wire/convert.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <iostream>

#include "bot/first_use_notice.hpp"
#include "engine/ai_brain.hpp"
#include "engine/engine_brain.hpp"
#include "identity/name_refusal.hpp"
#include "identity/token_file.hpp"
#include "text/safe_text.hpp"
#include "view/move_input.hpp"
#include "view/node_text.hpp"

namespace ttt::client {
namespace {

// Server text as the bot logs it: one harmless line (no forged log lines).
std::string shown(const std::string& text) { return safe_text(text, field_width::kMessage); }

}  // namespace

BotTally& BotTally::operator+=(const BotTally& other) {
  games += other.games;
  wins += other.wins;
  losses += other.losses;
  draws += other.draws;
  errors += other.errors;
  connect_failed = connect_failed || other.connect_failed;
  return *this;
}

namespace {

std::shared_ptr<Brain> make_brain(const BotOptions& options) {
  if (options.engine.empty()) return std::make_shared<AiBrain>(options.ai);
  EngineOptions engine;
  engine.command = options.engine;
  engine.grace = options.engine_grace;
  return std::make_shared<EngineBrain>(std::move(engine));
}

}  // namespace

BotPlayer::BotPlayer(std::string label, boost::asio::any_io_executor io,
                     boost::asio::any_io_executor compute, BotOptions options,
                     std::function<void()> on_done)
    : label_(std::move(label)),
      io_(io),
      compute_(std::move(compute)),
      options_(std::move(options)),
      on_done_(std::move(on_done)),
      rematch_timer_(io),
      retry_timer_(io),
      enter_timer_(io),
      waiting_timer_(io),
      brain_(make_brain(options_)) {
  options_.connection.program = true;  // the server must know a program plays
}

void BotPlayer::start() {
  // The bot makes its name's secret itself and keeps it before saying Hello.
  secret_.emplace(options_.secret_path);
  std::string error;
  if (!secret_->load_or_make(error)) {
    spdlog::warn("{}: the secret of the name is not kept: {}", label_, error);
  }
  options_.connection.secret = secret_->current();
  options_.connection.next_secret = secret_->pending();
  connection_ = std::make_shared<Connection>(io_, options_.connection, *this);
  connection_->start();
}

void BotPlayer::stop() { finish(); }

// --- the connection ---------------------------------------------------------------

void BotPlayer::on_welcome(const wire::Welcome& welcome) {
  player_id_ = welcome.player_id();
  requests_.clear();
  failure_counted_ = false;
  on_welcome_secret(welcome);
  searching_.reset();
  moved_.reset();
  const bool restarted = connection_->server_restarted();
  // A restart is said at the default level (warn): the user sees one line
  // for it; an ordinary reconnect only at info.
  if (welcome.game_id() != 0) {
    if (restarted) {
      spdlog::warn("{}: the server restarted; back in game {}", label_, welcome.game_id());
    } else {
      spdlog::info("{}: reconnected; back in game {}", label_, welcome.game_id());
    }
    return;  // the room sends Joined with the game
  }
  // A game being played is lost; a queue place or an open game still waiting
  // is simply asked for again below, as is an entry a Redirect answered.
  if (game_ && in_progress(*game_)) error("lost its game when the connection dropped");
  if (restarted && entered_) spdlog::warn("{}: the server restarted; asking again", label_);
  const bool had_game = game_.has_value();
  game_.reset();
  if (finishing_) {
    connection_->close();
    return;
  }
  if (entered_ && options_.mode == BotMode::Join && (had_game || !connection_->redirected())) {
    spdlog::warn("{}: back as a new player, but game {} can't be joined again", label_,
                 options_.game_id);
    finish();
    return;
  }
  enter();
}

void BotPlayer::on_welcome_secret(const wire::Welcome& welcome) {
  std::string failure;
  if (!welcome.secret().empty()) {
    // An older server made the secret.
    if (!secret_->adopt(welcome.secret(), failure)) {
      spdlog::warn("{}: the secret of the name is not kept: {}", label_, failure);
    }
    connection_->set_secret(welcome.secret());
  } else if (!secret_->pending().empty() && connection_->secret() == secret_->pending()) {
    // A rotation whose answer was lost: the server took the new secret.
    if (!secret_->finish_rotation(failure)) spdlog::warn("{}: {}", label_, failure);
  }
  secret_->registered();
  if (!options_.rotate_secret || rotated_) return;
  rotated_ = true;
  const std::string next = secret_->begin_rotation(failure);
  if (next.empty()) {
    error("could not replace its secret: " + failure);
    return;
  }
  connection_->offer_next_secret(next);
  wire::ClientMessage rotate;
  rotate.mutable_rotate_secret()->set_new_secret(next);
  send(std::move(rotate), Request::Rotate);
}

void BotPlayer::on_reconnecting(const std::string& reason, std::chrono::milliseconds left) {
  spdlog::info("{}: connection lost ({}); retrying for {} ms", label_, reason, left.count());
}

void BotPlayer::on_closed(const std::string& reason, bool failed) {
  if (done_) return;
  done_ = true;
  rematch_timer_.cancel();
  retry_timer_.cancel();
  enter_timer_.cancel();
  stop_waiting();
  if (failed) {
    if (!failure_counted_) ++tally_.errors;  // one failure, one error
    if (player_id_ == 0) tally_.connect_failed = true;
    std::string why = reason;
    if (name_refused_) {
      const ConnectionOptions& c = options_.connection;
      NameRefusal refusal;
      refusal.name = c.name;
      refusal.server = c.host + ":" + std::to_string(c.port);
      refusal.secret_path = options_.secret_path;
      refusal.had_secret = !read_secret(options_.secret_path).empty();
      why = name_refusal_text(refusal);
    }
    std::cerr << "ttt-bot: " << label_ << ": " << why << "\n";
  }
  on_done_();
}

void BotPlayer::on_redirected(const std::string& where, const std::string& reason) {
  spdlog::info("{}: {}", label_, redirect_text(where, reason));
}

void BotPlayer::on_unknown_server(const std::string& where, const std::string& fingerprint,
                                  std::function<void(bool)> answer) {
  log_first_use_trust(where, fingerprint, options_.connection.known_servers);
  answer(true);
}

std::uint32_t BotPlayer::send(wire::ClientMessage message, Request kind) {
  const std::uint32_t id = connection_->send(std::move(message));
  if (id != 0) requests_[id] = kind;
  return id;
}

// --- entering games -------------------------------------------------------------

bool BotPlayer::enter_later() {
  const auto now = std::chrono::steady_clock::now();
  if (!enter_refused_since_) enter_refused_since_ = now;
  if (now - *enter_refused_since_ >= options_.connection.retry) return false;
  spdlog::info("{}: no game found now; asking again in {} ms", label_,
               options_.enter_retry.count());
  enter_timer_.expires_after(options_.enter_retry);
  enter_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || self->finishing_ || self->game_) return;
    self->enter();
  });
  return true;
}

void BotPlayer::enter() {
  entered_ = true;
  moving_on_ = false;
  const wire::Rated rated = options_.rated ? wire::RATED_YES : wire::RATED_DEFAULT;
  wire::ClientMessage m;
  switch (options_.mode) {
    case BotMode::QuickMatch:
      m.mutable_quick_match()->set_size(options_.size);
      m.mutable_quick_match()->set_win_length(options_.win_length);
      m.mutable_quick_match()->set_rated(rated);
      m.mutable_quick_match()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_quick_match()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::Join:
      m.mutable_join_game()->set_game_id(options_.game_id);
      m.mutable_join_game()->set_invite_code(options_.invite_code);
      m.mutable_join_game()->set_rated(rated);
      break;
    case BotMode::Create:
      m.mutable_create_game()->set_size(options_.size);
      m.mutable_create_game()->set_win_length(options_.win_length);
      m.mutable_create_game()->set_rated(rated);
      m.mutable_create_game()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_create_game()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::Challenge:
      m.mutable_challenge()->set_name(options_.opponent);
      m.mutable_challenge()->set_size(options_.size);
      m.mutable_challenge()->set_win_length(options_.win_length);
      m.mutable_challenge()->set_rated(rated);
      m.mutable_challenge()->mutable_clock()->set_initial_ms(options_.clock_initial_ms);
      m.mutable_challenge()->mutable_clock()->set_increment_ms(options_.clock_increment_ms);
      break;
    case BotMode::AcceptChallenges:
      start_waiting("challenges (/challenge " + options_.connection.name + ")");
      return;  // nothing to ask: the challenges come
  }
  send(std::move(m), Request::Enter);
}

void BotPlayer::find_new_opponent() {
  rematch_timer_.cancel();
  if (moving_on_ || finishing_) return;
  if (options_.mode == BotMode::Join) {
    spdlog::warn("{}: the opponent is gone and there is no other game to join", label_);
    finish();
    return;
  }
  moving_on_ = true;
  wire::ClientMessage leave;
  leave.mutable_leave();
  send(std::move(leave), Request::Leave);
}

void BotPlayer::finish() {
  if (finishing_) return;
  finishing_ = true;
  rematch_timer_.cancel();
  retry_timer_.cancel();
  enter_timer_.cancel();
  stop_waiting();
  if (connection_ && connection_->connected() && game_) {
    wire::ClientMessage leave;
    leave.mutable_leave();
    send(std::move(leave), Request::Leave);
  }
  if (connection_) connection_->close();
}

void BotPlayer::error(const std::string& what) {
  ++tally_.errors;
  spdlog::error("{}: {}", label_, what);
}

// --- server messages ------------------------------------------------------------

void BotPlayer::on_message(const wire::ServerMessage& message) {
  if (message.has_joined() || message.has_queued()) enter_refused_since_.reset();  // a node took it
  switch (message.body_case()) {
    case wire::ServerMessage::kError:
      on_error(message.error(), message.in_reply_to());
      break;
    case wire::ServerMessage::kJoined:
      if (message.joined().side() != wire::SIDE_X && message.joined().side() != wire::SIDE_O) {
        error("was seated as a spectator");
        finish();
        break;
      }
      game_ = message.joined().state();
      if (game_->status() == wire::GAME_STATUS_WAITING && options_.mode == BotMode::Create) {
        // Whoever wants to play this bot needs the game's id.
        std::cout << label_ << ": waiting for an opponent in game " << game_->game_id()
                  << std::endl;
        start_waiting("an opponent in game " + std::to_string(game_->game_id()));
      }
      on_state(message.joined().state());
      break;
    case wire::ServerMessage::kState:
      if (game_ && message.state().game_id() == game_->game_id()) on_state(message.state());
      break;
    case wire::ServerMessage::kLeft:
      game_.reset();
      if (moving_on_ && !finishing_) enter();
      break;
    case wire::ServerMessage::kQueued:
      start_waiting("an opponent in quick match (" + std::to_string(options_.size) + "x" +
                    std::to_string(options_.size) + ")");
      break;
    case wire::ServerMessage::kOpponent:
      if (message.opponent().left() && game_ && is_over(*game_)) find_new_opponent();
      break;
    case wire::ServerMessage::kGoodbye:
      spdlog::info("{}: the server is going away: {}", label_, shown(message.goodbye().reason()));
      break;
    case wire::ServerMessage::kNotice:
      spdlog::info("{}: {}", label_, notice_text(message.notice()));
      break;
    case wire::ServerMessage::kSecretRotated: {
      std::string failure;
      if (!secret_->finish_rotation(failure)) {
        error("the server took a new secret that could not be kept: " + failure);
        break;
      }
      connection_->set_secret(secret_->current());
      spdlog::info("{}: the name has a new secret, kept in {}", label_, secret_->path());
      break;
    }
    default:
      on_challenge_message(message);  // queued, chat, lists: nothing to do
      break;
  }
  // A seat in a game in progress is retried for as long as the server may
  // hold it, or a restarted server give it back.
  connection_->set_seat_at_stake(game_ && in_progress(*game_));
  connection_->set_in_game(game_ && in_progress(*game_));
  if (message.in_reply_to() != 0) requests_.erase(message.in_reply_to());
}

void BotPlayer::on_error(const wire::Error& e, std::uint32_t in_reply_to) {
  if (e.fatal()) {
    if (e.code() == wire::ERROR_CODE_NAME_TAKEN) {
      name_refused_ = true;    // counted and explained when the connection ends
      secret_->forget_made();  // a secret made for a free name owns nothing
      return;
    }
    if (e.code() == wire::ERROR_CODE_BAD_RESUME_TOKEN ||
        e.code() == wire::ERROR_CODE_SHUTTING_DOWN) {
      // The connection says Hello again (a token the server no longer
      // keeps) or retries (a server going down): not the bot's failure.
      spdlog::info("{}: {}", label_, shown(e.text()));
      return;
    }
    if (const auto words = node_error_text(e.code())) {
      // A node of a lobby drained, cut off, or without the seat it kept: the
      // connection tries again (another node first).
      spdlog::info("{}: {}", label_, *words);
      return;
    }
    error("the server closed the connection: " + shown(e.text()));
    failure_counted_ = true;
    return;
  }
  auto it = requests_.find(in_reply_to);
  const std::optional<Request> kind =
      it == requests_.end() ? std::nullopt : std::optional<Request>(it->second);
  if (kind == Request::Rotate) {
    error("could not replace its secret: " + shown(e.text()));
    return;
  }
  if (kind == Request::Rematch || kind == Request::Leave || kind == Request::Resign ||
      kind == Request::Answer) {
    // An answer to a challenge that ended meanwhile: the bot waits for the next.
    // The opponent left or went away meanwhile; OpponentStatus and timers deal with it.
    spdlog::debug("{}: {}", label_, shown(e.text()));
    if (kind == Request::Leave && moving_on_ && !finishing_) enter();
    // A challenge taken too late: back to waiting for the next.
    if (kind == Request::Answer && options_.mode == BotMode::AcceptChallenges && !game_ &&
        !finishing_) {
      enter();
    }
    return;
  }
  if (e.code() == wire::ERROR_CODE_STORAGE && kind != Request::Enter) {
    retry_move_later();  // transient: the server took the move back and asks again
    return;
  }
  if (e.code() == wire::ERROR_CODE_DATABASE_WAIT) {
    spdlog::info("{}: {}", label_, *node_error_text(e.code()));  // a notice, not a refusal
    return;
  }
  if (e.code() == wire::ERROR_CODE_RESERVATION_GONE && !game_) {
    spdlog::info("{}: {}; asking again", label_, *node_error_text(e.code()));
    enter();
    return;
  }
  if (kind == Request::Enter &&
      (e.code() == wire::ERROR_CODE_DRAINING || e.code() == wire::ERROR_CODE_CLUSTER_UNAVAILABLE) &&
      enter_later()) {
    return;
  }
  if (kind == Request::Enter) {
    error("could not get a game: " + shown(e.text()));
    finish();
    return;
  }
  error((kind == Request::Move ? "the server refused a move: " : "the server refused: ") +
        shown(e.text()));
}

void BotPlayer::on_state(const wire::GameState& state) {
  game_ = state;
  const wire::Side me = side_of(state, player_id_);
  if (me == wire::SIDE_NONE) {
    error("a game state without this bot in a seat");
    finish();
    return;
  }
  if (in_progress(state)) {
    rematch_timer_.cancel();
    stop_waiting();
    if (state.to_move() == me) think(state, wire::player_of(me));
    return;
  }
  if (is_over(state) && counted_ != round_key(state)) {
    counted_ = round_key(state);
    count_result(state, me);
    after_game();
  }
}

// --- games ----------------------------------------------------------------------

void BotPlayer::count_result(const wire::GameState& state, wire::Side me) {
  if (state.end_reason() == wire::END_REASON_ABORTED) {
    error("game " + std::to_string(state.game_id()) + " was aborted by the server");
    return;
  }
  ++tally_.games;
  const wire::Side winner = state.status() == wire::GAME_STATUS_X_WON   ? wire::SIDE_X
                            : state.status() == wire::GAME_STATUS_O_WON ? wire::SIDE_O
                                                                        : wire::SIDE_NONE;
  if (winner == wire::SIDE_NONE) {
    ++tally_.draws;
  } else if (winner == me) {
    ++tally_.wins;
  } else {
    ++tally_.losses;
  }
  if (options_.games > 0) {
    spdlog::info("{}: game {} round {} over ({} of {})", label_, state.game_id(), state.round(),
                 tally_.games, options_.games);
  } else {
    spdlog::info("{}: game {} round {} over ({} so far)", label_, state.game_id(), state.round(),
                 tally_.games);
  }
}

void BotPlayer::after_game() {
  if ((options_.games > 0 && tally_.games >= options_.games) || finishing_) {
    finish();
    return;
  }
  if (options_.mode == BotMode::QuickMatch || options_.mode == BotMode::AcceptChallenges) {
    // Back to the queue: whoever waits there plays next, and with nobody
    // else there the same two meet again. A bot that takes challenges
    // leaves the game to be free for the next (a player seated in a game
    // can't be challenged).
    find_new_opponent();
    return;
  }
  wire::ClientMessage rematch;
  rematch.mutable_rematch();
  send(std::move(rematch), Request::Rematch);
  rematch_timer_.expires_after(options_.rematch_wait);
  rematch_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self) return;
    spdlog::info("{}: no rematch; looking for another opponent", self->label_);
    self->find_new_opponent();
  });
}

// --- waiting -------------------------------------------------------------------

void BotPlayer::start_waiting(std::string what) {
  waiting_for_ = std::move(what);
  if (waiting_since_) return;  // the count goes on
  waiting_since_ = std::chrono::steady_clock::now();
  if (options_.mode == BotMode::AcceptChallenges) {
    std::cout << label_ << ": waiting for " << waiting_for_ << std::endl;
  }
  schedule_waiting_notice();
}

void BotPlayer::stop_waiting() {
  waiting_since_.reset();
  waiting_timer_.cancel();
}

void BotPlayer::schedule_waiting_notice() {
  if (options_.waiting_notice.count() <= 0) return;
  waiting_timer_.expires_after(options_.waiting_notice);
  waiting_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (ec || !self || !self->waiting_since_ || self->finishing_) return;
    const auto waited = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::steady_clock::now() - *self->waiting_since_);
    std::cout << self->label_ << ": still waiting for " << self->waiting_for_ << " ("
              << waited.count() << " s so far)" << std::endl;
    self->schedule_waiting_notice();
  });
}

}  // namespace ttt::client
