#include "game/house_bot.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>

#include "ttt/wire/convert.hpp"

namespace ttt::server {

HouseBot::HouseBot(SeatId id, AiOptions options, boost::asio::any_io_executor logic,
                   BotSearchQueue& searches, std::string share)
    : id_(id),
      options_(options),
      logic_(std::move(logic)),
      searches_(searches),
      share_(std::move(share)),
      retry_timer_(logic_) {}

void HouseBot::deliver(const Outbound& message) {
  const wire::ServerMessage& m = *message.message;
  if (m.has_joined()) {
    on_state(m.joined().state());
  } else if (m.has_state()) {
    on_state(m.state());
  } else if (m.has_error() && m.error().code() == wire::ERROR_CODE_STORAGE) {
    // The server could not save our move and took it back; the state that
    // follows asks again, and we answer after a pause (a failing disk is not
    // hammered).
    searched_ = kNotSearched;
    retry_after_failure_ = true;
  } else if (m.has_opponent() && m.opponent().left()) {
    wire::ClientMessage leave;
    leave.mutable_leave();
    send(std::move(leave));
  }
}

void HouseBot::on_state(const wire::GameState& state) {
  // Sides swap on a rematch: find ours by seat.
  const wire::Side side = state.x().player_id() == number(id_)   ? wire::SIDE_X
                          : state.o().player_id() == number(id_) ? wire::SIDE_O
                                                                 : wire::SIDE_NONE;
  if (side == wire::SIDE_NONE) return;
  if (state.status() == wire::GAME_STATUS_IN_PROGRESS) {
    asked_rematch_ = false;
    if (state.to_move() == side) think(state, wire::player_of(side));
    return;
  }
  const bool over = state.status() == wire::GAME_STATUS_X_WON ||
                    state.status() == wire::GAME_STATUS_O_WON ||
                    state.status() == wire::GAME_STATUS_DRAW;
  const wire::Side opponent_side = side == wire::SIDE_X ? wire::SIDE_O : wire::SIDE_X;
  if (over && state.rematch_requested_by() == opponent_side && !asked_rematch_) {
    asked_rematch_ = true;
    wire::ClientMessage rematch;
    rematch.mutable_rematch();
    send(std::move(rematch));
  }
}

void HouseBot::think(const wire::GameState& state, Player me) {
  const std::uint64_t position = (std::uint64_t{state.round()} << 32) | state.move_count();
  if (position == searched_) return;
  searched_ = position;
  auto board = Board::parse(state.cells(), state.win_length());
  if (!board) return;
  AiOptions options = options_;
  options.seed = options_.seed + position;
  // On a Fischer clock the bot spends at most a twentieth of its time left
  // (and its increment) on a move, so it never loses on time by thinking.
  if (state.clock().initial_ms() != 0) {
    const std::uint32_t left = me == Player::X ? state.x_clock_ms() : state.o_clock_ms();
    const auto share = std::chrono::milliseconds(left / 20 + state.clock().increment_ms() / 2);
    options.budget = std::max(std::chrono::milliseconds(1), std::min(options.budget, share));
  }
  if (!retry_after_failure_) {
    search(*board, me, options, state.game_id());
    return;
  }
  retry_after_failure_ = false;
  retry_timer_.expires_after(kRetryPause);
  retry_timer_.async_wait([weak = weak_from_this(), board = *board, me, options,
                           game_id = state.game_id()](boost::system::error_code ec) {
    if (auto self = weak.lock(); self && !ec) self->search(board, me, options, game_id);
  });
}

void HouseBot::search(const Board& board, Player me, const AiOptions& options,
                      std::uint64_t game_id) {
  searches_.submit(share_, [weak = weak_from_this(), board, me, options, game_id] {
    // A bot whose game ended while this waited needs no move.
    if (weak.expired()) return;
    Move move{};
    try {
      move = calculate_next_move(board, me, options);
    } catch (const std::exception& e) {
      spdlog::error("bot search failed on {}: {}", board.to_string(), e.what());
      return;
    }
    auto self = weak.lock();
    if (!self) return;
    wire::ClientMessage message;
    wire::MakeMove* make_move = message.mutable_make_move();
    make_move->set_game_id(game_id);
    make_move->set_row(move.row);
    make_move->set_col(move.col);
    self->send(std::move(message));
  });
}

void HouseBot::send(wire::ClientMessage message) {
  // Like a remote player's, the bot's requests arrive later, never inside the
  // room call that informed it.
  boost::asio::post(logic_, [self = shared_from_this(), message = std::move(message)] {
    if (self->inbox_) self->inbox_->receive(message);
  });
}

}  // namespace ttt::server
