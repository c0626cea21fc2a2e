// Terminal: the console client's screen in line mode. On a real terminal
// (stdin and stdout both TTYs) it keeps a prompt and the half-typed line at
// the bottom and prints server events above it; otherwise it writes plain
// lines for scripts. The full-screen client (FullScreen, full_screen.hpp)
// is a Terminal too: it draws the game itself (draws_game) and keeps the
// lobby's lists on screen (shows_lobby). Colour only on a terminal (unless the user forces it), and
// never with NO_COLOR set, whatever the user asks. A terminal whose locale is not UTF-8 gets ASCII
// only (ascii_fallback), so that no byte of a UTF-8 name can act as an 8-bit control there.
#pragma once

#include <termios.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "console/line_editor.hpp"
#include "ttt.pb.h"

namespace ttt::client {

enum class ColorChoice { Auto, Always, Never };

// Whether to use colour: never while NO_COLOR is set (non-empty), whatever
// the choice; otherwise Always/Never as told, and Auto when stdout is a
// terminal.
bool use_color(ColorChoice choice, bool stdout_is_tty, const char* no_color_env) noexcept;

// A terminal's size in character cells.
struct ScreenSize {
  std::size_t rows = 24;
  std::size_t columns = 80;
};

class Terminal {
 public:
  using OnLine = std::function<void(std::string line)>;
  using OnEnd = std::function<void()>;
  using Writer = std::function<void(std::string_view text)>;

  // Standard input and output (and standard error for errors).
  explicit Terminal(ColorChoice color);
  // A stand-in for tests and fuzzing: everything written goes to write, as
  // on a terminal of `size` (interactive) or as in line mode; no terminal
  // settings are touched.
  Terminal(bool interactive, bool color, Writer write, ScreenSize size = {});
  // Puts the terminal back as it was.
  virtual ~Terminal();

  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // True when the user types at a terminal: prompt, line editing, redraws.
  bool interactive() const noexcept { return interactive_; }
  bool color() const noexcept { return color_; }

  // Switches an interactive terminal to character input (no echo; the editor
  // echoes). Lines and the end of input go to the callbacks.
  virtual void begin_input(OnLine on_line, OnEnd on_end);

  // Handles bytes read from standard input.
  virtual void feed(std::string_view bytes);

  // Prints text (whole lines) above the input line.
  virtual void print(std::string_view text);

  // Rings the terminal's bell (something needs an answer), on a terminal only.
  virtual void bell();

  // Prints one error line (without its newline) on standard error, after
  // putting the terminal back as it was.
  virtual void print_error(std::string_view line);

  // The screen's size now (24×80 when it can't be known, or in line mode).
  virtual ScreenSize size() const;

  // The prompt shown before the input line (interactive only).
  virtual void set_prompt(std::string prompt);

  // Restores the terminal's settings; also done by the destructor.
  virtual void restore();

  // Whether this terminal draws the game itself (board, players, clocks):
  // then the client prints only the lines around it (a move in words, the
  // `Game over:` line, the result) and hands it each state with show_game
  // (null: no game), and me, the side this client plays.
  virtual bool draws_game() const { return false; }
  virtual void show_game(const wire::GameState* /*game*/, wire::Side /*me*/) {}
  // Whether this terminal keeps the lobby's lists on screen, updated live:
  // then the client asks for them now and then and hands them over.
  virtual bool shows_lobby() const { return false; }
  virtual void show_lobby(const wire::GameList& /*games*/, const wire::PlayerList& /*players*/) {}

 private:
  void redraw_input();
  void write_out(std::string_view text);
  void write_fd(int fd, std::string_view text);

  bool interactive_ = false;
  bool color_ = false;
  bool tty_ = false;    // stdin and stdout are the real terminal (not a stand-in)
  bool ascii_ = false;  // the terminal's locale is not UTF-8
  Writer write_;        // a stand-in's output
  ScreenSize size_;     // a stand-in's size
  std::optional<termios> saved_;
  LineEditor editor_;
  std::string prompt_ = "> ";
  std::string pending_;  // script mode: a line not yet ended
  OnLine on_line_;
  OnEnd on_end_;
  bool ended_ = false;
};

}  // namespace ttt::client
