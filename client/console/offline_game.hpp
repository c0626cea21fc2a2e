// OfflineGame: ttt-client without a server, as in the origin front end:
// hot-seat (--local) or X against the AI (-a), any size (-k) and win length
// (--win), and -v to print
// the board as its X/O/E list after each move.
#pragma once

#include <istream>
#include <ostream>

#include "ttt/ai.hpp"

namespace ttt::client {

struct OfflineOptions {
  int size = 3;
  int win_length = 0;  // marks in a line that win; 0 = the size (whole lines)
  bool vs_ai = false;  // the AI plays O
  Level level = Level::Perfect;
  bool verbose = false;  // print the X/O/E list after each move
  bool color = false;
  bool prompts = false;  // print a prompt before reading (on a terminal)
};

// Plays one game, reading moves from in and writing to out. Returns the exit
// code: 0 when the game ends, or when the player quits or input ends early.
int play_offline(const OfflineOptions& options, std::istream& in, std::ostream& out);

}  // namespace ttt::client
