#include "console/full_screen.hpp"

// The wide-character API of ncursesw (wget_wch), whatever _XOPEN_SOURCE says.
#define NCURSES_WIDECHAR 1
#define NCURSES_NOMACROS  // move(), erase(): functions, not macros over std::move
#include <curses.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cwchar>
#include <utility>

#include "console/game_text.hpp"
#include "text/display_width.hpp"
#include "view/move_input.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

constexpr std::size_t kLinesKept = 8;  // left on the terminal after the full screen
constexpr int kCtrlD = 4;
constexpr int kEscape = 27;

// A wide character as UTF-8.
std::string utf8_of(wchar_t c) {
  char bytes[MB_LEN_MAX];
  std::mbstate_t state{};
  const std::size_t n = std::wcrtomb(bytes, c, &state);
  return n == static_cast<std::size_t>(-1) ? std::string() : std::string(bytes, n);
}

// Drops the last character (not byte) of UTF-8 text.
void erase_last_character(std::string& text) {
  while (!text.empty()) {
    const auto byte = static_cast<unsigned char>(text.back());
    text.pop_back();
    if ((byte & 0xC0) != 0x80) break;  // the lead byte (or ASCII) ends it
  }
}

}  // namespace

FullScreen::FullScreen(ColorChoice color)
    : Terminal(true, use_color(color, true, std::getenv("NO_COLOR")), Writer{}, ScreenSize{}) {
  initscr();
  active_ = true;
  cbreak();  // keys at once; Ctrl-C still interrupts
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  nodelay(stdscr, TRUE);
  mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED, nullptr);
  mouseinterval(0);
  if (this->color() && has_colors()) {
    start_color();
    use_default_colors();
    init_pair(1, COLOR_CYAN, -1);     // X
    init_pair(2, COLOR_MAGENTA, -1);  // O
    init_pair(3, COLOR_GREEN, -1);    // the winning line
    painter_.use_color_pairs();
  }
  say("Full screen: arrow keys or hjkl move, Enter or space places, ? for help, /quit to "
      "leave (--plain for the line mode).");
  on_resize();
}

FullScreen::~FullScreen() { restore(); }

