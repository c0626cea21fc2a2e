#include "bot/bot_player.hpp"

#include <spdlog/spdlog.h>

#include <iostream>

#include "bot/first_use_notice.hpp"
#include "engine/ai_brain.hpp"
#include "engine/engine_brain.hpp"
#include "text/safe_text.hpp"
#include "view/node_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

// Server text as the bot logs it: one harmless line (no forged log lines).
std::string shown(const std::string& text) { return safe_text(text, field_width::kMessage); }

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
      options_(std::move(options)),
      on_done_(std::move(on_done)),
      secret_(label_, options_.secret_path, options_.rotate_secret),
      entry_(io, label_, options_),
      moves_(*this, io, std::move(compute), make_brain(options_), label_, options_),
      series_(io, label_, options_.games, options_.mode),
      challenges_(label_, options_, std::cerr),
      waiting_(io, label_, options_.waiting_notice, std::cout) {
  options_.connection.program = true;  // the server must know a program plays
}

void BotPlayer::start() {
  secret_.load(options_.connection);
  connection_ = std::make_shared<Connection>(io_, options_.connection, *this);
  connection_->start();
}

void BotPlayer::stop() { finish(); }

// --- the connection ---------------------------------------------------------------

void BotPlayer::on_welcome(const wire::Welcome& welcome) {
  const wire::Side played = side();  // in the game before this Welcome, if any
  player_id_ = welcome.player_id();
  requests_.clear();
  failure_counted_ = false;
  settle_secret(welcome);
  moves_.reset();
  const bool restarted = connection_->server_restarted();
  // A restart is said at the default level (warn): the user sees one line
  // for it; an ordinary reconnect only at info.
  if (welcome.game_id() != 0) {
    dropped_.settle();  // the game goes on: its states follow
    if (restarted) {
      spdlog::warn("{}: the server restarted; back in game {}", label_, welcome.game_id());
    } else {
      spdlog::info("{}: reconnected; back in game {}", label_, welcome.game_id());
    }
    return;  // the room sends Joined with the game
  }
  if (restarted && entry_.asked()) spdlog::warn("{}: the server restarted; asking again", label_);
  const bool had_game = game_.has_value();
  // A game being played may have ended while the link was down: its result
  // is in this Welcome, or in the records; only then is a new game asked
  // for. A queue place or an open game still waiting is simply asked for
  // again, as is an entry a Redirect answered.
  if (game_ && in_progress(*game_)) dropped_.dropped(*game_, played);
  game_.reset();
  if (dropped_.pending()) {
    if (const std::optional<RoundEnd> end = dropped_.in_welcome(welcome)) {
      count_dropped(*end);
    } else {
      // A bot on its way out does not wait for the answer.
      if (!finishing_ && send(DroppedRound::history_request(), Request::Recall) != 0) {
        return;  // recalled() goes on
      }
      recalled(nullptr);
      return;
    }
  }
  back_in_lobby(had_game);
}

void BotPlayer::back_in_lobby(bool had_game) {
  if (finishing_) {
    connection_->close();
    return;
  }
  if (series_.next(false) == GameSeries::Next::Finish) {
    finish();  // the dropped round was the last
    return;
  }
  if (entry_.asked() && options_.mode == BotMode::Join &&
      (had_game || !connection_->redirected())) {
    spdlog::warn("{}: back as a new player, but game {} can't be joined again", label_,
                 options_.game_id);
    finish();
    return;
  }
  enter();
}

void BotPlayer::recalled(const wire::History* history) {
  if (!dropped_.pending()) return;
  std::optional<RoundEnd> end;
  if (history != nullptr) end = dropped_.in_history(*history);
  if (end) {
    count_dropped(*end);
  } else {
    dropped_.settle();
    error("lost its game when the connection dropped");
  }
  back_in_lobby(true);
}

void BotPlayer::count_dropped(const RoundEnd& end) {
  dropped_.settle();
  spdlog::info("{}: game {} round {} ended while the connection was down", label_,
               end.round.game_id, end.round.round);
  series_.round_over(end.round, end.status, end.reason, end.side);
}

