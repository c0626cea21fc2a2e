// GameSeries: the games a bot plays in a row and their tally. Each round's
// result is counted once (an aborted game is an error, not a game), and
// after each the series decides what comes next: the end (enough games),
// a new opponent (quick match, challenges), or a rematch asked for and
// waited for. Errors of any kind are counted here too, each logged once.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bot/bot_options.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

// What a bot did. Errors: refused moves, fatal server errors, refused entry,
// lost connections, protocol surprises and a failing brain (its game is
// resigned and counted as lost). A move the server could not save
// (STORAGE) is no error: the bot moves again after a pause.
struct BotTally {
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  int errors = 0;
  bool connect_failed = false;  // never got onto the server
  BotTally& operator+=(const BotTally& other);
};

class GameSeries {
 public:
  // What comes after a game.
  enum class Next { Finish, NewOpponent, Rematch };

  // label names the bot in its log; games: how many to play (0: no limit);
  // timers run on io.
  GameSeries(boost::asio::any_io_executor io, std::string label, int games, BotMode mode);

  // A state of the bot's game (it plays `me`): true when it ends a round
  // not counted yet, which is counted now.
  bool round_over(const wire::GameState& state, wire::Side me);
  // A round the bot learnt the end of without seeing it (its connection
  // dropped first): true when not counted yet, which it is now.
  bool round_over(const RoundKey& round, wire::GameStatus status, wire::EndReason reason,
                  wire::Side me);

  // After a counted round (or when finishing): what the bot does next.
  Next next(bool finishing) const;

  // A rematch was asked for: no_rematch runs if the game has not started
  // again within wait (see rematch_settled).
  void wait_for_rematch(std::chrono::milliseconds wait, std::function<void()> no_rematch);
  // The wait for a rematch is over (it started, or the bot moves on).
  void rematch_settled();

  // An error: logged once, at error level, and counted.
  void error(const std::string& what);
  // An error said elsewhere already: only counted.
  void count_error() { ++tally_.errors; }
  // The bot resigned round (its brain failed) and leaves at once: a game
  // lost, counted now since the result may never come.
  void count_resigned(const RoundKey& round);
  // The bot never got onto the server.
  void connect_failed() { tally_.connect_failed = true; }

  const BotTally& tally() const noexcept { return tally_; }

 private:
  void count_result(const RoundKey& round, wire::GameStatus status, wire::EndReason reason,
                    wire::Side me);

  std::string label_;
  int games_;
  BotMode mode_;
  BotTally tally_;
  std::optional<RoundKey> counted_;  // the last round whose result is counted
  boost::asio::steady_timer rematch_timer_;
  // Expires with this object: a wait that ends after it is gone does nothing.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace ttt::client
