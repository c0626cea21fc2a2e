// GameCommentary: the game told on the terminal as it goes. Who plays what
// when a game is joined, the board after every change with the move in
// words (a screen that draws the game itself gets only the lines around
// it), the result once, rematches, a free seat taken, offers made and
// ended, the opponent's comings and goings, how many watch; where a
// browser watches the game, when the server has a web client.
#pragma once

#include <optional>
#include <string>

#include "console/current_game.hpp"
#include "console/terminal.hpp"
#include "console/watch_links.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

class GameCommentary {
 public:
  // Tells `game` (which it reads as it is now) on terminal.
  GameCommentary(Terminal& terminal, const CurrentGame& game, const WatchLinks& links)
      : terminal_(terminal), game_(game), links_(links) {}

  // The game was joined: "You play X in game 4.", "Back in game 4 as X."
  // (resumed), "Watching game 4." with where a browser watches it (unless
  // said already), a private game's invite code, and the board.
  void joined(const wire::Joined& joined, bool resumed, bool said_already);

  // The game moved on from `before` to its current state.
  void changed(const wire::GameState& before);

  // An offer of the current game ended.
  void offer_ended(const wire::OfferEnded& ended);

  // The opponent went away, came back or left (named when the player is
  // seated).
  void opponent(const wire::OpponentStatus& status);

  // How many watch the current game now.
  void spectators(const wire::SpectatorCount& count);

 private:
  // The board with who plays whom, the result once (with where a browser
  // replays the game), and whose turn it is; headline, if any, first (e.g.
  // the opponent's move in words).
  void show(const wire::GameState& state, const std::string& headline = "");
  void say(const std::string& line);

  Terminal& terminal_;
  const CurrentGame& game_;
  const WatchLinks& links_;
  std::optional<RoundKey> announced_end_;  // the round whose result was said
};

}  // namespace ttt::client
