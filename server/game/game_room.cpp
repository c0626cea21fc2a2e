#include "game/game_room.hpp"

#include <spdlog/spdlog.h>

#include "net/replies.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

using wire::side_of;

void fill_player(const PlayerRef& ref, bool away, double rating, wire::PlayerInfo& info) {
  if (ref.id == 0) return;
  info.set_player_id(ref.id);
  info.set_name(ref.name);
  info.set_is_bot(ref.is_bot);
  info.set_connected(!away);
  info.set_rating(rating);
}

const char* reason_text(wire::EndReason reason) {
  switch (reason) {
    case wire::END_REASON_LINE: return "line";
    case wire::END_REASON_BOARD_FULL: return "full board";
    case wire::END_REASON_RESIGNATION: return "resignation";
    case wire::END_REASON_TIMEOUT: return "timeout";
    case wire::END_REASON_DISCONNECT: return "disconnect";
    case wire::END_REASON_DRAW_AGREED: return "draw agreed";
    case wire::END_REASON_ABORTED: return "aborted";
    default: return "none";
  }
}

}  // namespace

GameRoom::GameRoom(GameId id, RoomSettings settings, boost::asio::any_io_executor executor,
                   RoomObserver& observer)
    : id_(id),
      settings_(std::move(settings)),
      executor_(executor),
      observer_(observer),
      seats_{{Seat{{}, false, boost::asio::steady_timer(executor)},
              Seat{{}, false, boost::asio::steady_timer(executor)}}},
      game_(settings_.size),
      move_clock_(executor) {}

bool GameRoom::waiting() const noexcept {
  return !started_ && !closed_ && (seats_[0].player.id == 0 || seats_[1].player.id == 0);
}

bool GameRoom::in_progress() const noexcept { return started_ && !result_; }

bool GameRoom::is_seated(PlayerId player) const noexcept {
  return player_side(player).has_value();
}

GameRoom::Seat* GameRoom::seat_of(PlayerId player) noexcept {
  for (Seat& seat : seats_) {
    if (seat.player.id == player) return &seat;
  }
  return nullptr;
}

std::optional<Player> GameRoom::player_side(PlayerId player) const noexcept {
  if (player == 0) return std::nullopt;
  if (seats_[0].player.id == player) return Player::X;
  if (seats_[1].player.id == player) return Player::O;
  return std::nullopt;
}

std::optional<Player> GameRoom::require_player(PlayerId player, std::uint32_t request_id) {
  if (auto side = player_side(player)) return side;
  if (auto it = spectators_.find(player); it != spectators_.end()) {
    send_error_to(it->second, wire::ERROR_CODE_SPECTATOR, "spectators can't do that", request_id);
  }
  return std::nullopt;
}

// --- seating ------------------------------------------------------------------

void GameRoom::seat(PlayerRef player, wire::Side preferred, std::uint32_t request_id) {
  Seat* seat = &seats_[preferred == wire::SIDE_O ? 1 : 0];
  if (seat->player.id != 0) seat = &seats_[preferred == wire::SIDE_O ? 0 : 1];
  seat->player = std::move(player);
  seat->away = false;
  const wire::Side side = seat == &seats_[0] ? wire::SIDE_X : wire::SIDE_O;
  spdlog::debug("game {}: {} (player {}) sits as {}", id_, seat->player.name, seat->player.id,
                side == wire::SIDE_X ? "X" : "O");
  if (seats_[0].player.id != 0 && seats_[1].player.id != 0) {
    started_ = true;
    begin_round();
  }
  send_joined(seat->player, side, request_id);
  if (started_) broadcast_state();
}

void GameRoom::watch(PlayerRef player, std::uint32_t request_id) {
  const PlayerId id = player.id;
  auto [it, inserted] = spectators_.insert_or_assign(id, std::move(player));
  send_joined(it->second, wire::SIDE_SPECTATOR, request_id);
  broadcast_state();  // the spectator count changed
}

