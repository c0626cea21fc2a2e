// HouseBot: the server's own AI player. It sits in a room like any other
// participant and answers with ordinary client messages; its searches run on
// the compute executor, never on the network thread, and their results are
// posted back to the lobby's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "net/participant.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot : public Participant, public std::enable_shared_from_this<HouseBot> {
 public:
  // Where the bot's requests go (the lobby's receive), on the logic executor.
  using Send = std::function<void(const std::shared_ptr<Participant>&, const wire::ClientMessage&)>;

  HouseBot(PlayerId id, AiOptions options, boost::asio::any_io_executor logic,
            boost::asio::any_io_executor compute, Send send);

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

  PlayerId id_;
  AiOptions options_;
  boost::asio::any_io_executor logic_;
  boost::asio::any_io_executor compute_;
  Send send_;
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
