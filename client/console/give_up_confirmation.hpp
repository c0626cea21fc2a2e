// GiveUpConfirmation: on a terminal, /resign and /leave in a game in
// progress ask first ("Resign game 4 against bob? Type y to confirm,
// anything else to play on."); the next line typed is the answer.
#pragma once

#include <optional>
#include <string>

#include "console/command.hpp"
#include "console/current_game.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class GiveUpConfirmation {
 public:
  GiveUpConfirmation(Terminal& terminal, const CurrentGame& game)
      : terminal_(terminal), game_(game) {}

  // A command about to be carried out: true when it gives a seated game
  // up on a terminal, and now waits for the answer (asked).
  bool ask(const Command& command);

  // True while a question waits for its answer.
  bool waiting() const noexcept { return asked_.has_value(); }

  // The line typed after the question: the command to carry out now on y
  // (or yes), else nullopt ("Playing on.").
  std::optional<Command> answer(const std::string& line);

  // The game is left: no question stands.
  void drop() noexcept { asked_.reset(); }

 private:
  Terminal& terminal_;
  const CurrentGame& game_;
  std::optional<Command> asked_;  // /resign or /leave waiting for y
};

}  // namespace ttt::client