void GameRoom::leave(PlayerId player, std::uint32_t request_id) {
  wire::ServerMessage left;
  left.set_in_reply_to(request_id);
  left.mutable_left()->set_game_id(id_);
  const Outbound left_message = make_outbound(std::move(left));

  if (auto it = spectators_.find(player); it != spectators_.end()) {
    send_to(it->second, left_message);
    spectators_.erase(it);
    observer_.left_room(id_, player);
    broadcast_state();
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
  const PlayerId player = seat.player.id;
  seat.grace.cancel();
  seat.player = {};
  seat.away = false;
  rematch_requested_by_ = wire::SIDE_NONE;
  observer_.left_room(id_, player);
}

void GameRoom::close_if_empty() {
  for (const Seat& seat : seats_) {
    if (seat.player.id != 0 && !seat.player.is_bot) return;
  }
  if (closed_) return;
  closed_ = true;
  stop_move_clock();
  for (Seat& seat : seats_) {
    if (seat.player.id != 0) remove_seat(seat);
  }
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(id_);
  const Outbound left_message = make_outbound(std::move(left));
  auto spectators = std::move(spectators_);
  spectators_.clear();
  for (auto& [id, spectator] : spectators) {
    send_to(spectator, left_message);
    observer_.left_room(id_, id);
  }
  spdlog::debug("game {}: closed", id_);
  observer_.room_closed(id_);
}

// --- playing ------------------------------------------------------------------

void GameRoom::move(PlayerId player, int row, int col, std::uint32_t request_id) {
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
    case GameStatus::InProgress: break;
    case GameStatus::XWon: end = GameResult{Player::X, wire::END_REASON_LINE}; break;
    case GameStatus::OWon: end = GameResult{Player::O, wire::END_REASON_LINE}; break;
    case GameStatus::Draw: end = GameResult{std::nullopt, wire::END_REASON_BOARD_FULL}; break;
  }
  move_in_flight_ = true;
  const std::size_t mark = outbox_.size();
  const Player mover_side = *side;
  const int ply = static_cast<int>(game_.moves().size()) - 1;
  ++writes_in_flight_;
  observer_.record_move(*this, ply, Move{row, col}, end,
                        write_done([this, mover_side, request_id](bool ok) {
                          on_move_recorded(ok, mover_side, request_id);
                        }));
  draw_offered_by_ = wire::SIDE_NONE;
  if (end) {
    conclude(*end);
  } else {
    start_move_clock();
  }
  broadcast_state();
  move_messages_ = {mark, outbox_.size()};
}

void GameRoom::on_move_recorded(bool ok, Player mover, std::uint32_t request_id) {
  move_in_flight_ = false;
  if (ok) return;
  // Nothing about the move was sent; take it back and tell the mover. What
  // else was said in the room meanwhile (chat, a spectator's arrival) stays.
  const auto [first, last] = move_messages_;
  outbox_.erase(outbox_.begin() + static_cast<std::ptrdiff_t>(std::min(first, outbox_.size())),
                outbox_.begin() + static_cast<std::ptrdiff_t>(std::min(last, outbox_.size())));
  std::vector<Move> moves = game_.moves();
  moves.pop_back();
  game_ = Game(settings_.size);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    (void)game_.play(i % 2 == 0 ? Player::X : Player::O, moves[i].row, moves[i].col);
  }
  result_.reset();
  start_move_clock();
  send_error_to(seat_for(mover).player, wire::ERROR_CODE_STORAGE,
                "the server could not save that move; nothing changed, try again", request_id);
  broadcast_state();
}

std::optional<Player> GameRoom::require_playing(PlayerId player, std::uint32_t request_id) {
  auto side = require_player(player, request_id);
  if (!side || in_progress()) return side;
  send_error_to(seat_for(*side).player,
                started_ ? wire::ERROR_CODE_GAME_OVER : wire::ERROR_CODE_GAME_NOT_STARTED,
                started_ ? "the game is over" : "the game has not started", request_id);
  return std::nullopt;
}

