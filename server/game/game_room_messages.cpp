// What a room says: its state and listing, and every message on its way
// out, held in the outbox while a journal write is in flight so that nobody
// hears of a change before it is stored.
#include <spdlog/spdlog.h>

#include "game/game_room.hpp"
#include "game/ms_until.hpp"
#include "net/replies.hpp"
#include "ttt/wire/convert.hpp"

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

wire::GameState GameRoom::state() const {
  wire::GameState s;
  fill_state(s);
  return s;
}

void GameRoom::fill_state(wire::GameState& s) const {
  s.set_game_id(id_);
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
    fill_player(seat.player, seat.away, ratings_[static_cast<std::size_t>(i)], info);
    if (seat.player.id == SeatId{}) continue;
    if (seat.away) info.set_away_ms_left(ms_until(seat.away_until));
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
  s.set_draw_offered_by(draw_offered_by_);
  s.set_rematch_requested_by(rematch_requested_by_);
  s.set_status(status());
  if (chess_.enabled()) {
    *s.mutable_clock() = settings_.clock;
    const auto now = std::chrono::steady_clock::now();
    s.set_x_clock_ms(static_cast<std::uint32_t>(chess_.left(Player::X, now).count()));
    s.set_o_clock_ms(static_cast<std::uint32_t>(chess_.left(Player::O, now).count()));
  }
  if (started_ && !result_) {
    s.set_to_move(side_of(game_.to_move()));
    if (move_clock_.running() && !chess_.enabled()) {
      s.set_move_time_left_ms(static_cast<std::uint32_t>(move_clock_.left().count()));
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
  s.set_game_id(id_);
  s.set_size(settings_.size);
  s.set_win_length(game_.win_length());
  s.set_x_name(seats_[0].player.name);
  s.set_o_name(seats_[1].player.name);
  s.set_spectators(static_cast<std::uint32_t>(spectators_.size()));
  s.set_is_private(settings_.is_private);
  s.set_rated(rated());
  s.set_vs_bot(settings_.vs_bot);
  s.set_status(status());
  if (chess_.enabled()) *s.mutable_clock() = settings_.clock;
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
  if (writes_in_flight_ > 0) {
    outbox_.emplace_back(player.conn, message);
    return;
  }
  if (auto conn = player.conn.lock()) conn->deliver(message);
}

void GameRoom::send_error_to(const PlayerRef& player, wire::ErrorCode code, std::string text,
                             std::uint32_t request_id) {
  spdlog::debug("game {}: refused {} ({}): {}", id_, player.name, number(player.id), text);
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
  status.set_game_id(id_);
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

void GameRoom::announce_spectators(std::uint32_t count) {
  if (closed_) return;
  wire::ServerMessage message;
  message.mutable_spectator_count()->set_game_id(id_);
  message.mutable_spectator_count()->set_spectators(count);
  broadcast(make_outbound(std::move(message)));
  links_.owner.room_changed(*this);
}

void GameRoom::broadcast_chat(const Outbound& message, AccountId speaker, bool from_spectator) {
  auto hears = [&](const PlayerRef& listener) {
    return links_.blocks == nullptr || !links_.blocks->blocks(listener.account, speaker);
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
  if (links_.log == nullptr || settings_.origin.empty()) {
    spdlog::info("{}", line);
    return;
  }
  const auto verdict = links_.log->check(settings_.origin);
  if (verdict.log)
    spdlog::info("{}{}", line, LogLimiter::suffix(settings_.origin, verdict.held_back));
}

}  // namespace ttt::server
