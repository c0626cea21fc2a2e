#include "game/game_room.hpp"
#include "executor_check.hpp"

#include <spdlog/spdlog.h>

#include "net/replies.hpp"
#include "ttt/count_text.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/result_words.hpp"

namespace ttt::server {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

using wire::side_of;

}  // namespace

GameRoom::GameRoom(GameId id, RoomSettings settings, boost::asio::any_io_executor executor,
                   RoomLinks links)
    : id_(id),
      settings_(std::move(settings)),
      executor_(executor),
      links_(links),
      seats_{{Seat{{}, false, boost::asio::steady_timer(executor)},
              Seat{{}, false, boost::asio::steady_timer(executor)}}},
      spectators_(
          executor,
          SpectatorLimits{settings_.max_spectators, settings_.spectator_count_every,
                          settings_.spectator_chat_per_second, settings_.spectator_chat_burst},
          [this](std::uint32_t count) { announce_spectators(count); }),
      game_(settings_.size, settings_.win_length),
      move_clock_(executor, [this] { on_move_clock(); }),
      chess_(std::chrono::milliseconds(settings_.clock.initial_ms()),
             std::chrono::milliseconds(settings_.clock.increment_ms())) {}

bool GameRoom::waiting() const noexcept {
  return !started_ && !closed_ &&
         (seats_[0].player.id == SeatId{} || seats_[1].player.id == SeatId{});
}

bool GameRoom::in_progress() const noexcept { return started_ && !result_; }

bool GameRoom::is_seated(SeatId player) const noexcept { return player_side(player).has_value(); }

bool GameRoom::spectators_full() const noexcept { return spectators_.full(); }

std::size_t GameRoom::spectators_from(const std::string& address) const noexcept {
  return spectators_.from(address);
}

std::array<AccountId, 2> GameRoom::seated_accounts() const noexcept {
  std::array<AccountId, 2> accounts{};
  for (std::size_t i = 0; i < 2; ++i) {
    const PlayerRef& p = seats_[i].player;
    if (p.id != SeatId{} && !p.is_bot) accounts[i] = p.account;
  }
  return accounts;
}

GameRoom::Seat* GameRoom::seat_of(SeatId player) noexcept {
  for (Seat& seat : seats_) {
    if (seat.player.id == player) return &seat;
  }
  return nullptr;
}

std::optional<Player> GameRoom::player_side(SeatId player) const noexcept {
  if (player == SeatId{}) return std::nullopt;
  if (seats_[0].player.id == player) return Player::X;
  if (seats_[1].player.id == player) return Player::O;
  return std::nullopt;
}

std::optional<Player> GameRoom::require_player(SeatId player, std::uint32_t request_id) {
  if (auto side = player_side(player)) return side;
  if (const PlayerRef* watcher = spectators_.find(player)) {
    send_error_to(*watcher, wire::ERROR_CODE_SPECTATOR, "spectators can't do that", request_id);
  }
  return std::nullopt;
}

// --- seating ------------------------------------------------------------------

void GameRoom::seat(PlayerRef player, wire::Side preferred, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::seat");
  Seat* seat = &seats_[preferred == wire::SIDE_O ? 1 : 0];
  if (seat->player.id != SeatId{}) seat = &seats_[preferred == wire::SIDE_O ? 0 : 1];
  seat->player = std::move(player);
  seat->away = false;
  if (auto conn = seat->player.conn.lock()) conn->set_heartbeat(true);
  const wire::Side side = seat == &seats_[0] ? wire::SIDE_X : wire::SIDE_O;
  last_names_[side == wire::SIDE_X ? 0 : 1] = seat->player.name;
  spdlog::debug("game {}: {} (player {}) sits as {}", id_, seat->player.name,
                number(seat->player.id), side == wire::SIDE_X ? "X" : "O");
  refresh_ratings();
  if (seats_[0].player.id != SeatId{} && seats_[1].player.id != SeatId{}) {
    started_ = true;
    begin_round();
  }
  send_joined(seat->player, side, request_id);
  if (started_) broadcast_state();
  links_.owner.room_changed(*this);
}

void GameRoom::watch(PlayerRef player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::watch");
  send_joined(spectators_.add(std::move(player)), wire::SIDE_SPECTATOR, request_id);
  spectators_.changed();
}

void GameRoom::leave(SeatId player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::leave");
  wire::ServerMessage left;
  left.set_in_reply_to(request_id);
  left.mutable_left()->set_game_id(id_);
  const Outbound left_message = make_outbound(std::move(left));

  if (auto gone = spectators_.remove(player)) {
    send_to(*gone, left_message);
    links_.owner.left_room(*this, player);
    spectators_.changed();
    return;
  }
  Seat* seat = seat_of(player);
  if (seat == nullptr) return;
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  if (in_progress()) finish({opponent(side), wire::END_REASON_RESIGNATION});
  send_to(seat->player, left_message);
  remove_seat(*seat);
  wire::OpponentStatus status;
  status.set_left(true);
  tell_opponent(side, status);
  close_if_empty();
}

