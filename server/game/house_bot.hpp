// HouseBot: the server's own AI player. It sits in a room like any other
// participant and answers with ordinary client messages through its inbox,
// as a connection would; its searches wait their turn in the BotSearchQueue
// (under its opponent's share) and run on the compute executor, never on the
// network thread, and their results are posted back to the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "game/bot_search_queue.hpp"
#include "ids.hpp"
#include "net/inbox.hpp"
#include "net/participant.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot : public Participant, public std::enable_shared_from_this<HouseBot> {
 public:
  // share: whose turn in the queue the bot's searches take (its human
  // opponent's address).
  HouseBot(SeatId id, AiOptions options, boost::asio::any_io_executor logic,
           BotSearchQueue& searches, std::string share);

  // Where the bot's requests go, as a connection's do.
  void attach(std::shared_ptr<Inbox> inbox) { inbox_ = std::move(inbox); }

  // Reacts to game states: moves on its turn, accepts rematches, leaves when
  // its opponent has left. Runs on the logic executor.
  void deliver(const Outbound& message) override;
  void close() override {}

 private:
  void on_state(const wire::GameState& state);
  void think(const wire::GameState& state, Player me);
  // Searches on the compute executor and sends the move from the logic one.
  void search(const Board& board, Player me, const AiOptions& options, std::uint64_t game_id);
  void send(wire::ClientMessage message);

  SeatId id_;
  AiOptions options_;
  boost::asio::any_io_executor logic_;
  BotSearchQueue& searches_;
  std::string share_;
  std::shared_ptr<Inbox> inbox_;
  static constexpr std::uint64_t kNotSearched = ~std::uint64_t{0};
  static constexpr std::chrono::seconds kRetryPause{1};
  // The position last searched (round, move count), so it is searched once.
  std::uint64_t searched_ = kNotSearched;
  // The server refused our last move for a storage failure: wait before
  // moving again.
  bool retry_after_failure_ = false;
  boost::asio::steady_timer retry_timer_;
  bool asked_rematch_ = false;
};

}  // namespace ttt::server
