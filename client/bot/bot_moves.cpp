// BotPlayer's moves: a search on the compute pool for each position to play
// (one brain call at a time), the move sent, a brain that failed (its game
// resigned), a move the server could not save tried again after a pause.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <iostream>

#include "bot/bot_player.hpp"
#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"
#include "view/move_input.hpp"

namespace ttt::client {
namespace {

// The margin an engine leaves on the server's move clock: the round trip.
constexpr std::chrono::milliseconds kClockMargin{500};

}  // namespace

void BotPlayer::think(const wire::GameState& state, Player me) {
  const Position position{round_key(state), state.move_count()};
  if (moved_ == position || searching_ == position) return;
  if (search_running_) return;  // one brain call at a time: search_done looks again
  const auto board = board_of(state);
  if (!board) {
    error("a board that can't be read: " + safe_text(state.cells(), field_width::kShort));
    return;
  }
  searching_ = position;
  search_running_ = true;
  Turn turn;
  turn.board = *board;
  turn.me = me;
  turn.last_move = last_move_of(state);
  turn.time = options_.ai.budget;
  if (!options_.engine.empty() && state.move_time_left_ms() > 0) {
    // The server's clock bounds the engine's time, grace and round trip included.
    const auto left =
        std::chrono::milliseconds(state.move_time_left_ms()) - options_.engine_grace - kClockMargin;
    turn.time = std::max(std::chrono::milliseconds(0), std::min(turn.time, left));
  }
  if (state.clock().initial_ms() != 0) {
    // On a Fischer clock: at most a twentieth of the time left (and half the
    // increment) a move, so that the bot never loses on time by thinking.
    const std::uint32_t left = me == Player::X ? state.x_clock_ms() : state.o_clock_ms();
    const auto share = std::chrono::milliseconds(left / 20 + state.clock().increment_ms() / 2);
    turn.time = std::max(std::chrono::milliseconds(1), std::min(turn.time, share));
  }
  turn.variation =
      (state.game_id() << 40) ^ (std::uint64_t{state.round()} << 20) ^ state.move_count();
  boost::asio::post(compute_, [weak = weak_from_this(), io = io_, brain = brain_,
                               turn = std::move(turn), position] {
    const BrainMove chosen = brain->choose(turn);
    boost::asio::post(io, [weak, position, chosen] {
      auto self = weak.lock();
      if (!self) return;
      self->search_running_ = false;
      if (chosen.move) {
        self->play(position, *chosen.move);
      } else {
        self->brain_failed(position, chosen.failure);
      }
      self->search_done(position);
    });
  });
}

void BotPlayer::search_done(Position searched) {
  if (!game_ || finishing_ || !in_progress(*game_)) return;
  // Only a position that came while the brain was busy is searched now: the
  // one just searched is tried again only after a reconnect (a move that
  // could not be sent must not spin the brain).
  if (Position{round_key(*game_), game_->move_count()} == searched) return;
  const wire::Side me = side_of(*game_, player_id_);
  if (game_->to_move() == me) think(*game_, wire::player_of(me));
}

void BotPlayer::brain_failed(Position position, const std::string& why) {
  if (searching_ == position) searching_.reset();
  const bool current =
      game_ && in_progress(*game_) && Position{round_key(*game_), game_->move_count()} == position;
  std::cerr << "ttt-bot: " << label_ << ": " << why
            << (current ? "; resigning game " + std::to_string(game_->game_id()) : "") << std::endl;
  ++tally_.errors;  // said once, above
  if (current && !finishing_) {
    wire::ClientMessage resign;
    resign.mutable_resign();
    send(std::move(resign), Request::Resign);
    // Counted here: the bot leaves at once and may not hear the result.
    counted_ = round_key(*game_);
    ++tally_.games;
    ++tally_.losses;
  }
  finish();
}

void BotPlayer::retry_move_later() {
  spdlog::info("{}: the server could not save its move; moving again in {} ms", label_,
               options_.storage_retry.count());
  retry_timer_.expires_after(options_.storage_retry);
  retry_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!ec && self) self->retry_move();
  });
}

// The position whose move was refused may be searched and sent again.
void BotPlayer::retry_move() {
  moved_.reset();
  if (!game_ || finishing_ || !in_progress(*game_)) return;
  const wire::Side me = side_of(*game_, player_id_);
  if (game_->to_move() == me) think(*game_, wire::player_of(me));
}

// Sends the move if the game still stands where the search started.
void BotPlayer::play(Position position, Move move) {
  if (searching_ == position) searching_.reset();
  if (!game_ || finishing_ || !connection_->connected()) return;
  if (Position{round_key(*game_), game_->move_count()} != position || !in_progress(*game_)) return;
  const wire::Side me = side_of(*game_, player_id_);
  if (game_->to_move() != me) return;
  const auto board = board_of(*game_);
  if (!board || !is_valid_move(*board, move.row, move.col, wire::player_of(me))) {
    error("the engine chose an illegal move " + cell_name(move) + "; not sent");
    return;
  }
  wire::ClientMessage m;
  m.mutable_make_move()->set_game_id(game_->game_id());
  m.mutable_make_move()->set_row(move.row);
  m.mutable_make_move()->set_col(move.col);
  if (send(std::move(m), Request::Move) != 0) moved_ = position;
}

}  // namespace ttt::client