void GameRoom::remove_seat(Seat& seat) {
  const SeatId player = seat.player.id;
  offers_lapse_without(&seat == &seats_[0] ? Player::X : Player::O);
  if (auto conn = seat.player.conn.lock()) conn->set_heartbeat(false);
  seat.grace.cancel();
  seat.player = {};
  seat.away = false;
  links_.owner.left_room(*this, player);
  if (!closed_) links_.owner.room_changed(*this);
}

void GameRoom::close_if_empty() {
  for (const Seat& seat : seats_) {
    if (seat.player.id != SeatId{} && !seat.player.is_bot) return;
  }
  if (closed_) return;
  closed_ = true;
  move_clock_.stop();
  chess_.stop(steady_clock::now());
  for (Seat& seat : seats_) {
    if (seat.player.id != SeatId{}) remove_seat(seat);
  }
  // Spectators are told why they are back in the lobby, with who left.
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(id_);
  left.mutable_left()->set_reason(wire::LEFT_REASON_PLAYERS_LEFT);
  for (const std::string& name : last_names_) {
    if (!name.empty()) left.mutable_left()->add_players(name);
  }
  const Outbound left_message = make_outbound(std::move(left));
  for (auto& [id, spectator] : spectators_.close()) {
    send_to(spectator, left_message);
    links_.owner.left_room(*this, id);
  }
  spdlog::debug("game {}: closed", id_);
  links_.owner.room_closed(*this);
}

// --- playing ------------------------------------------------------------------

void GameRoom::move(SeatId player, int row, int col, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::move");
  if (lost_) return;
  auto side = require_player(player, request_id);
  if (!side) return;
  const PlayerRef& mover = seat_for(*side).player;
  if (!started_) {
    send_error_to(mover, wire::ERROR_CODE_GAME_NOT_STARTED,
                  "the game has not started: waiting for an opponent", request_id);
    return;
  }
  if (result_) {
    send_error_to(mover, wire::ERROR_CODE_GAME_OVER, "the game is over", request_id);
    return;
  }
  if (move_in_flight_) {
    // The opponent's move is not yet recorded, so not yet shown: not your turn.
    send_error_to(mover, wire::ERROR_CODE_NOT_YOUR_TURN, "it is not your turn", request_id);
    return;
  }
  if (auto error = game_.play(*side, row, col)) {
    send_error_to(mover, wire::error_code_of(*error), std::string(to_string(*error)), request_id);
    return;
  }
  std::optional<GameResult> end;
  switch (game_.status()) {
    case GameStatus::InProgress:
      break;
    case GameStatus::XWon:
      end = GameResult{Player::X, wire::END_REASON_LINE};
      break;
    case GameStatus::OWon:
      end = GameResult{Player::O, wire::END_REASON_LINE};
      break;
    case GameStatus::Draw:
      end = GameResult{std::nullopt, wire::END_REASON_BOARD_FULL};
      break;
  }
  move_in_flight_ = true;
  const std::size_t mark = outbox_.size();
  const Player mover_side = *side;
  const int ply = static_cast<int>(game_.moves().size()) - 1;
  // The mover's time is charged, and earns the increment.
  chess_before_move_ = chess_;
  const auto clock_left = chess_.press(steady_clock::now());
  std::optional<GameEnding> final_ending;
  if (end) final_ending = ending(*end);
  ++writes_in_flight_;
  // A refused final move is taken back and the game goes on: nothing settles.
  links_.journal.move(record_id_, MoveEntry{ply, Move{row, col}, clock_left}, final_ending,
                      write_done([this, mover_side, request_id, final_ending, away = away_players(),
                                  offer = draw_offered_by_](bool ok) {
                        if (final_ending) ending_recorded(*final_ending, ok, away);
                        if (!ok) draw_offered_by_ = offer;  // taken back with the move
                        on_move_recorded(ok, mover_side, request_id);
                      }));
  // A pending draw offer lapses with any move (its lapse is part of the move).
  end_offer(wire::OFFER_KIND_DRAW, wire::OFFER_END_MOVED);
  if (end) {
    conclude(*end);
  } else {
    start_turn_clock();
  }
  broadcast_state();
  move_messages_ = {mark, outbox_.size()};
}

