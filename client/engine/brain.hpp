// Brain: what chooses a player's moves — ttt's own AI (AiBrain) or an outside
// engine speaking the Gomocup protocol (EngineBrain) — so that ttt-bot and
// ttt-arena play either one the same way.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ttt/board.hpp"

namespace ttt::client {

// One move to choose, and the time for it.
struct Turn {
  Board board{3};                           // a position of play, not over
  Player me = Player::X;                    // the player to move
  std::optional<Move> last_move;            // the opponent's last move, if any
  std::chrono::milliseconds time{200};      // for this move
  std::chrono::milliseconds match_time{0};  // per side for the whole game; 0 = no limit
  std::chrono::milliseconds match_left{0};  // what is left of it (match_time > 0)
  std::uint64_t variation = 0;              // varies a deterministic brain's choices between games
};

// A chosen move, or why there is none.
struct BrainMove {
  std::optional<Move> move;
  std::string failure;  // set when move is empty: what went wrong, in one line
};

class Brain {
 public:
  virtual ~Brain() = default;

  // A legal move for turn.me, chosen within turn.time (an engine may take
  // its grace on top; past that it has failed). Blocks the calling thread;
  // one call at a time. After a failure the brain is reset: the next call
  // starts afresh (an engine process is started again).
  virtual BrainMove choose(const Turn& turn) = 0;

  // Whether the brain can play size×size boards won by win_length in a row
  // (an engine is started to find out); why not in `why`.
  virtual bool plays(int size, int win_length, std::string& why) = 0;

  // The game being played is over; the next call of choose is a new game.
  virtual void game_over() {}

  // How messages name it: "hard", "engine 'pbrain-foo'".
  virtual std::string name() const = 0;
};

}  // namespace ttt::client
