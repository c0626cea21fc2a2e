// EngineBrain: an outside engine speaking the Gomocup protocol as a Brain —
// the bridge that lets gomoku engines play in ttt's lobby (ttt-bot --engine)
// and in ttt-arena. The engine runs as a child process (ChildProcess); the
// bridge sends START (RESTART for the next game), INFO timeout_turn /
// timeout_match / time_left / rule, then BEGIN, TURN x,y or BOARD ... DONE,
// and takes its answer "x,y".
//
// Every answer has a deadline (the turn's time plus the grace). An engine
// that crashes, prints garbage, answers a cell off the board or a taken one,
// refuses a command or runs out of time fails the move with a one-line reason
// naming what it did, and is killed; the next call starts it again.
//
// The Gomocup protocol knows only five in a row (it says nothing of k): the
// bridge plays boards won by 5 in a row, and other win lengths only with an
// engine whose ABOUT lists ttt_win_length="yes" (ttt-engine does), which is
// then told the win length with INFO ttt_win_length K.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/brain.hpp"
#include "engine/child_process.hpp"

namespace ttt::client {

struct EngineOptions {
  std::string command;  // shell syntax, e.g. "./pbrain-foo --hash 64"
  // How long past its turn time an engine may answer before it loses.
  std::chrono::milliseconds grace{1000};
  // For starting, ABOUT and START: loading an engine takes time.
  std::chrono::milliseconds start_timeout{15'000};
};

class EngineBrain final : public Brain {
 public:
  // How long a setup command may go unanswered before it is sent again.
  static constexpr std::chrono::milliseconds kResendAfter{1000};

  explicit EngineBrain(EngineOptions options);
  // Says END, gives the engine a moment to exit, then kills it.
  ~EngineBrain() override;

  BrainMove choose(const Turn& turn) override;
  // Starts the engine if needed; true for win length 5 (or any, with the
  // ttt_win_length extension). The board size is checked by START later.
  bool plays(int size, int win_length, std::string& why) override;
  void game_over() override;
  // "engine 'CMD'" (with the name ABOUT gave, once known).
  std::string name() const override;

  // The running engine's process id, or -1 (for tests).
  int pid() const noexcept;

 private:
  // The engine process running and introduced (ABOUT); false with why.
  bool ensure_started(std::string& why);
  // Whether the engine can be told turn's game by a TURN after what it has.
  bool continues(const Turn& turn) const;
  // START (or RESTART) and the game's INFO; false with why.
  bool new_game(const Turn& turn, std::string& why);
  bool send(const std::string& line, std::string& why);
  // Reads answers until one that is not MESSAGE or DEBUG; nullopt with why
  // on a timeout, a closed pipe or an over-long line.
  std::optional<std::string> answer(ChildProcess::Clock::time_point deadline,
                                    const std::string& command, std::string& why);
  // Sends a command of the setup (START, RESTART) and returns its answer. An
  // engine may drop a command that comes while it is still finishing its
  // last move (Rapfi's multi-threaded build does): when it says nothing for
  // kResendAfter, the command is sent once more. nullopt with why.
  std::optional<std::string> setup_answer(const std::string& command, std::string& why);
  // Sends a setup command and expects OK; false with why.
  bool expect_ok(const std::string& command, std::string& why);
  // The move the engine answers to command, checked against turn's board.
  BrainMove await_move(const std::string& command, const Turn& turn);
  // Why the engine's pipe closed: how it exited and what it said on stderr.
  std::string ended_text();
  // Kills the engine after a failure; the failure, named.
  BrainMove fail(const std::string& why);

  EngineOptions options_;
  std::unique_ptr<ChildProcess> process_;
  std::map<std::string, std::string> about_;
  bool knows_win_length_ = false;  // ABOUT listed ttt_win_length="yes"
  int started_size_ = 0;           // the size of the last START that was accepted
  bool in_game_ = false;           // a game is going on that TURN can continue
  std::optional<Board> known_;     // the board as the engine has it
  Player side_ = Player::X;        // the engine's side in that game
};

}  // namespace ttt::client