void GameRoom::on_move_recorded(bool ok, Player mover, std::uint32_t request_id) {
  move_in_flight_ = false;
  if (ok || lost_) return;
  // Nothing about the move was sent; take it back and tell the mover. What
  // else was said in the room meanwhile (chat, a spectator's arrival) stays.
  const auto [first, last] = move_messages_;
  outbox_.erase(outbox_.begin() + static_cast<std::ptrdiff_t>(std::min(first, outbox_.size())),
                outbox_.begin() + static_cast<std::ptrdiff_t>(std::min(last, outbox_.size())));
  std::vector<Move> moves = game_.moves();
  moves.pop_back();
  game_ = Game(settings_.size, settings_.win_length);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    (void)game_.play(i % 2 == 0 ? Player::X : Player::O, moves[i].row, moves[i].col);
  }
  result_.reset();
  // The mover's time runs on from the start of its turn, as if it had not moved.
  chess_ = chess_before_move_;
  move_clock_.start(chess_.enabled() ? chess_.left(mover, steady_clock::now())
                                     : settings_.move_timeout);
  send_error_to(seat_for(mover).player, wire::ERROR_CODE_STORAGE,
                "the server could not save that move; nothing changed, try again", request_id);
  broadcast_state();
}

std::optional<Player> GameRoom::require_playing(SeatId player, std::uint32_t request_id) {
  auto side = require_player(player, request_id);
  if (!side || in_progress()) return side;
  send_error_to(seat_for(*side).player,
                started_ ? wire::ERROR_CODE_GAME_OVER : wire::ERROR_CODE_GAME_NOT_STARTED,
                started_ ? "the game is over" : "the game has not started", request_id);
  return std::nullopt;
}

void GameRoom::resign(SeatId player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::resign");
  if (auto side = require_playing(player, request_id)) {
    finish({opponent(*side), wire::END_REASON_RESIGNATION});
  }
}

void GameRoom::chat(SeatId player, const std::string& text, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::chat");
  wire::ServerMessage message;
  wire::ChatMessage* chat = message.mutable_chat();
  chat->set_game_id(id_);
  chat->set_text(text);
  if (auto side = player_side(player)) {
    chat->set_from(seat_for(*side).player.name);
    chat->set_from_side(side_of(*side));
    broadcast_chat(make_outbound(std::move(message)), seat_for(*side).player.account, false);
    return;
  }
  const PlayerRef* watcher = spectators_.find(player);
  if (watcher == nullptr) return;
  // However many watch, the spectators' chat together stays readable.
  if (!spectators_.may_chat()) {
    send_error_to(*watcher, wire::ERROR_CODE_RATE_LIMITED,
                  "the spectators' chat of this game is busy: wait a moment", request_id);
    return;
  }
  chat->set_from(watcher->name);
  chat->set_from_side(wire::SIDE_SPECTATOR);
  broadcast_chat(make_outbound(std::move(message)), watcher->account, true);
}

void GameRoom::set_hears_spectators(SeatId player, bool on) {
  check_executor(executor_, "GameRoom::set_hears_spectators");
  if (Seat* seat = seat_of(player)) seat->player.hears_spectators = on;
}

void GameRoom::start_round() {
  game_ = Game(settings_.size, settings_.win_length);
  result_.reset();
  draw_offered_by_ = wire::SIDE_NONE;
  rematch_requested_by_ = wire::SIDE_NONE;
  chess_.reset();
  begin_round();
  broadcast_state();
}

void GameRoom::begin_round() {
  if (spdlog::should_log(spdlog::level::info)) {  // not formatted for nothing, once a game
    note(fmt::format("game {} round {} starts: {} (X) vs {} (O), {}x{}, {} in a row", id_, round_,
                     seats_[0].player.name, seats_[1].player.name, settings_.size, settings_.size,
                     game_.win_length()));
  }
  GameStart start;
  start.room = id_;
  start.round = round_;
  start.size = settings_.size;
  start.win_length = game_.win_length();
  start.x = seats_[0].player.account;
  start.o = seats_[1].player.account;
  // Two accounts of one address (an IPv6 /64) playing each other say
  // nothing about their strength: one person, or a farm.
  const std::string& x_from = seats_[0].player.address;
  rated_ = settings_.rated &&
           (settings_.rate_one_address || x_from.empty() || x_from != seats_[1].player.address);
  start.rated = rated_;
  start.is_private = settings_.is_private;
  start.invite_code = settings_.invite_code;
  start.bot_level = settings_.bot_level;
  start.clock_initial = chess_.initial();
  start.clock_increment = chess_.increment();
  ++writes_in_flight_;
  record_id_ = links_.journal.start(start, write_done());
  start_turn_clock();
}

void GameRoom::start_turn_clock() {
  if (!chess_.enabled()) {
    move_clock_.start(settings_.move_timeout);
    return;
  }
  const auto now = steady_clock::now();
  chess_.run(game_.to_move(), now);
  move_clock_.start(chess_.left(game_.to_move(), now));
}

