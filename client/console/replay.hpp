// Replay: a finished game from the server's records (GetReplay), shown one
// move at a time. Each step is the board after that move, drawn by the
// board renderer with the move marked, headed by the move's number, its time
// into the game and who played it; the last step also has the winning line
// and the `Game over:` line. Pure: the console client decides when to step.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "console/board_render.hpp"
#include "console/record_text.hpp"
#include "ttt.pb.h"
#include "ttt/rules.hpp"

namespace ttt::client {

class Replay {
 public:
  // The replay of a record, or nullopt (with why in error) when its size, win
  // length or moves do not make a legal game: X first, turns alternating, each cell
  // on the board and empty.
  static std::optional<Replay> of(const wire::GameRecord& record, std::string& error);

  // What the game was: "Replay of record 17 (game 9), 2026-11-22 14:03: 3x3,
  // rated." (15x15, 5 in a row, rated. when k in a row wins) then "alice (X) vs bob (O): X wins
  // (row 1) in 5 moves.".
  std::string header(TimeZone zone) const;

  // How many moves the game had, and how many have been shown.
  std::size_t moves() const noexcept { return boards_.size(); }
  std::size_t shown() const noexcept { return shown_; }
  bool done() const noexcept { return shown_ >= boards_.size(); }

  // Shows the next move: "Move 3 of 5 (+4.2 s): alice (X) played b2." and
  // the board after it; after the last move also the result. Precondition:
  // !done().
  std::string next(RenderStyle style);

 private:
  explicit Replay(wire::GameRecord record) : record_(std::move(record)) {}

  std::string mover_text(std::size_t ply) const;

  wire::GameRecord record_;
  std::vector<Board> boards_;  // the board after each move
  std::size_t shown_ = 0;
};

}  // namespace ttt::client
