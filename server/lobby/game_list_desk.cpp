#include "lobby/game_list_desk.hpp"

#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::server {

Listing GameListDesk::listing_of(const GameRoom& room) {
  return Listing{
      room.summary(), room.seated_accounts(), {}, invite_key(room.settings().invite_code)};
}

void GameListDesk::list(LobbyPlayer& player, const wire::ListGames& request,
                        std::uint32_t request_id) {
  if (request.name().size() > kMaxNameBytes) {
    replies_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                   "a name to look for is at most " + std::to_string(kMaxNameBytes) + " bytes",
                   request_id);
    return;
  }
  if (!directory_.complete()) {
    replies_.error(
        player, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
        "the game list of the lobby's other nodes can't be reached now: try again in a moment",
        request_id);
    return;
  }
  ListQuery query;
  query.size = request.size();
  query.win_length = request.win_length();
  query.rated = request.rated();
  query.open_only = request.open_only();
  query.name = request.name();
  query.after = GameId{request.after()};
  query.page_size = paging_.length(request.page_size());
  query.viewer = player.account;
  ListPage page = directory_.list(query);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::GameList* list = message.mutable_game_list();
  for (auto& summary : page.games) *list->add_games() = std::move(summary);
  list->set_total(static_cast<std::uint32_t>(page.total));
  list->set_next_after(number(page.next_after));
  list->set_page_size(static_cast<std::uint32_t>(query.page_size));
  replies_.reply(player, std::move(message));
}

}  // namespace ttt::server
