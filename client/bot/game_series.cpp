#include "bot/game_series.hpp"

#include <spdlog/spdlog.h>

namespace ttt::client {

BotTally& BotTally::operator+=(const BotTally& other) {
  games += other.games;
  wins += other.wins;
  losses += other.losses;
  draws += other.draws;
  errors += other.errors;
  connect_failed = connect_failed || other.connect_failed;
  return *this;
}

GameSeries::GameSeries(boost::asio::any_io_executor io, std::string label, int games, BotMode mode)
    : label_(std::move(label)), games_(games), mode_(mode), rematch_timer_(std::move(io)) {}

bool GameSeries::round_over(const wire::GameState& state, wire::Side me) {
  if (!is_over(state) || counted_ == round_key(state)) return false;
  counted_ = round_key(state);
  count_result(state, me);
  return true;
}

void GameSeries::count_result(const wire::GameState& state, wire::Side me) {
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
  if (games_ > 0) {
    spdlog::info("{}: game {} round {} over ({} of {})", label_, state.game_id(), state.round(),
                 tally_.games, games_);
  } else {
    spdlog::info("{}: game {} round {} over ({} so far)", label_, state.game_id(), state.round(),
                 tally_.games);
  }
}

GameSeries::Next GameSeries::next(bool finishing) const {
  if ((games_ > 0 && tally_.games >= games_) || finishing) return Next::Finish;
  // Back to the queue: whoever waits there plays next, and with nobody
  // else there the same two meet again. A bot that takes challenges
  // leaves the game to be free for the next (a player seated in a game
  // can't be challenged).
  if (mode_ == BotMode::QuickMatch || mode_ == BotMode::AcceptChallenges) return Next::NewOpponent;
  return Next::Rematch;
}

void GameSeries::wait_for_rematch(std::chrono::milliseconds wait,
                                  std::function<void()> no_rematch) {
  rematch_timer_.expires_after(wait);
  rematch_timer_.async_wait(
      [this, alive = std::weak_ptr<bool>(alive_),
       no_rematch = std::move(no_rematch)](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        spdlog::info("{}: no rematch; looking for another opponent", label_);
        no_rematch();
      });
}

void GameSeries::rematch_settled() { rematch_timer_.cancel(); }

void GameSeries::error(const std::string& what) {
  ++tally_.errors;
  spdlog::error("{}: {}", label_, what);
}

void GameSeries::count_resigned(const RoundKey& round) {
  counted_ = round;
  ++tally_.games;
  ++tally_.losses;
}

}  // namespace ttt::client
