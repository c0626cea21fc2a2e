#include "console/game_list_query.hpp"

#include "console/command_request.hpp"

namespace ttt::client {

std::optional<wire::ListGames> GameListQuery::request(const Command& list, std::string& why) {
  why.clear();
  if (in_flight_) {
    waiting_.push_back(list);
    return std::nullopt;
  }
  if (list.next_page) {
    if (next_after_ == 0) {
      why = "No more games in that list: /list starts it again.";
      return std::nullopt;
    }
    wire::ListGames next = last_;
    next.set_after(next_after_);
    asked_next_ = true;
    in_flight_ = true;
    return next;
  }
  wire::ListGames first = request_for(list)->list_games();
  last_ = first;
  asked_next_ = false;
  in_flight_ = true;
  return first;
}

std::optional<Command> GameListQuery::take_waiting() {
  if (in_flight_ || waiting_.empty()) return std::nullopt;
  Command next = std::move(waiting_.front());
  waiting_.pop_front();
  return next;
}

std::string GameListQuery::on_page(const wire::GameList& page) {
  if (!asked_next_) shown_ = 0;
  asked_next_ = false;
  in_flight_ = false;
  const auto first = shown_ + 1;
  shown_ += static_cast<std::uint32_t>(page.games_size());
  next_after_ = page.next_after();
  if (page.games_size() == 0 || (first == 1 && next_after_ == 0)) return "";
  std::string line = "Games " + std::to_string(first) + "-" + std::to_string(shown_) + " of " +
                     std::to_string(page.total());
  return line + (next_after_ != 0 ? ": /list next for more." : ".");
}

}  // namespace ttt::client
