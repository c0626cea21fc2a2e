#include "bot/move_search.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"
#include "view/move_input.hpp"

namespace ttt::client {
namespace {

// The margin an engine leaves on the server's move clock: the round trip.
constexpr std::chrono::milliseconds kClockMargin{500};

}  // namespace

MoveSearch::MoveSearch(Owner& owner, boost::asio::any_io_executor io,
                       boost::asio::any_io_executor compute, std::shared_ptr<Brain> brain,
                       std::string label, const BotOptions& options)
    : owner_(owner),
      io_(io),
      compute_(std::move(compute)),
      label_(std::move(label)),
      options_(options),
      brain_(std::move(brain)),
      retry_timer_(io) {}

MoveSearch::Position MoveSearch::position_of(const wire::GameState& state) noexcept {
  return Position{round_key(state), state.move_count()};
}

void MoveSearch::think(const wire::GameState& state) {
  const Position position = position_of(state);
  if (moved_ == position || searching_ == position) return;
  if (search_running_) return;  // one brain call at a time: search_done looks again
  const auto board = board_of(state);
  if (!board) {
    owner_.error("a board that can't be read: " + safe_text(state.cells(), field_width::kShort));
    return;
  }
  searching_ = position;
  search_running_ = true;
  const Player me = wire::player_of(owner_.side());
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
  boost::asio::post(compute_, [this, alive = std::weak_ptr<bool>(alive_), io = io_, brain = brain_,
                               turn = std::move(turn), position] {
    const BrainMove chosen = brain->choose(turn);
    boost::asio::post(io, [this, alive, position, chosen] {
      if (alive.expired()) return;
      search_running_ = false;
      if (chosen.move) {
        play(position, *chosen.move);
      } else {
        failed(position, chosen.failure);
      }
      search_done(position);
    });
  });
}

void MoveSearch::reset() noexcept {
  searching_.reset();
  moved_.reset();
}

void MoveSearch::search_done(Position searched) {
  const wire::GameState* game = owner_.game();
  if (!game || owner_.finishing() || !in_progress(*game)) return;
  // Only a position that came while the brain was busy is searched now: the
  // one just searched is tried again only after a reconnect (a move that
  // could not be sent must not spin the brain).
  if (position_of(*game) == searched) return;
  if (game->to_move() == owner_.side()) think(*game);
}

void MoveSearch::failed(Position position, const std::string& why) {
  if (searching_ == position) searching_.reset();
  const wire::GameState* game = owner_.game();
  owner_.brain_failed(why, game && in_progress(*game) && position_of(*game) == position);
}

void MoveSearch::retry_later() {
  spdlog::info("{}: the server could not save its move; moving again in {} ms", label_,
               options_.storage_retry.count());
  retry_timer_.expires_after(options_.storage_retry);
  retry_timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (!ec && !alive.expired()) retry();
      });
}

// The position whose move was refused may be searched and sent again.
void MoveSearch::retry() {
  moved_.reset();
  const wire::GameState* game = owner_.game();
  if (!game || owner_.finishing() || !in_progress(*game)) return;
  if (game->to_move() == owner_.side()) think(*game);
}

// Sends the move if the game still stands where the search started.
void MoveSearch::play(Position position, Move move) {
  if (searching_ == position) searching_.reset();
  const wire::GameState* game = owner_.game();
  if (!game || owner_.finishing() || !owner_.connected()) return;
  if (position_of(*game) != position || !in_progress(*game)) return;
  const wire::Side me = owner_.side();
  if (game->to_move() != me) return;
  const auto board = board_of(*game);
  if (!board || !is_valid_move(*board, move.row, move.col, wire::player_of(me))) {
    owner_.error("the engine chose an illegal move " + cell_name(move) + "; not sent");
    return;
  }
  wire::ClientMessage m;
  m.mutable_make_move()->set_game_id(game->game_id());
  m.mutable_make_move()->set_row(move.row);
  m.mutable_make_move()->set_col(move.col);
  if (owner_.send_move(std::move(m)) != 0) moved_ = position;
}

}  // namespace ttt::client
