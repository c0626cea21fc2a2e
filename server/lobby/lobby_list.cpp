// The Lobby's game list (one filtered page at a time, private games shown
// to their own players only) and invite codes (made by the cryptographic
// generator; wrong tries limited per connection and per address).
#include <spdlog/spdlog.h>

#include <algorithm>

#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"

namespace ttt::server {

Listing Lobby::listing_of(const GameRoom& room) {
  return Listing{
      room.summary(), room.seated_accounts(), {}, invite_key(room.settings().invite_code)};
}

void Lobby::list_games(LobbyPlayer& player, const wire::ListGames& request,
                       std::uint32_t request_id) {
  if (request.name().size() > kMaxNameBytes) {
    error(player, wire::ERROR_CODE_BAD_REQUEST,
          "a name to look for is at most " + std::to_string(kMaxNameBytes) + " bytes", request_id);
    return;
  }
  if (!links_.directory.complete()) {
    error(player, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
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
  // Whatever is asked, a page is small: no list can outgrow a send queue.
  const std::uint32_t asked =
      request.page_size() == 0 ? config_.list_page_size : request.page_size();
  query.page_size =
      std::clamp<std::uint32_t>(asked, 1, std::max<std::uint32_t>(config_.list_page_max, 1));
  query.viewer = player.account;
  ListPage page = links_.directory.list(query);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::GameList* list = message.mutable_game_list();
  for (auto& summary : page.games) *list->add_games() = std::move(summary);
  list->set_total(static_cast<std::uint32_t>(page.total));
  list->set_next_after(number(page.next_after));
  list->set_page_size(static_cast<std::uint32_t>(query.page_size));
  reply(player, std::move(message));
}

bool Lobby::may_try_invite(LobbyPlayer& player, std::uint32_t request_id) {
  auto* connection = static_cast<Connection*>(player.connection);
  const auto now = RateLimiter::Clock::now();
  double wait = invite_failures_.wait_seconds(player.address, now);
  if (connection != nullptr && !connection->invite_failures.would_allow(now)) {
    wait = std::max(wait, 1.0);
  }
  if (wait == 0.0) return true;
  error(player, wire::ERROR_CODE_RATE_LIMITED,
        "too many wrong invite codes: try again in " +
            std::to_string(static_cast<int>(std::max(1.0, wait + 0.999))) + " s",
        request_id);
  return false;
}

void Lobby::invite_failed(LobbyPlayer& player) {
  const auto now = RateLimiter::Clock::now();
  if (auto* connection = static_cast<Connection*>(player.connection)) {
    connection->invite_failures.allow(now);
  }
  if (!player.address.empty()) invite_failures_.allow(player.address, now);
}

bool Lobby::invite_admits(LobbyPlayer& player, const Listing& listing, std::string_view code,
                          std::uint32_t request_id) {
  // A node from before invite keys lists none: its own check decides.
  if (!listing.summary.is_private() || listing.invite_key.empty()) return true;
  if (!may_try_invite(player, request_id)) return false;
  if (!equal_constant_time(invite_key(code), listing.invite_key)) {
    invite_failed(player);
    error(player, wire::ERROR_CODE_WRONG_INVITE_CODE,
          "game " + std::to_string(listing.summary.game_id()) +
              " is private: a matching invite code is needed",
          request_id);
    return false;
  }
  return true;
}

std::string Lobby::new_invite_code() {
  for (;;) {
    std::string code = random_invite_code();
    if (!invites_.contains(code)) return display_invite_code(code);
  }
}

}  // namespace ttt::server
