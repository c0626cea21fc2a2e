// GameListQuery: the game list a player asked for with /list, as ListGames
// requests one page at a time (the server caps a page), and where the next
// page starts (/list next).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "console/command.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class GameListQuery {
 public:
  // The request /list asks for: a first page with the command's filters, or
  // (next_page) the page after the last one shown; nullopt, with why, when
  // there is no next page. A /list typed while a page is on its way (a
  // script types ahead) waits for that page, in order: nullopt with why
  // empty, and take_waiting() gives it back once the page is in.
  std::optional<wire::ListGames> request(const Command& list, std::string& why);

  // After on_page: the first /list that waited, if any.
  std::optional<Command> take_waiting();

  // A page arrived: remembers where the next one starts. Returns the line
  // under it ("Games 1-50 of 1234: /list next for more."), or "" for a list
  // that fits one page.
  std::string on_page(const wire::GameList& page);

 private:
  wire::ListGames last_;          // the filters of the list being paged
  std::uint64_t next_after_ = 0;  // 0: no next page
  std::uint32_t shown_ = 0;       // games shown of this list before the page
  bool asked_next_ = false;       // the page on its way continues the list
  bool in_flight_ = false;        // a page was asked for and has not come
  std::deque<Command> waiting_;   // /list typed while a page was on its way
};

}  // namespace ttt::client