void BotPlayer::settle_secret(const wire::Welcome& welcome) {
  if (auto secret = secret_.welcomed(welcome, connection_->secret())) {
    connection_->set_secret(std::move(*secret));
  }
  std::string failure;
  const std::optional<std::string> next = secret_.rotation(failure);
  if (!failure.empty()) error(failure);
  if (!next) return;
  connection_->offer_next_secret(*next);
  wire::ClientMessage rotate;
  rotate.mutable_rotate_secret()->set_new_secret(*next);
  send(std::move(rotate), Request::Rotate);
}

void BotPlayer::on_reconnecting(const std::string& reason, std::chrono::milliseconds left) {
  spdlog::info("{}: connection lost ({}); retrying for {} ms", label_, reason, left.count());
}

void BotPlayer::on_closed(const std::string& reason, bool failed) {
  if (done_) return;
  done_ = true;
  series_.rematch_settled();
  moves_.stop();
  entry_.stop();
  waiting_.stop();
  if (failed) {
    if (!failure_counted_) series_.count_error();  // one failure, one error
    if (player_id_ == 0) series_.connect_failed();
    const ConnectionOptions& c = options_.connection;
    std::cerr << "ttt-bot: " << label_ << ": "
              << (name_refused_
                      ? secret_.refusal_text(c.name, c.host + ":" + std::to_string(c.port))
                      : reason)
              << "\n";
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

void BotPlayer::enter() {
  moving_on_ = false;
  if (std::optional<wire::ClientMessage> request = entry_.request()) {
    send(std::move(*request), Request::Enter);
    return;
  }
  waiting_.start("challenges (/challenge " + options_.connection.name + ")",
                 options_.mode == BotMode::AcceptChallenges);
}

void BotPlayer::find_new_opponent() {
  series_.rematch_settled();
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
  series_.rematch_settled();
  moves_.stop();
  entry_.stop();
  waiting_.stop();
  if (connection_ && connection_->connected() && game_) {
    wire::ClientMessage leave;
    leave.mutable_leave();
    send(std::move(leave), Request::Leave);
  }
  if (connection_) connection_->close();
}

// --- server messages ------------------------------------------------------------

void BotPlayer::on_message(const wire::ServerMessage& message) {
  if (message.has_joined() || message.has_queued()) entry_.taken();  // a node took it
  switch (message.body_case()) {
    case wire::ServerMessage::kError:
      on_error(message.error(), message.in_reply_to());
      break;
    case wire::ServerMessage::kJoined:
      on_joined(message.joined());
      break;
    case wire::ServerMessage::kState:
      if (game_ && message.state().game_id() == game_->game_id()) on_state(message.state());
      break;
    case wire::ServerMessage::kHistory:
      if (request_of(message.in_reply_to()) == Request::Recall) recalled(&message.history());
      break;
    case wire::ServerMessage::kLeft:
      game_.reset();
      if (moving_on_ && !finishing_) enter();
      break;
    case wire::ServerMessage::kQueued:
      waiting_.start("an opponent in quick match (" + std::to_string(options_.size) + "x" +
                         std::to_string(options_.size) + ")",
                     options_.mode == BotMode::AcceptChallenges);
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
      if (auto secret = secret_.rotated(failure)) {
        connection_->set_secret(std::move(*secret));
      } else {
        error(failure);
      }
      break;
    }
    case wire::ServerMessage::kChallengeOffer:
      send(challenges_.answer(message.challenge_offer(), available()), Request::Answer);
      break;
    case wire::ServerMessage::kChallengeSent:
      challenges_.sent(message.challenge_sent());
      break;
    case wire::ServerMessage::kChallengeEnded:
      if (challenges_.ends_run(message.challenge_ended(), available())) {
        series_.count_error();  // said once, by ends_run
        finish();
      }
      break;
    default:
      break;  // chat, lists: nothing to do
  }
  // A seat in a game in progress is retried for as long as the server may
  // hold it, or a restarted server give it back.
  connection_->set_seat_at_stake(game_ && in_progress(*game_));
  connection_->set_in_game(game_ && in_progress(*game_));
  if (message.in_reply_to() != 0) requests_.erase(message.in_reply_to());
}

void BotPlayer::on_joined(const wire::Joined& joined) {
  if (joined.side() != wire::SIDE_X && joined.side() != wire::SIDE_O) {
    error("was seated as a spectator");
    finish();
    return;
  }
  game_ = joined.state();
  if (game_->status() == wire::GAME_STATUS_WAITING && options_.mode == BotMode::Create) {
    // Whoever wants to play this bot needs the game's id.
    std::cout << label_ << ": waiting for an opponent in game " << game_->game_id() << std::endl;
    waiting_.start("an opponent in game " + std::to_string(game_->game_id()),
                   options_.mode == BotMode::AcceptChallenges);
  }
  on_state(joined.state());
}

void BotPlayer::on_error(const wire::Error& e, std::uint32_t in_reply_to) {
  if (e.fatal()) {
    if (e.code() == wire::ERROR_CODE_NAME_TAKEN) {
      name_refused_ = true;  // counted and explained when the connection ends
      secret_.name_taken();  // a secret made for a free name owns nothing
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
  on_refused(e, request_of(in_reply_to));
}

std::optional<BotPlayer::Request> BotPlayer::request_of(std::uint32_t in_reply_to) const {
  const auto it = requests_.find(in_reply_to);
  if (it == requests_.end()) return std::nullopt;
  return it->second;
}

// A request refused (not fatally), read after what it asked for (kind; none
// for an event).
void BotPlayer::on_refused(const wire::Error& e, std::optional<Request> kind) {
  if (kind == Request::Rotate) {
    error("could not replace its secret: " + shown(e.text()));
    return;
  }
  if (kind == Request::Recall) {
    spdlog::info("{}: its history could not be read: {}", label_, shown(e.text()));
    recalled(nullptr);
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
    moves_.retry_later();  // transient: the server took the move back and asks again
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
      entry_.ask_again_later([this] {
        if (!finishing_ && !game_) enter();
      })) {
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
  const wire::Side me = side();
  if (me == wire::SIDE_NONE) {
    error("a game state without this bot in a seat");
    finish();
    return;
  }
  if (in_progress(state)) {
    series_.rematch_settled();
    waiting_.stop();
    if (state.to_move() == me) moves_.think(state);
    return;
  }
  if (series_.round_over(state, me)) after_game();
}

// --- games ----------------------------------------------------------------------

wire::Side BotPlayer::side() const { return game_ ? side_of(*game_, player_id_) : wire::SIDE_NONE; }

std::uint32_t BotPlayer::send_move(wire::ClientMessage move) {
  return send(std::move(move), Request::Move);
}

void BotPlayer::brain_failed(const std::string& why, bool current) {
  std::cerr << "ttt-bot: " << label_ << ": " << why
            << (current ? "; resigning game " + std::to_string(game_->game_id()) : "") << std::endl;
  series_.count_error();  // said once, above
  if (current && !finishing_) {
    wire::ClientMessage resign;
    resign.mutable_resign();
    send(std::move(resign), Request::Resign);
    // Counted here: the bot leaves at once and may not hear the result.
    series_.count_resigned(round_key(*game_));
  }
  finish();
}

void BotPlayer::after_game() {
  switch (series_.next(finishing_)) {
    case GameSeries::Next::Finish:
      finish();
      return;
    case GameSeries::Next::NewOpponent:
      find_new_opponent();
      return;
    case GameSeries::Next::Rematch: {
      wire::ClientMessage rematch;
      rematch.mutable_rematch();
      send(std::move(rematch), Request::Rematch);
      series_.wait_for_rematch(options_.rematch_wait, [this] { find_new_opponent(); });
      return;
    }
  }
}

}  // namespace ttt::client
