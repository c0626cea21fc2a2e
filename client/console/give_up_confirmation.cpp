#include "console/give_up_confirmation.hpp"

#include <cctype>
#include <utility>

#include "view/state_view.hpp"

namespace ttt::client {

bool GiveUpConfirmation::ask(const Command& command) {
  const bool gives_up = command.kind == CommandKind::Resign || command.kind == CommandKind::Leave;
  if (!gives_up || !terminal_.interactive() || !game_.holds_seat()) return false;
  const wire::GameState& state = *game_.state();
  const wire::PlayerInfo& other = info_of(state, other_side(game_.side()));
  const std::string game =
      "game " + std::to_string(state.game_id()) + " against " + seat_name(other);
  terminal_.print(
      (command.kind == CommandKind::Resign
           ? "Resign " + game + "? Type y to confirm, anything else to play on."
           : "Leave " + game + "? That resigns it. Type y to confirm, anything else to play on.") +
      "\n");
  asked_ = command;
  return true;
}

std::optional<Command> GiveUpConfirmation::answer(const std::string& line) {
  std::optional<Command> command = std::exchange(asked_, std::nullopt);
  std::string answer;
  for (char c : line) {
    if (c != ' ' && c != '\t')
      answer += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (answer != "y" && answer != "yes") {
    terminal_.print("Playing on.\n");
    return std::nullopt;
  }
  return command;
}

}  // namespace ttt::client
