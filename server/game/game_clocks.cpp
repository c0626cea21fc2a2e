#include "game/game_clocks.hpp"

#include <utility>

namespace ttt::server {

using std::chrono::steady_clock;

GameClocks::GameClocks(boost::asio::any_io_executor executor, const wire::ClockSettings& clock,
                       ms move_timeout, std::function<void()> on_expired)
    : move_timeout_(move_timeout),
      move_clock_(std::move(executor), std::move(on_expired)),
      chess_(ms(clock.initial_ms()), ms(clock.increment_ms())) {}

void GameClocks::reset() noexcept { chess_.reset(); }

void GameClocks::start_turn(Player side) {
  if (!chess_.enabled()) {
    move_clock_.start(move_timeout_);
    return;
  }
  const auto now = steady_clock::now();
  chess_.run(side, now);
  move_clock_.start(chess_.left(side, now));
}

GameClocks::ms GameClocks::press() {
  chess_before_move_ = chess_;
  return chess_.press(steady_clock::now());
}

void GameClocks::take_back(Player mover) {
  chess_ = chess_before_move_;
  move_clock_.start(chess_.enabled() ? chess_.left(mover, steady_clock::now()) : move_timeout_);
}

void GameClocks::stop() {
  move_clock_.stop();
  chess_.stop(steady_clock::now());
}

void GameClocks::restore(std::array<ms, 2> left) noexcept {
  if (!chess_.enabled()) return;
  chess_.set_left(Player::X, left[0]);
  chess_.set_left(Player::O, left[1]);
}

GameClocks::ms GameClocks::left(Player side) const noexcept {
  return chess_.left(side, steady_clock::now());
}

std::optional<GameClocks::ms> GameClocks::move_time_left() const {
  if (!move_clock_.running() || chess_.enabled()) return std::nullopt;
  return move_clock_.left();
}

}  // namespace ttt::server
