// GameEntry: how a bot asks the server for a game in its mode (QuickMatch,
// JoinGame, CreateGame, Challenge; one that takes challenges asks for
// nothing), and asks again after a pause while nodes refuse to find one
// (draining, or their shared state out of reach), for up to the retry
// period.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bot/bot_options.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class GameEntry {
 public:
  // The bot's options are read as they are at each request.
  GameEntry(boost::asio::any_io_executor io, std::string label, const BotOptions& options);

  // The request that asks for a game now, or nullopt in a mode that asks
  // for none (the challenges come).
  std::optional<wire::ClientMessage> request();

  // True once the bot has asked for a game (on this link or an earlier one).
  bool asked() const noexcept { return asked_; }

  // A node refused to find a game: again runs after options.enter_retry,
  // and true; false (nothing runs) once nodes have refused for longer than
  // the retry period, which makes the refusal the bot's error.
  bool ask_again_later(std::function<void()> again);

  // A node took the entry (the bot joined a game or a queue): refusals are
  // counted afresh from the next.
  void taken() noexcept { refused_since_.reset(); }

  // No more asking (the bot stops).
  void stop() { timer_.cancel(); }

 private:
  std::string label_;
  const BotOptions& options_;
  bool asked_ = false;
  boost::asio::steady_timer timer_;
  // When nodes began refusing to find a game; none while they don't.
  std::optional<std::chrono::steady_clock::time_point> refused_since_;
  // Expires with this object: a pause that ends after it is gone does nothing.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace ttt::client