void FullScreen::restore() {
  if (!active_) return;
  active_ = false;
  endwin();
  // The terminal gets its own screen back, and the last lines said stay on
  // it: the goodbye, why the client stopped, what it said about the game.
  std::string tail;
  for (const std::string& line : log_.last(kLinesKept)) {
    tail += wrap_text(line, static_cast<std::size_t>(std::max(painter_.layout().width, 0))) + "\n";
  }
  for (std::string_view rest = tail; !rest.empty();) {
    const ssize_t n = ::write(1, rest.data(), rest.size());
    if (n <= 0) break;
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
}

void FullScreen::on_resize() {
  if (!active_) return;
  winsize window{};
  if (::ioctl(1, TIOCGWINSZ, &window) == 0 && window.ws_row > 0 && window.ws_col > 0) {
    resizeterm(window.ws_row, window.ws_col);
  }
  draw();
}

void FullScreen::begin_input(OnLine on_line, OnEnd on_end) {
  on_line_ = std::move(on_line);
  on_end_ = std::move(on_end);
  draw();
}

void FullScreen::feed(std::string_view bytes) {
  // Keys come through pump_keys; a stand-in's bytes are typed as they are.
  for (const char c : bytes) key(static_cast<unsigned char>(c), true);
}

void FullScreen::pump_keys() {
  if (!active_ || ended_) return;
  wint_t code = 0;
  for (int got = wget_wch(stdscr, &code); got != ERR; got = wget_wch(stdscr, &code)) {
    key(static_cast<int>(code), got == OK);
    if (!active_ || ended_) return;
  }
  draw();
}

void FullScreen::key(int code, bool is_character) {
  const bool empty = input_.empty();
  if (help_ && (code == kEscape || code == '?' || code == 'q')) {
    help_ = false;
    return;
  }
  if (!is_character) {
    switch (code) {
      case KEY_UP:
        move_cursor(-1, 0);
        return;
      case KEY_DOWN:
        move_cursor(1, 0);
        return;
      case KEY_LEFT:
        move_cursor(0, -1);
        return;
      case KEY_RIGHT:
        move_cursor(0, 1);
        return;
      case KEY_ENTER:
        submit_line();
        return;
      case KEY_BACKSPACE:
        erase_last_character(input_);
        return;
      case KEY_PPAGE:
        log_.page_back(std::max(1, painter_.layout().log_height - 1));
        return;
      case KEY_NPAGE:
        log_.page_forward(std::max(1, painter_.layout().log_height - 1));
        return;
      case KEY_RESIZE:
        return;  // curses has the new size: pump_keys draws it
      case KEY_MOUSE: {
        MEVENT event{};
        if (getmouse(&event) != OK) return;
        if (auto cell = painter_.layout().board.cell_at(event.y, event.x)) {
          cursor_.set(*cell);
          if (event.bstate & (BUTTON1_CLICKED | BUTTON1_RELEASED)) place(*cell);
        }
        return;
      }
      default:
        return;
    }
  }
  switch (code) {
    case '\r':
    case '\n':
      submit_line();
      return;
    case 127:
    case 8:
      erase_last_character(input_);
      return;
    case kEscape:
      input_.clear();
      return;
    case kCtrlD:
      if (!empty) return;
      ended_ = true;
      if (on_end_) on_end_();
      return;
    default:
      break;
  }
  if (empty) {
    // On an empty line these keys act on the board; anything else is typed.
    switch (code) {
      case 'h':
        move_cursor(0, -1);
        return;
      case 'j':
        move_cursor(1, 0);
        return;
      case 'k':
        move_cursor(-1, 0);
        return;
      case 'l':
        move_cursor(0, 1);
        return;
      case ' ':
        place(cursor_.at());
        return;
      case '?':
        help_ = true;
        return;
      default:
        break;
    }
  }
  if (code >= 0x20) input_ += utf8_of(static_cast<wchar_t>(code));
}

void FullScreen::submit_line() {
  if (input_.empty()) {
    place(cursor_.at());
    return;
  }
  std::string line = std::exchange(input_, {});
  log_.to_newest();
  say(prompt_ + line);
  if (on_line_) on_line_(std::move(line));
}

void FullScreen::move_cursor(int rows, int cols) {
  if (game_) cursor_.move(rows, cols, game_->size());
}

void FullScreen::place(Move cell) {
  if (!game_) {
    say("You are not in a game: /create 3, /quick 3 or /challenge NAME first (? for help).");
    return;
  }
  if (me_ != wire::SIDE_X && me_ != wire::SIDE_O) {
    say("You are watching this game: spectators can't move.");
    return;
  }
  if (is_over(*game_)) {
    say("The game is over: /rematch to play again, /leave for the lobby.");
    return;
  }
  if (game_->status() != wire::GAME_STATUS_IN_PROGRESS) {
    say("The game has not started: waiting for an opponent.");
    return;
  }
  if (game_->to_move() != me_) {
    const wire::Side mover = game_->to_move();
    say("Not your turn: " + seat_name(info_of(*game_, mover)) + " (" + side_name(mover) +
        ") is to move.");
    return;
  }
  const auto board = board_of(*game_);
  if (board && board->at(cell.row, cell.col) != Cell::Empty) {
    say(cell_name(cell) + " is taken: pick an empty cell.");
    return;
  }
  if (on_line_) on_line_(cell_name(cell));
}

void FullScreen::say(const std::string& line) { log_.add(line); }

void FullScreen::draw() {
  if (!active_) return;
  ScreenView view;
  view.game = game_ ? &*game_ : nullptr;
  view.me = me_;
  view.game_at = game_at_;
  view.lobby_games = lobby_games_ ? &*lobby_games_ : nullptr;
  view.lobby_players = lobby_players_ ? &*lobby_players_ : nullptr;
  view.cursor = cursor_.at();
  view.input_line = prompt_ + input_;
  view.help = help_;
  painter_.draw(view, log_);
}

void FullScreen::print(std::string_view text) {
  if (text.empty()) return;  // nothing new: the screen stands as drawn
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    say(std::string(text.substr(start, end - start)));
    start = end + 1;
  }
  draw();
}

void FullScreen::bell() {
  if (active_) beep();
}

ScreenSize FullScreen::size() const {
  // Long lists scroll in the log (PgUp, PgDn) rather than wait a screenful
  // at a time: the pager never stops. Text is laid out for the log's width.
  return ScreenSize{100'000, static_cast<std::size_t>(std::max(painter_.layout().width - 1, 20))};
}

void FullScreen::set_prompt(std::string prompt) {
  if (prompt == prompt_) return;
  prompt_ = std::move(prompt);
  draw();
}

void FullScreen::show_game(const wire::GameState* game, wire::Side me) {
  me_ = me;
  if (game == nullptr) {
    if (game_) {
      game_.reset();
      draw();
    }
    return;
  }
  const bool changed =
      !game_ || game_->game_id() != game->game_id() || game_->round() != game->round() ||
      game_->move_count() != game->move_count() || game_->status() != game->status() ||
      game_->x_clock_ms() != game->x_clock_ms() || game_->o_clock_ms() != game->o_clock_ms() ||
      game_->x().connected() != game->x().connected() ||
      game_->o().connected() != game->o().connected() ||
      game_->spectators() != game->spectators() ||
      game_->draw_offered_by() != game->draw_offered_by() ||
      game_->rematch_requested_by() != game->rematch_requested_by();
  const bool new_board = !game_ || game_->game_id() != game->game_id() ||
                         game_->round() != game->round() || game_->size() != game->size();
  if (!changed && game_->cells() == game->cells()) {
    return;  // the clocks run on from game_at_; draw() shows them
  }
  game_ = *game;
  game_at_ = std::chrono::steady_clock::now();
  cursor_.follow(*game, new_board);
  draw();
}

void FullScreen::show_lobby(const wire::GameList& games, const wire::PlayerList& players) {
  lobby_games_ = games;
  lobby_players_ = players;
  draw();
}

}  // namespace ttt::client
