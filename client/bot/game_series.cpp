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
  if (!is_over(state)) return false;
  return round_over(round_key(state), state.status(), state.end_reason(), me);
}

bool GameSeries::round_over(const RoundKey& round, wire::GameStatus status, wire::EndReason reason,
                            wire::Side me) {
  if (counted_ == round) return false;
  counted_ = round;
  count_result(round, status, reason, me);
  return true;
}

void GameSeries::count_result(const RoundKey& round, wire::GameStatus status,
                              wire::EndReason reason, wire::Side me) {
  if (reason == wire::END_REASON_ABORTED) {
    error("game " + std::to_string(round.game_id) + " was aborted by the server");
    return;
  }
  ++tally_.games;
  const wire::Side winner = status == wire::GAME_STATUS_X_WON   ? wire::SIDE_X
                            : status == wire::GAME_STATUS_O_WON ? wire::SIDE_O
                                                                : wire::SIDE_NONE;
  if (winner == wire::SIDE_NONE) {
    ++tally_.draws;
  } else if (winner == me) {
    ++tally_.wins;
  } else {
    ++tally_.losses;
  }
  if (games_ > 0) {
    spdlog::info("{}: game {} round {} over ({} of {})", label_, round.game_id, round.round,
                 tally_.games, games_);
  } else {
    spdlog::info("{}: game {} round {} over ({} so far)", label_, round.game_id, round.round,
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
