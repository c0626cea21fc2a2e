#include "console/lobby_panel.hpp"

namespace ttt::client {

void LobbyPanel::refresh(time_point now) {
  constexpr std::uint32_t kPanelRows = 20;  // the panel shows no more
  if (games_request_ != 0 || players_request_ != 0 || now - asked_at_ < kEvery) return;
  asked_at_ = now;
  wire::ClientMessage games;
  games.mutable_list_games()->set_page_size(kPanelRows);
  games_request_ = sender_.send_quietly(games);
  wire::ClientMessage players;
  players.mutable_list_players()->set_page_size(kPanelRows);
  players_request_ = sender_.send_quietly(players);
}

bool LobbyPanel::take(const wire::ServerMessage& message) {
  const std::uint32_t id = message.in_reply_to();
  if (id == 0 || (id != games_request_ && id != players_request_)) return false;
  if (id == games_request_) {
    games_request_ = 0;
    if (message.has_game_list()) games_ = message.game_list();
  } else {
    players_request_ = 0;
    if (message.has_player_list() && games_) terminal_.show_lobby(*games_, message.player_list());
  }
  return true;
}

}  // namespace ttt::client
