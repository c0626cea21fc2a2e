// LobbyLists: the lobby's lists as the player asks for them, each a page at
// a time through the Pager: the games (/list [next] with its filters, in
// GameListQuery) and the players online (/who [next] [NAME]), with a line
// saying which part of the list a page is and how to get the next (and,
// under a page of games, where a browser watches them).
#pragma once

#include <cstdint>
#include <string>

#include "console/command.hpp"
#include "console/game_list_query.hpp"
#include "console/pager.hpp"
#include "console/request_sender.hpp"
#include "console/terminal.hpp"
#include "console/watch_links.hpp"

namespace ttt::client {

class LobbyLists {
 public:
  LobbyLists(Terminal& terminal, Pager& pager, RequestSender& sender, const WatchLinks& links)
      : terminal_(terminal), pager_(pager), sender_(sender), links_(links) {}

  // /list and /who: true when the command was one of them (carried out).
  bool execute(const Command& command);

  // A page of games; a /list typed while it was on its way goes now.
  void on_game_list(const wire::GameList& page);

  // A page of players online.
  void on_player_list(const wire::PlayerList& page);

 private:
  void say(const std::string& line);

  Terminal& terminal_;
  Pager& pager_;
  RequestSender& sender_;
  const WatchLinks& links_;
  GameListQuery games_;
  std::string who_filter_;       // the name /who filters by
  std::string who_next_;         // where /who next starts; empty: no next page
  std::uint32_t who_shown_ = 0;  // players shown of this /who so far
};

}  // namespace ttt::client