void GameRoom::resign(PlayerId player, std::uint32_t request_id) {
  if (auto side = require_playing(player, request_id)) {
    finish({opponent(*side), wire::END_REASON_RESIGNATION});
  }
}

void GameRoom::offer_draw(PlayerId player, std::uint32_t request_id) {
  auto side = require_playing(player, request_id);
  if (!side) return;
  if (draw_offered_by_ == side_of(opponent(*side))) {
    finish({std::nullopt, wire::END_REASON_DRAW_AGREED});
    return;
  }
  draw_offered_by_ = side_of(*side);
  broadcast_state();
}

void GameRoom::rematch(PlayerId player, std::uint32_t request_id) {
  auto side = require_player(player, request_id);
  if (!side) return;
  const Seat& other = seat_for(opponent(*side));
  const char* refusal = nullptr;
  if (!result_) {
    refusal = "a rematch is possible once the game is over";
  } else if (other.player.id == 0) {
    refusal = "your opponent has left";
  } else if (other.away) {
    refusal = "your opponent is away";
  }
  if (refusal != nullptr) {
    send_error_to(seat_for(*side).player, wire::ERROR_CODE_BAD_REQUEST, refusal, request_id);
    return;
  }
  if (rematch_requested_by_ == side_of(opponent(*side))) {
    std::swap(seats_[0].player, seats_[1].player);
    ++round_;
    start_round();
    return;
  }
  rematch_requested_by_ = side_of(*side);
  broadcast_state();
}

void GameRoom::chat(PlayerId player, const std::string& text) {
  wire::ServerMessage message;
  wire::ChatMessage* chat = message.mutable_chat();
  chat->set_game_id(id_);
  chat->set_text(text);
  if (auto side = player_side(player)) {
    chat->set_from(seat_for(*side).player.name);
    chat->set_from_side(side_of(*side));
  } else if (auto it = spectators_.find(player); it != spectators_.end()) {
    chat->set_from(it->second.name);
    chat->set_from_side(wire::SIDE_SPECTATOR);
  } else {
    return;
  }
  broadcast(make_outbound(std::move(message)));
}

void GameRoom::start_round() {
  game_ = Game(settings_.size);
  result_.reset();
  draw_offered_by_ = wire::SIDE_NONE;
  rematch_requested_by_ = wire::SIDE_NONE;
  begin_round();
  broadcast_state();
}

void GameRoom::begin_round() {
  spdlog::info("game {} round {} starts: {} (X) vs {} (O), {}x{}", id_, round_,
               seats_[0].player.name, seats_[1].player.name, settings_.size, settings_.size);
  ++writes_in_flight_;
  record_id_ = observer_.record_start(*this, write_done());
  start_move_clock();
}

void GameRoom::conclude(const GameResult& result) {
  result_ = result;
  draw_offered_by_ = wire::SIDE_NONE;
  stop_move_clock();
  spdlog::info("game {} over: {} by {} after {} moves", id_,
               result.winner ? std::string(to_string(*result.winner)) + " wins" : "no winner",
               reason_text(result.reason), game_.moves().size());
}

void GameRoom::finish(GameResult result) {
  conclude(result);
  ++writes_in_flight_;
  observer_.record_end(*this, result, write_done());
  broadcast_state();
}

void GameRoom::abort() {
  if (in_progress()) finish({std::nullopt, wire::END_REASON_ABORTED});
  stop_move_clock();
  for (Seat& seat : seats_) seat.grace.cancel();
}

void GameRoom::restore(PlayerRef x, PlayerRef o, std::uint32_t round, std::int64_t record_id,
                       const std::vector<Move>& moves) {
  seats_[0].player = std::move(x);
  seats_[1].player = std::move(o);
  started_ = true;
  round_ = round;
  record_id_ = record_id;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    (void)game_.play(i % 2 == 0 ? Player::X : Player::O, moves[i].row, moves[i].col);
  }
  for (Seat& seat : seats_) {
    if (!seat.player.is_bot) hold_seat(seat);
  }
  spdlog::info("game {} round {} restored after {} moves: {} (X) vs {} (O)", id_, round_,
               moves.size(), seats_[0].player.name, seats_[1].player.name);
  start_move_clock();
  broadcast_state();  // a bot to move moves
}

