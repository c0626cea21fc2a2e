// LobbyPanel: the lobby's lists a full-screen terminal keeps on screen
// beside the log (Terminal::shows_lobby): the games and the players online,
// asked for every few seconds out of a game and handed to the terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "console/request_sender.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class LobbyPanel {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // The lists are asked for this often.
  static constexpr std::chrono::seconds kEvery{3};

  LobbyPanel(Terminal& terminal, RequestSender& sender) : terminal_(terminal), sender_(sender) {}

  // Out of a game, with the link up: asks for both lists when kEvery has
  // passed since the last time and their answers are in.
  void refresh(time_point now);

  // True when the message answered the panel (and was taken: the players'
  // list goes to the terminal with the games').
  bool take(const wire::ServerMessage& message);

 private:
  Terminal& terminal_;
  RequestSender& sender_;
  std::uint32_t games_request_ = 0;  // the lists on their way
  std::uint32_t players_request_ = 0;
  std::optional<wire::GameList> games_;
  time_point asked_at_{};
};

}  // namespace ttt::client
