#include "game/game_room.hpp"

#include <spdlog/spdlog.h>

#include "executor_check.hpp"
#include "net/replies.hpp"
#include "ttt/count_text.hpp"
#include "ttt/rules.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/result_words.hpp"

namespace ttt::server {
namespace {

using wire::side_of;

void fill_player(const PlayerRef& ref, bool away, double rating, wire::PlayerInfo& info) {
  if (ref.id == SeatId{}) return;
  info.set_player_id(number(ref.id));
  info.set_name(ref.name);
  info.set_is_bot(ref.is_bot);
  info.set_connected(!away);
  info.set_rating(rating);
}

}  // namespace

GameRoom::GameRoom(GameId id, RoomSettings settings, boost::asio::any_io_executor executor,
                   RoomDependencies deps)
    : id_(id),
      settings_(std::move(settings)),
      executor_(executor),
      deps_(deps),
      seats_{{Seat{{}, SeatHold(executor)}, Seat{{}, SeatHold(executor)}}},
      spectators_(
          executor,
          SpectatorLimits{settings_.max_spectators, settings_.spectator_count_every,
                          settings_.spectator_chat_per_second, settings_.spectator_chat_burst},
          [this](std::uint32_t count) { announce_spectators(count); }),
      game_(settings_.size, settings_.win_length),
      clocks_(executor, settings_.clock, settings_.move_timeout, [this] { on_move_clock(); }) {}

bool GameRoom::waiting() const noexcept {
  return !started_ && !closed_ &&
         (seats_[0].player.id == SeatId{} || seats_[1].player.id == SeatId{});
}

bool GameRoom::in_progress() const noexcept { return started_ && !result_; }

bool GameRoom::is_seated(SeatId who) const noexcept { return player_side(who).has_value(); }

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

GameRoom::Seat* GameRoom::seat_of(SeatId who) noexcept {
  for (Seat& seat : seats_) {
    if (seat.player.id == who) return &seat;
  }
  return nullptr;
}

std::optional<Player> GameRoom::player_side(SeatId who) const noexcept {
  if (who == SeatId{}) return std::nullopt;
  if (seats_[0].player.id == who) return Player::X;
  if (seats_[1].player.id == who) return Player::O;
  return std::nullopt;
}

std::optional<Player> GameRoom::require_player(SeatId who, std::uint32_t request_id) {
  if (auto side = player_side(who)) return side;
  if (const PlayerRef* watcher = spectators_.find(who)) {
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
  seat->hold.release();
  if (auto conn = seat->player.participant.lock()) conn->set_heartbeat(true);
  const wire::Side side = seat == &seats_[0] ? wire::SIDE_X : wire::SIDE_O;
  last_names_[side == wire::SIDE_X ? 0 : 1] = seat->player.name;
  spdlog::debug("game {}: {} (player {}) sits as {}", number(id_), seat->player.name,
                number(seat->player.id), side == wire::SIDE_X ? "X" : "O");
  refresh_ratings();
  if (seats_[0].player.id != SeatId{} && seats_[1].player.id != SeatId{}) {
    started_ = true;
    begin_round();
  }
  send_joined(seat->player, side, request_id);
  if (started_) broadcast_state();
  deps_.owner.room_changed(*this);
}

void GameRoom::watch(PlayerRef player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::watch");
  send_joined(spectators_.add(std::move(player)), wire::SIDE_SPECTATOR, request_id);
  spectators_.changed();
}

void GameRoom::leave(SeatId who, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::leave");
  wire::ServerMessage left;
  left.set_in_reply_to(request_id);
  left.mutable_left()->set_game_id(number(id_));
  const Outbound left_message = make_outbound(std::move(left));

  if (auto gone = spectators_.remove(who)) {
    send_to(*gone, left_message);
    deps_.owner.left_room(*this, who);
    spectators_.changed();
    return;
  }
  Seat* seat = seat_of(who);
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
  const SeatId who = seat.player.id;
  offers_lapse_without(&seat == &seats_[0] ? Player::X : Player::O);
  if (auto conn = seat.player.participant.lock()) conn->set_heartbeat(false);
  seat.hold.release();
  seat.player = {};
  deps_.owner.left_room(*this, who);
  if (!closed_) deps_.owner.room_changed(*this);
}

void GameRoom::close_if_empty() {
  for (const Seat& seat : seats_) {
    if (seat.player.id != SeatId{} && !seat.player.is_bot) return;
  }
  if (closed_) return;
  closed_ = true;
  clocks_.stop();
  for (Seat& seat : seats_) {
    if (seat.player.id != SeatId{}) remove_seat(seat);
  }
  // Spectators are told why they are back in the lobby, with who left.
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(number(id_));
  left.mutable_left()->set_reason(wire::LEFT_REASON_PLAYERS_LEFT);
  for (const std::string& name : last_names_) {
    if (!name.empty()) left.mutable_left()->add_players(name);
  }
  const Outbound left_message = make_outbound(std::move(left));
  for (auto& [id, spectator] : spectators_.close()) {
    send_to(spectator, left_message);
    deps_.owner.left_room(*this, id);
  }
  spdlog::debug("game {}: closed", number(id_));
  deps_.owner.room_closed(*this);
}

// --- playing ------------------------------------------------------------------

void GameRoom::move(SeatId who, int row, int col, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::move");
  if (lost_) return;
  auto side = require_player(who, request_id);
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
  const std::size_t mark = outbox_.mark();
  const Player mover_side = *side;
  const int ply = static_cast<int>(game_.moves().size()) - 1;
  // The mover's time is charged, and earns the increment.
  const auto clock_left = clocks_.press();
  std::optional<GameEnding> final_ending;
  if (end) final_ending = ending(*end);
  outbox_.write_started();
  // A refused final move is taken back and the game goes on: nothing settles.
  deps_.journal.move(record_id_, MoveEntry{ply, Move{row, col}, clock_left}, final_ending,
                     write_done([this, mover_side, request_id, final_ending, away = away_players(),
                                 offer = offers_.draw_by()](bool ok) {
                       if (final_ending) ending_recorded(*final_ending, ok, away);
                       if (!ok) offers_.restore_draw(offer);  // taken back with the move
                       on_move_recorded(ok, mover_side, request_id);
                     }));
  // A pending draw offer lapses with any move (its lapse is part of the move).
  end_offer(wire::OFFER_KIND_DRAW, wire::OFFER_END_MOVED);
  if (end) {
    conclude(*end);
  } else {
    clocks_.start_turn(game_.to_move());
  }
  broadcast_state();
  outbox_.mark_move(mark);
}

void GameRoom::on_move_recorded(bool ok, Player mover, std::uint32_t request_id) {
  move_in_flight_ = false;
  if (ok || lost_) return;
  // Nothing about the move was sent; take it back and tell the mover. What
  // else was said in the room meanwhile (chat, a spectator's arrival) stays.
  outbox_.take_back_move();
  std::vector<Move> moves = game_.moves();
  moves.pop_back();
  game_ = Game(settings_.size, settings_.win_length);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    (void)game_.play(i % 2 == 0 ? Player::X : Player::O, moves[i].row, moves[i].col);
  }
  result_.reset();
  // The mover's time runs on from the start of its turn, as if it had not moved.
  clocks_.take_back(mover);
  send_error_to(seat_for(mover).player, wire::ERROR_CODE_STORAGE,
                "the server could not save that move; nothing changed, try again", request_id);
  broadcast_state();
}

std::optional<Player> GameRoom::require_playing(SeatId who, std::uint32_t request_id) {
  auto side = require_player(who, request_id);
  if (!side || in_progress()) return side;
  send_error_to(seat_for(*side).player,
                started_ ? wire::ERROR_CODE_GAME_OVER : wire::ERROR_CODE_GAME_NOT_STARTED,
                started_ ? "the game is over" : "the game has not started", request_id);
  return std::nullopt;
}

void GameRoom::resign(SeatId who, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::resign");
  if (auto side = require_playing(who, request_id)) {
    finish({opponent(*side), wire::END_REASON_RESIGNATION});
  }
}

// --- offers -------------------------------------------------------------------

void GameRoom::offer_draw(SeatId who, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::offer_draw");
  auto side = require_playing(who, request_id);
  if (!side) return;
  if (offers_.offer_draw(*side)) {
    finish({std::nullopt, wire::END_REASON_DRAW_AGREED});
    return;
  }
  broadcast_state();
}

void GameRoom::rematch(SeatId who, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::rematch");
  auto side = require_player(who, request_id);
  if (!side) return;
  const Seat& other = seat_for(opponent(*side));
  const char* refusal = nullptr;
  if (!result_) {
    refusal = "a rematch is possible once the game is over";
  } else if (other.player.id == SeatId{}) {
    refusal = "your opponent has left";
  } else if (other.hold.held()) {
    refusal = "your opponent is away";
  }
  if (refusal != nullptr) {
    send_error_to(seat_for(*side).player, wire::ERROR_CODE_BAD_REQUEST, refusal, request_id);
    return;
  }
  if (offers_.request_rematch(*side)) {
    std::swap(seats_[0].player, seats_[1].player);
    ++round_;
    refresh_ratings();
    start_round();
    deps_.owner.room_changed(*this);
    return;
  }
  broadcast_state();
}

void GameRoom::decline(SeatId who, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::decline");
  auto side = require_player(who, request_id);
  if (!side) return;
  const auto ended = offers_.decline(*side);
  if (!ended) {
    send_error_to(seat_for(*side).player, wire::ERROR_CODE_NOTHING_TO_ACCEPT,
                  "your opponent has no draw offer or rematch request pending", request_id);
    return;
  }
  announce(*ended);
  broadcast_state();
}

void GameRoom::end_offer(wire::OfferKind kind, wire::OfferEnd how) {
  if (auto ended = offers_.end(kind, how)) announce(*ended);
}

void GameRoom::offers_lapse_without(Player gone) {
  for (const RoomOffers::Ended& ended : offers_.lapse_without(gone)) announce(ended);
}

void GameRoom::announce(const RoomOffers::Ended& ended) {
  wire::ServerMessage message;
  wire::OfferEnded* m = message.mutable_offer_ended();
  m->set_game_id(number(id_));
  m->set_kind(ended.kind);
  m->set_by(ended.by);
  m->set_by_name(seat_for(ended.by == wire::SIDE_X ? Player::X : Player::O).player.name);
  m->set_how(ended.how);
  broadcast(make_outbound(std::move(message)));
}

// --- chat ---------------------------------------------------------------------

void GameRoom::chat(SeatId who, const std::string& text, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::chat");
  wire::ServerMessage message;
  wire::ChatMessage* chat = message.mutable_chat();
  chat->set_game_id(number(id_));
  chat->set_text(text);
  if (auto side = player_side(who)) {
    chat->set_from(seat_for(*side).player.name);
    chat->set_from_side(side_of(*side));
    broadcast_chat(make_outbound(std::move(message)), seat_for(*side).player.account, false);
    return;
  }
  const PlayerRef* watcher = spectators_.find(who);
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

void GameRoom::set_hears_spectators(SeatId who, bool on) {
  check_executor(executor_, "GameRoom::set_hears_spectators");
  if (Seat* seat = seat_of(who)) seat->player.hears_spectators = on;
}

void GameRoom::start_round() {
  game_ = Game(settings_.size, settings_.win_length);
  result_.reset();
  offers_.clear();
  clocks_.reset();
  begin_round();
  broadcast_state();
}

void GameRoom::begin_round() {
  if (spdlog::should_log(spdlog::level::info)) {  // not formatted for nothing, once a game
    note(fmt::format("game {} round {} starts: {} (X) vs {} (O), {}x{}, {} in a row", number(id_),
                     round_, seats_[0].player.name, seats_[1].player.name, settings_.size,
                     settings_.size, game_.win_length()));
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
  start.clock_initial = clocks_.initial();
  start.clock_increment = clocks_.increment();
  outbox_.write_started();
  record_id_ = deps_.journal.start(start, write_done());
  clocks_.start_turn(game_.to_move());
}

void GameRoom::conclude(const GameResult& result) {
  result_ = result;
  offers_.game_over();
  clocks_.stop();
  const wire::GameStatus status = !result.winner                ? wire::GAME_STATUS_DRAW
                                  : *result.winner == Player::X ? wire::GAME_STATUS_X_WON
                                                                : wire::GAME_STATUS_O_WON;
  if (spdlog::should_log(spdlog::level::info)) {
    note(fmt::format("game {} over: {} after {}", number(id_),
                     wire::result_text(status, result.reason, game_.winning_line()),
                     count_text(game_.moves().size(), "move", "moves")));
  }
  deps_.owner.room_changed(*this);
}

void GameRoom::finish(GameResult result) {
  if (lost_) return;
  conclude(result);
  const GameEnding final_ending = ending(result);
  if (final_ending.settlement) deps_.owner.room_changed(*this);  // the list: rated or not
  outbox_.write_started();
  deps_.journal.end(record_id_, final_ending,
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
    e.settlement = deps_.ratings.settle(seats_[0].player.account, seats_[1].player.account, result,
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
  if (recorded.settlement) deps_.ratings.settled(*recorded.settlement, ok);
  refresh_ratings();
  if (!ok) return;
  deps_.owner.game_recorded(*this);
  report_away_results(recorded, away);
}

void GameRoom::refresh_ratings() {
  for (std::size_t i = 0; i < 2; ++i) {
    const PlayerRef& p = seats_[i].player;
    ratings_[i] = p.id == SeatId{} ? 0.0 : deps_.ratings.rating(p.account);
  }
}

void GameRoom::abort() {
  check_executor(executor_, "GameRoom::abort");
  if (in_progress()) finish({std::nullopt, wire::END_REASON_ABORTED});
  clocks_.stop();
  for (Seat& seat : seats_) seat.hold.release();
}

void GameRoom::lose() {
  check_executor(executor_, "GameRoom::lose");
  if (lost_) return;
  lost_ = true;
  closed_ = true;
  outbox_.clear();
  clocks_.stop();
  for (Seat& seat : seats_) seat.hold.release();
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
  spdlog::info("game {} round {} restored after {}: {} (X) vs {} (O)", number(id_), round_,
               count_text(moves.size(), "move", "moves"), seats_[0].player.name,
               seats_[1].player.name);
  refresh_ratings();
  clocks_.restore(clock_left);
  clocks_.start_turn(game_.to_move());
  broadcast_state();  // a bot to move moves
  deps_.owner.room_changed(*this);
}

// --- absent players -----------------------------------------------------------
// A dropped player's seat is held for the grace period (the move clock runs
// on; running out while away counts as a disconnect), the others are told
// with the time left, a returning player is reseated, and results decided
// while a player was away are kept for them.

void GameRoom::on_move_clock() {
  if (!in_progress() || lost_) return;
  const Player mover = game_.to_move();
  // A Fischer clock's flag fell against an opponent who could no longer
  // complete any line: nobody can win, a draw.
  if (clocks_.fischer() && !can_still_win(game_.board(), opponent(mover))) {
    finish({std::nullopt, wire::END_REASON_TIMEOUT_NO_WIN});
    return;
  }
  // The clock ran out while its player was away: the link, not the player's
  // thinking, lost the game (docs/protocol.md, "The clock while away").
  finish({opponent(mover),
          seat_for(mover).hold.held() ? wire::END_REASON_DISCONNECT : wire::END_REASON_TIMEOUT});
}

void GameRoom::away(SeatId who) {
  check_executor(executor_, "GameRoom::away");
  if (spectators_.remove(who)) {
    deps_.owner.left_room(*this, who);
    spectators_.changed();
    return;
  }
  Seat* seat = seat_of(who);
  if (seat == nullptr) return;
  if (!in_progress()) {
    leave(who, 0);
    return;
  }
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  hold_seat(*seat, settings_.reconnect_grace);
  note(fmt::format("game {}: {} is away, seat held for {} ms", number(id_), seat->player.name,
                   settings_.reconnect_grace.count()));
  offers_lapse_without(side);
  wire::OpponentStatus status;
  status.set_connected(false);
  status.set_grace_ms(static_cast<std::uint32_t>(settings_.reconnect_grace.count()));
  tell_opponent(side, status);
  broadcast_state();
}

void GameRoom::hold_seat(Seat& seat, std::chrono::milliseconds grace) {
  seat.player.participant.reset();
  seat.hold.hold(grace, [weak = weak_from_this(), who = seat.player.id] {
    if (auto room = weak.lock()) room->on_grace_expired(who);
  });
}

void GameRoom::on_grace_expired(SeatId who) {
  Seat* seat = seat_of(who);
  if (seat == nullptr || !seat->hold.held() || lost_) return;
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  note(fmt::format("game {}: {} did not come back", number(id_), seat->player.name));
  if (in_progress()) finish({opponent(side), wire::END_REASON_DISCONNECT});
  remove_seat(*seat);
  wire::OpponentStatus status;
  status.set_left(true);
  tell_opponent(side, status);
  close_if_empty();
}

void GameRoom::back(const PlayerRef& player, std::uint32_t request_id) {
  check_executor(executor_, "GameRoom::back");
  if (PlayerRef* watcher = spectators_.find(player.id)) {
    watcher->participant = player.participant;  // a watcher on a new connection
    send_joined(*watcher, wire::SIDE_SPECTATOR, request_id);
    return;
  }
  Seat* seat = seat_of(player.id);
  if (seat == nullptr) return;
  const bool was_away = seat->hold.held();
  seat->hold.release();
  seat->player.participant = player.participant;
  seat->player.hears_spectators = player.hears_spectators;
  if (auto conn = player.participant.lock()) conn->set_heartbeat(true);
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  send_joined(seat->player, side_of(side), request_id);
  // A session moved to another terminal was never away: nobody is told.
  if (!was_away) return;
  note(fmt::format("game {}: {} is back", number(id_), seat->player.name));
  wire::OpponentStatus status;
  status.set_connected(true);
  tell_opponent(side, status);
  broadcast_state();
}

std::vector<GameRoom::AwayPlayer> GameRoom::away_players() const {
  std::vector<AwayPlayer> away;
  for (const Player side : {Player::X, Player::O}) {
    const Seat& seat = seats_[side == Player::X ? 0 : 1];
    if (!seat.hold.held() || seat.player.is_bot || seat.player.id == SeatId{}) continue;
    away.push_back({seat.player.account, side, seats_[side == Player::X ? 1 : 0].player.name});
  }
  return away;
}

void GameRoom::report_away_results(const GameEnding& recorded,
                                   const std::vector<AwayPlayer>& away) {
  for (const AwayPlayer& p : away) {
    wire::AwayResult result;
    result.set_game_id(number(id_));
    result.set_round(round_);
    result.set_side(side_of(p.side));
    result.set_status(!recorded.result.winner                ? wire::GAME_STATUS_DRAW
                      : *recorded.result.winner == Player::X ? wire::GAME_STATUS_X_WON
                                                             : wire::GAME_STATUS_O_WON);
    result.set_end_reason(recorded.result.reason);
    result.set_opponent(p.opponent);
    result.set_rated(rated());
    if (rated() && recorded.settlement) {
      const PlayerResult& mine =
          p.side == Player::X ? recorded.settlement->x : recorded.settlement->o;
      const double after = deps_.ratings.rating(p.account);
      result.set_rating_after(after);
      result.set_rating_before(after - mine.rating_change);
    }
    deps_.owner.decided_while_away(p.account, std::move(result));
  }
}

// --- what the room says ---------------------------------------------------------
// Its state and listing, and every message on its way out, held in the
// outbox while a journal write is in flight so that nobody hears of a
// change before it is stored.

wire::GameState GameRoom::state() const {
  wire::GameState s;
  fill_state(s);
  return s;
}

void GameRoom::fill_state(wire::GameState& s) const {
  s.set_game_id(number(id_));
  s.set_size(settings_.size);
  s.set_win_length(game_.win_length());
  s.set_cells(game_.board().to_string());
  s.set_move_count(static_cast<std::uint32_t>(game_.moves().size()));
  s.set_round(round_);
  s.set_is_private(settings_.is_private);
  s.set_rated(rated());
  s.set_spectators(static_cast<std::uint32_t>(spectators_.size()));
  for (int i = 0; i < 2; ++i) {
    const Seat& seat = seats_[static_cast<std::size_t>(i)];
    wire::PlayerInfo& info = i == 0 ? *s.mutable_x() : *s.mutable_o();
    fill_player(seat.player, seat.hold.held(), ratings_[static_cast<std::size_t>(i)], info);
    if (seat.player.id == SeatId{}) continue;
    if (seat.hold.held()) info.set_away_ms_left(seat.hold.ms_left());
    // The change a rated game made, shown with its result.
    if (result_ && rated() && result_->reason != wire::END_REASON_ABORTED) {
      info.set_rating_before(ratings_before_[static_cast<std::size_t>(i)]);
      info.set_rating_note(rating_notes_[static_cast<std::size_t>(i)]);
      info.set_repeat_game(static_cast<std::uint32_t>(repeat_game_));
      info.set_opponent_variety(
          static_cast<std::uint32_t>(opponent_varieties_[static_cast<std::size_t>(i)]));
    }
  }
  if (!game_.moves().empty()) {
    s.mutable_last_move()->set_row(game_.moves().back().row);
    s.mutable_last_move()->set_col(game_.moves().back().col);
  }
  s.set_draw_offered_by(offers_.draw_by());
  s.set_rematch_requested_by(offers_.rematch_by());
  s.set_status(status());
  if (clocks_.fischer()) {
    *s.mutable_clock() = settings_.clock;
    s.set_x_clock_ms(static_cast<std::uint32_t>(clocks_.left(Player::X).count()));
    s.set_o_clock_ms(static_cast<std::uint32_t>(clocks_.left(Player::O).count()));
  }
  if (started_ && !result_) {
    s.set_to_move(side_of(game_.to_move()));
    if (const auto left = clocks_.move_time_left()) {
      s.set_move_time_left_ms(static_cast<std::uint32_t>(left->count()));
    }
  } else if (result_) {
    s.set_end_reason(result_->reason);
    if (result_->reason == wire::END_REASON_LINE) {
      if (auto line = game_.winning_line()) *s.mutable_winning_line() = wire::wire_line_of(*line);
    }
  }
}

wire::GameSummary GameRoom::summary() const {
  wire::GameSummary s;
  s.set_game_id(number(id_));
  s.set_size(settings_.size);
  s.set_win_length(game_.win_length());
  s.set_x_name(seats_[0].player.name);
  s.set_o_name(seats_[1].player.name);
  s.set_spectators(static_cast<std::uint32_t>(spectators_.size()));
  s.set_is_private(settings_.is_private);
  s.set_rated(rated());
  s.set_vs_bot(settings_.vs_bot);
  s.set_status(status());
  if (clocks_.fischer()) *s.mutable_clock() = settings_.clock;
  return s;
}

wire::GameStatus GameRoom::status() const noexcept {
  if (!started_) return wire::GAME_STATUS_WAITING;
  if (!result_) return wire::GAME_STATUS_IN_PROGRESS;
  if (!result_->winner) return wire::GAME_STATUS_DRAW;
  return *result_->winner == Player::X ? wire::GAME_STATUS_X_WON : wire::GAME_STATUS_O_WON;
}

void GameRoom::send_to(const PlayerRef& player, const Outbound& message) {
  if (lost_) return;  // another node's game now: nothing of this one is true
  outbox_.send(player.participant, message);
}

void GameRoom::send_error_to(const PlayerRef& player, wire::ErrorCode code, std::string text,
                             std::uint32_t request_id) {
  spdlog::debug("game {}: refused {} ({}): {}", number(id_), player.name, number(player.id), text);
  send_to(player, error_reply(code, std::move(text), request_id));
}

void GameRoom::broadcast(const Outbound& message) {
  for (const Seat& seat : seats_) send_to(seat.player, message);
  for (const auto& [id, spectator] : spectators_.all()) send_to(spectator, message);
}

void GameRoom::broadcast_state() {
  // Built in place and encoded once for both players and every spectator.
  OutboundBuilder out;
  fill_state(*out.message().mutable_state());
  broadcast(out.finish());
}

void GameRoom::send_joined(const PlayerRef& player, wire::Side side, std::uint32_t request_id) {
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Joined* joined = message.mutable_joined();
  joined->set_side(side);
  if (side != wire::SIDE_SPECTATOR) joined->set_invite_code(settings_.invite_code);
  *joined->mutable_state() = state();
  send_to(player, make_outbound(std::move(message)));
}

void GameRoom::tell_opponent(Player about, wire::OpponentStatus status) {
  status.set_game_id(number(id_));
  wire::ServerMessage message;
  *message.mutable_opponent() = std::move(status);
  send_to(seat_for(opponent(about)).player, make_outbound(std::move(message)));
}

// --- the outbox -------------------------------------------------------------

GameJournal::Done GameRoom::write_done(std::function<void(bool)> on_result) {
  // The write keeps the room alive: a room that closed meanwhile (its last
  // human left a game against the bot) still owes them what it said, the
  // leaver's Left included.
  return [room = shared_from_this(), on_result = std::move(on_result)](bool ok) {
    room->outbox_.write_ended();
    if (on_result) on_result(ok);
    if (room->outbox_.settled()) room->outbox_.flush();
  };
}

void GameRoom::announce_spectators(std::uint32_t count) {
  if (closed_) return;
  wire::ServerMessage message;
  message.mutable_spectator_count()->set_game_id(number(id_));
  message.mutable_spectator_count()->set_spectators(count);
  broadcast(make_outbound(std::move(message)));
  deps_.owner.room_changed(*this);
}

void GameRoom::broadcast_chat(const Outbound& message, AccountId speaker, bool from_spectator) {
  auto hears = [&](const PlayerRef& listener) {
    return deps_.blocks == nullptr || !deps_.blocks->blocks(listener.account, speaker);
  };
  for (const Seat& seat : seats_) {
    if ((!from_spectator || seat.player.hears_spectators) && hears(seat.player)) {
      send_to(seat.player, message);
    }
  }
  for (const auto& [id, spectator] : spectators_.all()) {
    if (hears(spectator)) send_to(spectator, message);
  }
}

void GameRoom::note(const std::string& line) const {
  if (deps_.log == nullptr || settings_.origin.empty()) {
    spdlog::info("{}", line);
    return;
  }
  const auto verdict = deps_.log->check(settings_.origin);
  if (verdict.log)
    spdlog::info("{}{}", line, LogLimiter::suffix(settings_.origin, verdict.held_back));
}

}  // namespace ttt::server