RoomObserver::Done GameRoom::write_done(std::function<void(bool)> on_result) {
  return [weak = weak_from_this(), on_result = std::move(on_result)](bool ok) {
    auto room = weak.lock();
    if (!room) return;
    --room->writes_in_flight_;
    if (on_result) on_result(ok);
    if (room->writes_in_flight_ == 0) room->flush_outbox();
  };
}

void GameRoom::flush_outbox() {
  auto pending = std::move(outbox_);
  outbox_.clear();
  for (auto& [conn, message] : pending) {
    if (auto participant = conn.lock()) participant->deliver(message);
  }
}

// --- clocks and absence -------------------------------------------------------

void GameRoom::start_move_clock() {
  if (settings_.move_timeout.count() == 0) return;
  move_deadline_ = steady_clock::now() + settings_.move_timeout;
  // An armed timer wakes at an earlier deadline and re-arms itself for this
  // one: a move moves a number, not a timer.
  if (!move_clock_armed_) arm_move_clock();
}

void GameRoom::arm_move_clock() {
  move_clock_armed_ = true;
  move_clock_.expires_at(move_deadline_);
  move_clock_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto room = weak.lock()) room->on_move_clock();
  });
}

void GameRoom::stop_move_clock() {
  move_clock_armed_ = false;
  move_clock_.cancel();
}

void GameRoom::on_move_clock() {
  move_clock_armed_ = false;
  if (!in_progress()) return;
  if (steady_clock::now() < move_deadline_) {
    arm_move_clock();
    return;
  }
  finish({opponent(game_.to_move()), wire::END_REASON_TIMEOUT});
}

void GameRoom::away(PlayerId player) {
  if (auto it = spectators_.find(player); it != spectators_.end()) {
    spectators_.erase(it);
    observer_.left_room(id_, player);
    broadcast_state();
    return;
  }
  Seat* seat = seat_of(player);
  if (seat == nullptr) return;
  if (!in_progress()) {
    leave(player, 0);
    return;
  }
  hold_seat(*seat);
  spdlog::info("game {}: {} is away, seat held for {} ms", id_, seat->player.name,
               settings_.reconnect_grace.count());
  wire::OpponentStatus status;
  status.set_connected(false);
  status.set_grace_ms(static_cast<std::uint32_t>(settings_.reconnect_grace.count()));
  tell_opponent(seat == &seats_[0] ? Player::X : Player::O, status);
  broadcast_state();
}

void GameRoom::hold_seat(Seat& seat) {
  seat.away = true;
  seat.player.conn.reset();
  seat.grace.expires_after(settings_.reconnect_grace);
  seat.grace.async_wait(
      [weak = weak_from_this(), player = seat.player.id](const boost::system::error_code& ec) {
        if (ec) return;
        if (auto room = weak.lock()) room->on_grace_expired(player);
      });
}

void GameRoom::on_grace_expired(PlayerId player) {
  Seat* seat = seat_of(player);
  if (seat == nullptr || !seat->away) return;
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  spdlog::info("game {}: {} did not come back", id_, seat->player.name);
  if (in_progress()) finish({opponent(side), wire::END_REASON_DISCONNECT});
  remove_seat(*seat);
  wire::OpponentStatus status;
  status.set_left(true);
  tell_opponent(side, status);
  close_if_empty();
}

void GameRoom::back(const PlayerRef& player, std::uint32_t request_id) {
  Seat* seat = seat_of(player.id);
  if (seat == nullptr) return;
  seat->grace.cancel();
  seat->away = false;
  seat->player.conn = player.conn;
  const Player side = seat == &seats_[0] ? Player::X : Player::O;
  spdlog::info("game {}: {} is back", id_, seat->player.name);
  send_joined(seat->player, side_of(side), request_id);
  wire::OpponentStatus status;
  status.set_connected(true);
  tell_opponent(side, status);
  broadcast_state();
}

