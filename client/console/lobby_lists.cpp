#include "console/lobby_lists.hpp"

#include "console/game_text.hpp"
#include "console/players_text.hpp"
#include "console/screen_fit.hpp"
#include "text/display_width.hpp"

namespace ttt::client {

bool LobbyLists::execute(const Command& command) {
  wire::ClientMessage m;
  switch (command.kind) {
    case CommandKind::List: {
      std::string why;
      auto request = games_.request(command, why);
      if (!request) {
        if (!why.empty()) say(why);  // empty: it waits for the page on its way
        return true;
      }
      *m.mutable_list_games() = std::move(*request);
      sender_.send(m, true);
      return true;
    }
    case CommandKind::Who:
      if (command.next_page) {
        if (who_next_.empty()) {
          say("There is no next page: /who shows the players online from the first.");
          return true;
        }
        m.mutable_list_players()->set_name(who_filter_);
        m.mutable_list_players()->set_after(who_next_);
      } else {
        who_filter_ = command.text;
        who_shown_ = 0;
        m.mutable_list_players()->set_name(command.text);
      }
      sender_.send(m, true);
      return true;
    default:
      return false;
  }
}

void LobbyLists::on_game_list(const wire::GameList& page) {
  const std::string footer = games_.on_page(page);
  const std::size_t width = screen_width(terminal_);
  const std::string link = links_.any_game();
  pager_.show(game_list_text(page, width) + "\n" +
              (footer.empty() ? "" : wrap_text(footer, width) + "\n") +
              (link.empty() ? "" : wrap_text("In a browser: " + link, width) + "\n"));
  // A /list typed while this page was on its way goes now (and the next
  // after its page).
  while (auto waiting = games_.take_waiting()) execute(*waiting);
}

void LobbyLists::on_player_list(const wire::PlayerList& page) {
  std::string text = player_list_text(page, screen_width(terminal_));
  const auto first = who_shown_ + 1;
  who_shown_ += static_cast<std::uint32_t>(page.players_size());
  who_next_ = page.next_after();
  if (!who_next_.empty() || first > 1) {
    text += "\nPlayers " + std::to_string(first) + "-" + std::to_string(who_shown_) + " of " +
            std::to_string(page.total()) + (who_next_.empty() ? "." : ": /who next for more.");
  }
  if (who_next_.empty()) who_shown_ = 0;
  pager_.show(text + "\n");
}

void LobbyLists::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
