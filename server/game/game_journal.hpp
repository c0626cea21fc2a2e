// GameJournal: where a room makes its games durable. A room says nothing
// about a change until the journal has it: each call ends in done(true) once
// the change is stored (at once when nothing is kept), or done(false) if the
// write failed. Calls run on the logic executor and so do the dones.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "game/game_result.hpp"
#include "game/rating_book.hpp"
#include "ids.hpp"
#include "ttt/board.hpp"

namespace ttt::server {

// One round of a room, as it starts.
struct GameStart {
  GameId room{};
  std::uint32_t round = 1;
  int size = 3;
  int win_length = 3;  // marks in a line that win (the size: whole lines)
  AccountId x{};
  AccountId o{};
  bool rated = false;
  bool is_private = false;
  std::string invite_code;
  int bot_level = 0;  // bot_level_code (game/bot_level_code.hpp), 0 without the bot
  std::chrono::milliseconds clock_initial{0};  // a Fischer clock; 0 without one
  std::chrono::milliseconds clock_increment{0};
};

// How a game ended, with its effect on both accounts (none when aborted).
struct GameEnding {
  GameResult result;
  std::optional<Settlement> settlement;
};

// One accepted move as the journal keeps it.
struct MoveEntry {
  int ply = 0;  // from 0
  Move move;
  // With a Fischer clock: the mover's time left after the move (its
  // increment earned); 0 without one.
  std::chrono::milliseconds clock_left{0};
};

class GameJournal {
 public:
  using Done = std::function<void(bool ok)>;

  virtual ~GameJournal() = default;

  // A round starts with both seats filled; returns its record's id.
  virtual RecordId start(const GameStart& game, Done done) = 0;

  // A move was accepted; `end` is set when it ended the game.
  virtual void move(RecordId record, const MoveEntry& entry, const std::optional<GameEnding>& end,
                    Done done) = 0;

  // The game ended other than by a move (resignation, timeout, ...). The
  // game is over for its players whether or not this write succeeds.
  virtual void end(RecordId record, const GameEnding& ending, Done done) = 0;
};

}  // namespace ttt::server
