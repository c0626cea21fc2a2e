// EngineLoop: ttt's AI as a Gomocup engine (ttt-engine): it reads the
// manager's commands line by line and writes its answers, so ttt plays in any
// Gomocup manager (Piskvork, GomocupJudge, ttt-arena, ttt-bot --engine).
//
// Commands: START N, RECTSTART N,N (square only), RESTART, BEGIN, TURN x,y,
// BOARD ... DONE, TAKEBACK x,y, PLAY x,y, INFO key value (timeout_turn,
// timeout_match, time_left, rule, and ttt's ttt_win_length), ABOUT, END;
// anything else is answered UNKNOWN, once (SWAP2BOARD and YXBOARD with their
// lines to DONE). Boards 3 to 20; five in a row wins (freestyle, or exactly
// five with INFO rule 1) unless INFO ttt_win_length says otherwise (a board
// under 5 is won by its whole line). A bad command is answered ERROR with the
// reason.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ttt/ai.hpp"

namespace ttt::client {

struct EngineLoopOptions {
  AiOptions ai;  // level and seed; ai.budget is the time per move when the manager sends none
};

class EngineLoop {
 public:
  EngineLoop(EngineLoopOptions options, std::ostream& out);

  // Handles one line from the manager (answers, if any, written to out).
  void handle(std::string_view line);

  // True after END: the program exits.
  bool ended() const noexcept { return ended_; }

  // The time the next move may take (from the INFO values), for tests.
  std::chrono::milliseconds move_budget() const;

 private:
  enum Field { kEmpty = 0, kOwn = 1, kTheirs = 2 };

  void start(int size);
  void info(std::string_view key, std::string_view value);
  void turn(std::string_view args);
  void board_line(std::string_view line);
  void takeback(std::string_view args);
  void play(std::string_view args);
  // Chooses, places and answers the engine's move (or answers ERROR).
  void move();
  // The cell a command names, checked against the board; empty answer ERROR.
  bool parse_cell(std::string_view args, std::string_view command, int& index);
  void answer(const std::string& line);
  void error(const std::string& why);

  EngineLoopOptions options_;
  std::ostream& out_;
  int size_ = 0;                 // 0 before START
  int win_length_ = 0;           // from INFO ttt_win_length; 0 = five (the size below 5)
  std::vector<int> fields_;      // Field per cell, row-major
  int moves_ = 0;                // stones on the board
  bool in_board_ = false;        // between BOARD and DONE
  std::string board_error_;      // the first bad line of a BOARD block
  long long timeout_turn_ = -1;  // ms; -1: not sent
  long long time_left_ = -1;     // ms; -1 or kUnlimitedMs: no limit
  std::string note_;             // a MESSAGE to send before the next move
  GomokuRule rule_ = GomokuRule::Freestyle;  // from INFO rule
  std::string unknown_block_;                // a block command being skipped to its DONE
  bool ended_ = false;
};

}  // namespace ttt::client