// --- messages -----------------------------------------------------------------

wire::GameState GameRoom::state() const {
  wire::GameState s;
  s.set_game_id(id_);
  s.set_size(settings_.size);
  s.set_cells(game_.board().to_string());
  s.set_move_count(static_cast<std::uint32_t>(game_.moves().size()));
  s.set_round(round_);
  s.set_is_private(settings_.is_private);
  s.set_rated(settings_.rated);
  s.set_spectators(static_cast<std::uint32_t>(spectators_.size()));
  for (int i = 0; i < 2; ++i) {
    const Seat& seat = seats_[static_cast<std::size_t>(i)];
    fill_player(seat.player, seat.away, observer_.rating(seat.player.account_id),
                i == 0 ? *s.mutable_x() : *s.mutable_o());
  }
  if (!game_.moves().empty()) {
    s.mutable_last_move()->set_row(game_.moves().back().row);
    s.mutable_last_move()->set_col(game_.moves().back().col);
  }
  s.set_draw_offered_by(draw_offered_by_);
  s.set_rematch_requested_by(rematch_requested_by_);
  if (!started_) {
    s.set_status(wire::GAME_STATUS_WAITING);
  } else if (!result_) {
    s.set_status(wire::GAME_STATUS_IN_PROGRESS);
    s.set_to_move(side_of(game_.to_move()));
    if (settings_.move_timeout.count() > 0) {
      const auto left = duration_cast<milliseconds>(move_deadline_ - steady_clock::now());
      s.set_move_time_left_ms(static_cast<std::uint32_t>(std::max<std::int64_t>(left.count(), 1)));
    }
  } else {
    s.set_status(!result_->winner                   ? wire::GAME_STATUS_DRAW
                 : *result_->winner == Player::X ? wire::GAME_STATUS_X_WON
                                                 : wire::GAME_STATUS_O_WON);
    s.set_end_reason(result_->reason);
    if (result_->reason == wire::END_REASON_LINE) {
      if (auto line = game_.winning_line()) {
        s.mutable_winning_line()->set_kind(wire::line_kind_of(line->kind));
        s.mutable_winning_line()->set_index(line->index);
      }
    }
  }
  return s;
}

wire::GameSummary GameRoom::summary() const {
  wire::GameSummary s;
  s.set_game_id(id_);
  s.set_size(settings_.size);
  s.set_x_name(seats_[0].player.name);
  s.set_o_name(seats_[1].player.name);
  s.set_spectators(static_cast<std::uint32_t>(spectators_.size()));
  s.set_is_private(settings_.is_private);
  s.set_rated(settings_.rated);
  s.set_vs_bot(settings_.vs_bot);
  const wire::GameState full = state();
  s.set_status(full.status());
  return s;
}

void GameRoom::send_to(const PlayerRef& player, const Outbound& message) {
  if (writes_in_flight_ > 0) {
    outbox_.emplace_back(player.conn, message);
    return;
  }
  if (auto conn = player.conn.lock()) conn->deliver(message);
}

void GameRoom::send_error_to(const PlayerRef& player, wire::ErrorCode code, std::string text,
                             std::uint32_t request_id) {
  spdlog::debug("game {}: refused {} ({}): {}", id_, player.name, player.id, text);
  send_to(player, error_reply(code, std::move(text), request_id));
}

void GameRoom::broadcast(const Outbound& message) {
  for (const Seat& seat : seats_) send_to(seat.player, message);
  for (const auto& [id, spectator] : spectators_) send_to(spectator, message);
}

void GameRoom::broadcast_state() {
  wire::ServerMessage message;
  *message.mutable_state() = state();
  broadcast(make_outbound(std::move(message)));
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
  status.set_game_id(id_);
  wire::ServerMessage message;
  *message.mutable_opponent() = std::move(status);
  send_to(seat_for(opponent(about)).player, make_outbound(std::move(message)));
}

}  // namespace ttt::server
