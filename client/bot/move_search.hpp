// MoveSearch: a bot's moves, chosen by its Brain (ttt's AI, or an outside
// engine). A search runs on the compute executor (a thread pool), one at a
// time, within the time the game's clocks allow; its move is posted back to
// the I/O executor and sent only if the game still stands where the search
// started, so I/O never waits on a search and no stale move goes out. A
// move the server could not save is searched and sent again after a pause.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bot/bot_options.hpp"
#include "engine/brain.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

class MoveSearch {
 public:
  // What a search needs of its bot.
  class Owner {
   public:
    virtual ~Owner() = default;
    // The game the bot sits in (null: none), and its side there.
    virtual const wire::GameState* game() const = 0;
    virtual wire::Side side() const = 0;
    // The bot is stopping: nothing more is searched for or sent.
    virtual bool finishing() const = 0;
    virtual bool connected() const = 0;
    // Sends a move: its request id, or 0 when it could not go.
    virtual std::uint32_t send_move(wire::ClientMessage move) = 0;
    // A board that can't be read, or a move the brain chose that is illegal.
    virtual void error(const std::string& what) = 0;
    // The brain could not move (why); current: in the position being played
    // now.
    virtual void brain_failed(const std::string& why, bool current) = 0;
  };

  // brain's searches run on compute and report back on io; label names the
  // bot in its log; the options (engine, time per move, pauses) are read as
  // they are.
  MoveSearch(Owner& owner, boost::asio::any_io_executor io, boost::asio::any_io_executor compute,
             std::shared_ptr<Brain> brain, std::string label, const BotOptions& options);

  // The bot's turn in state: a search of the position, unless one is
  // running (the position is looked at again when it ends) or this
  // position was searched or moved in already.
  void think(const wire::GameState& state);

  // A new link (a Welcome): positions may be searched and moved in again.
  void reset() noexcept;

  // The server could not save the bot's move (STORAGE): the position is
  // searched and moved in again after options.storage_retry.
  void retry_later();

  // No more retries (the bot stops).
  void stop() { retry_timer_.cancel(); }

  // The brain the bot plays with (for checking it before connecting).
  Brain& brain() noexcept { return *brain_; }

 private:
  // One position of one game: a search answers exactly one.
  struct Position {
    RoundKey round;
    std::uint32_t move_count = 0;
    friend bool operator==(const Position&, const Position&) = default;
  };
  static Position position_of(const wire::GameState& state) noexcept;

  // The search came back with a move: sent if the position still stands.
  void play(Position position, Move move);
  void failed(Position position, const std::string& why);
  // After a search: thinks again if the game moved on meanwhile.
  void search_done(Position searched);
  void retry();

  Owner& owner_;
  boost::asio::any_io_executor io_;
  boost::asio::any_io_executor compute_;
  std::string label_;
  const BotOptions& options_;
  std::shared_ptr<Brain> brain_;
  std::optional<Position> searching_;      // the position a search is answering
  bool search_running_ = false;            // a brain call is in flight
  std::optional<Position> moved_;          // the last position a move was sent for
  boost::asio::steady_timer retry_timer_;  // moving again after a STORAGE refusal
  // Expires with this object: a search or pause that ends after it is gone
  // does nothing.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace ttt::client
