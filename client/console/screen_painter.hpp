// ScreenPainter: the full screen drawn whole with ncurses from what it
// shows (a ScreenView): the board with its cursor, last move and winning
// line; beside it the players, their ratings and running clocks, whose turn
// it is and the offers; out of a game the lobby's games and players; the
// log; the input line; the keys' help over it all. Laid out for the
// terminal's size at each draw (screen_layout).
#pragma once

#include <chrono>
#include <string>

#include "console/board_cursor.hpp"
#include "console/screen_layout.hpp"
#include "console/screen_log.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// What the full screen shows.
struct ScreenView {
  const wire::GameState* game = nullptr;  // null: the lobby's lists instead
  wire::Side me = wire::SIDE_NONE;        // the side this client plays
  // When the game's state came: its clocks run on from then.
  std::chrono::steady_clock::time_point game_at{};
  const wire::GameList* lobby_games = nullptr;  // null: not in yet
  const wire::PlayerList* lobby_players = nullptr;
  Move cursor{0, 0};
  std::string input_line;  // the prompt and what is typed
  bool help = false;       // the keys' help shown over the screen
};

class ScreenPainter {
 public:
  // Marks and the winning line in colour (curses' colour pairs 1 to 3 set
  // up: X, O, the winning line).
  void use_color_pairs() noexcept { color_pairs_ = true; }

  // Lays the screen out for its size now and draws view, with the rows of
  // log that fit.
  void draw(const ScreenView& view, ScreenLog& log);

  // Where things went at the last draw (a click's cell, the log's height).
  const ScreenLayout& layout() const noexcept { return layout_; }

 private:
  void draw_board(const ScreenView& view);
  void draw_panel(const ScreenView& view);
  void draw_lobby(const ScreenView& view);
  void draw_log(ScreenLog& log);
  void draw_input(const ScreenView& view);
  void draw_help();
  // text at (line, column), cut to width display columns.
  void put(int line, int column, const std::string& text, int width, int attributes = 0);

  bool color_pairs_ = false;
  ScreenLayout layout_;
};

}  // namespace ttt::client
