// FullScreen: ttt-client's full-screen mode (ncurses). The board stays in
// place with a cursor on it (arrow keys or hjkl move it, Enter or space
// places a mark, a mouse click places one on the cell clicked); beside it
// both players with their ratings and clocks and whose turn it is; below,
// the log of everything the client says (chat, moves in words, results),
// scrollable with PgUp and PgDn; at the bottom the input line, where typed
// moves (b2) and /commands still work. Out of a game the lobby's open games
// and the players online stay on screen, updated live. `?` shows the keys.
// Redrawn whole on every change and on a resize; colour only where the
// line mode would use it (never with NO_COLOR). Every string from the
// server reaches it through the client's safe_text (as in line mode).
// FullScreen is the Terminal and the keys; what it shows is drawn by
// ScreenPainter, its log kept by ScreenLog, its cursor by BoardCursor.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "console/board_cursor.hpp"
#include "console/screen_log.hpp"
#include "console/screen_painter.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class FullScreen final : public Terminal {
 public:
  // Takes over the terminal (standard input and output): call only when
  // both are terminals.
  explicit FullScreen(ColorChoice color);
  ~FullScreen() override;

  // Reads the keys waiting on standard input (call when it is readable).
  void pump_keys();
  // The terminal changed size (SIGWINCH): lays out and draws again.
  void on_resize();

  // Terminal
  void begin_input(OnLine on_line, OnEnd on_end) override;
  void feed(std::string_view bytes) override;
  void print(std::string_view text) override;
  void bell() override;
  ScreenSize size() const override;
  void set_prompt(std::string prompt) override;
  void restore() override;
  bool draws_game() const override { return true; }
  void show_game(const wire::GameState* game, wire::Side me) override;
  bool shows_lobby() const override { return true; }
  void show_lobby(const wire::GameList& games, const wire::PlayerList& players) override;

 private:
  void key(int code, bool is_character);
  // Enter or space on an empty input line, or a click: the cursor's cell.
  void place(Move cell);
  void move_cursor(int rows, int cols);
  void submit_line();
  void say(const std::string& line);  // a line of ours in the log
  // Draws the whole screen from what it shows now.
  void draw();

  bool active_ = false;  // curses owns the terminal
  ScreenPainter painter_;
  std::optional<wire::GameState> game_;
  wire::Side me_ = wire::SIDE_NONE;
  std::chrono::steady_clock::time_point game_at_{};  // when game_ last changed
  std::optional<wire::GameList> lobby_games_;
  std::optional<wire::PlayerList> lobby_players_;
  BoardCursor cursor_;
  ScreenLog log_;  // every line said
  std::string input_;
  std::string prompt_ = "> ";
  bool help_ = false;
  bool ended_ = false;
  OnLine on_line_;
  OnEnd on_end_;
};

}  // namespace ttt::client