void GameRoom::conclude(const GameResult& result) {
  result_ = result;
  draw_offered_by_ = wire::SIDE_NONE;
  move_clock_.stop();
  chess_.stop(steady_clock::now());
  const wire::GameStatus status = !result.winner                ? wire::GAME_STATUS_DRAW
                                  : *result.winner == Player::X ? wire::GAME_STATUS_X_WON
                                                                : wire::GAME_STATUS_O_WON;
  if (spdlog::should_log(spdlog::level::info)) {
    note(fmt::format("game {} over: {} after {}", id_,
                     wire::result_text(status, result.reason, game_.winning_line()),
                     count_text(game_.moves().size(), "move", "moves")));
  }
  links_.owner.room_changed(*this);
}

void GameRoom::finish(GameResult result) {
  if (lost_) return;
  conclude(result);
  const GameEnding final_ending = ending(result);
  if (final_ending.settlement) links_.owner.room_changed(*this);  // the list: rated or not
  ++writes_in_flight_;
  links_.journal.end(record_id_, final_ending,
                     write_done([this, final_ending, away = away_players()](bool ok) {
                       ending_recorded(final_ending, ok, away);
                     }));
  broadcast_state();
}

GameEnding GameRoom::ending(const GameResult& result) {
  GameEnding e{result, std::nullopt};
  ratings_before_ = ratings_;
  rating_notes_ = {};
  repeat_game_ = 0;
  opponent_varieties_ = {};
  if (result.reason != wire::END_REASON_ABORTED) {
    e.settlement = links_.ratings.settle(seats_[0].player.account, seats_[1].player.account, result,
                                         rated_, static_cast<int>(game_.moves().size()));
    if (e.settlement) {
      rated_ = e.settlement->rated;  // what the players see now is what is stored
      rating_notes_ = {e.settlement->x_note, e.settlement->o_note};
      repeat_game_ = e.settlement->repeat_game;
      opponent_varieties_ = {e.settlement->x_variety, e.settlement->o_variety};
    }
  }
  refresh_ratings();  // what players see at the end is what will be stored
  return e;
}

void GameRoom::ending_recorded(const GameEnding& recorded, bool ok,
                               const std::vector<AwayPlayer>& away) {
  if (recorded.settlement) links_.ratings.settled(*recorded.settlement, ok);
  refresh_ratings();
  if (!ok) return;
  links_.owner.game_recorded(*this);
  report_away_results(recorded, away);
}

void GameRoom::refresh_ratings() {
  for (std::size_t i = 0; i < 2; ++i) {
    const PlayerRef& p = seats_[i].player;
    ratings_[i] = p.id == SeatId{} ? 0.0 : links_.ratings.rating(p.account);
  }
}

void GameRoom::abort() {
  check_executor(executor_, "GameRoom::abort");
  if (in_progress()) finish({std::nullopt, wire::END_REASON_ABORTED});
  move_clock_.stop();
  chess_.stop(steady_clock::now());
  for (Seat& seat : seats_) seat.grace.cancel();
}

void GameRoom::lose() {
  check_executor(executor_, "GameRoom::lose");
  if (lost_) return;
  lost_ = true;
  closed_ = true;
  outbox_.clear();
  move_clock_.stop();
  chess_.stop(steady_clock::now());
  for (Seat& seat : seats_) seat.grace.cancel();
}

void GameRoom::restore(PlayerRef x, PlayerRef o, std::uint32_t round, RecordId record_id,
                       const std::vector<Move>& moves, std::chrono::milliseconds grace,
                       std::array<std::chrono::milliseconds, 2> clock_left) {
  seats_[0].player = std::move(x);
  seats_[1].player = std::move(o);
  last_names_ = {seats_[0].player.name, seats_[1].player.name};
  started_ = true;
  rated_ = settings_.rated;
  round_ = round;
  record_id_ = record_id;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    (void)game_.play(i % 2 == 0 ? Player::X : Player::O, moves[i].row, moves[i].col);
  }
  for (Seat& seat : seats_) {
    if (!seat.player.is_bot) hold_seat(seat, grace);
  }
  spdlog::info("game {} round {} restored after {}: {} (X) vs {} (O)", id_, round_,
               count_text(moves.size(), "move", "moves"), seats_[0].player.name,
               seats_[1].player.name);
  refresh_ratings();
  if (chess_.enabled()) {
    chess_.set_left(Player::X, clock_left[0]);
    chess_.set_left(Player::O, clock_left[1]);
  }
  start_turn_clock();
  broadcast_state();  // a bot to move moves
  links_.owner.room_changed(*this);
}

}  // namespace ttt::server
