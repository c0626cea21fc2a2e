#include "console/screen_painter.hpp"

// The wide-character API of ncursesw (wget_wch), whatever _XOPEN_SOURCE says.
#define NCURSES_WIDECHAR 1
#define NCURSES_NOMACROS  // move(), erase(): functions, not macros over std::move
#include <curses.h>

#include <algorithm>
#include <array>
#include <vector>

#include "console/game_text.hpp"
#include "console/players_text.hpp"
#include "console/session_text.hpp"
#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "view/board_name.hpp"
#include "view/clock_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

constexpr short kPairX = 1;
constexpr short kPairO = 2;
constexpr short kPairWin = 3;

// text cut into pieces of at most width display columns, between words.
std::vector<std::string> wrapped(const std::string& text, int width) {
  return wrap_words(text, static_cast<std::size_t>(std::max(width, 1)));
}

}  // namespace

void ScreenPainter::put(int line, int column, const std::string& text, int width, int attributes) {
  if (width <= 0 || line < 0 || line >= LINES || column < 0 || column >= COLS) return;
  width = std::min(width, COLS - column);
  const std::string shown = cut_to_width(text, static_cast<std::size_t>(width));
  if (attributes != 0) attron(attributes);
  mvaddstr(line, column, shown.c_str());
  if (attributes != 0) attroff(attributes);
}

void ScreenPainter::draw(const ScreenView& view, ScreenLog& log) {
  layout_ = layout_screen(LINES, COLS, view.game ? view.game->size() : 0);
  erase();
  if (!layout_.fits) {
    put(0, 0, layout_.why, COLS);
    draw_input(view);
    refresh();
    return;
  }
  if (view.game) {
    draw_board(view);
    draw_panel(view);
  } else {
    draw_lobby(view);
  }
  draw_log(log);
  if (view.help) draw_help();
  draw_input(view);
  refresh();
}

void ScreenPainter::draw_board(const ScreenView& view) {
  const BoardGeometry& g = layout_.board;
  const wire::GameState& game = *view.game;
  const auto board = board_of(game);
  if (!board) return;
  const auto last = last_move_of(game);
  std::vector<Move> winning;
  if (const auto line = winning_line_of(game)) winning = line_cells(*line, g.size);
  for (int c = 0; c < g.size; ++c) {
    put(g.top, g.mark_at(0, c).second, std::string(1, static_cast<char>('a' + c)), 1);
  }
  const int first = g.left + g.label_width + 1;
  std::string border = "+";
  for (int c = 0; c < g.size; ++c) border += "---+";
  for (int r = 0; r < g.size; ++r) {
    const auto [y, x0] = g.mark_at(r, 0);
    std::string label = std::to_string(r + 1);
    label = std::string(static_cast<std::size_t>(g.label_width) - label.size(), ' ') + label;
    put(y, g.left, label, g.label_width);
    if (g.bordered) {
      put(y - 1, first, border, static_cast<int>(border.size()));
      for (int c = 0; c <= g.size; ++c) put(y, first + 4 * c, "|", 1);
    }
    for (int c = 0; c < g.size; ++c) {
      const Cell cell = board->at(r, c);
      const bool wins = std::find(winning.begin(), winning.end(), Move{r, c}) != winning.end();
      const bool is_last = last && last->row == r && last->col == c;
      const bool under_cursor = view.cursor.row == r && view.cursor.col == c && !is_over(game);
      int attributes = 0;
      if (color_pairs_ && cell != Cell::Empty) {
        attributes |= COLOR_PAIR(cell == Cell::X ? kPairX : kPairO);
      }
      if (wins) attributes |= A_BOLD | A_UNDERLINE | (color_pairs_ ? COLOR_PAIR(kPairWin) : 0);
      if (is_last) attributes |= A_BOLD;
      if (under_cursor) attributes |= A_REVERSE;
      const char mark = cell == Cell::X ? 'X' : cell == Cell::O ? 'O' : (g.bordered ? ' ' : '.');
      const int x = g.mark_at(r, c).second;
      if (g.bordered) {
        put(y, x - 1, std::string(" ") + mark + " ", 3, attributes);
      } else {
        put(y, x, std::string(1, mark), 1, attributes);
      }
    }
  }
  if (g.bordered) put(g.mark_at(g.size - 1, 0).first + 1, first, border, int(border.size()));
}

void ScreenPainter::draw_panel(const ScreenView& view) {
  const int top = layout_.panel_top;
  const int left = layout_.panel_left;
  const int width = layout_.panel_width;
  const wire::GameState& s = *view.game;
  const wire::Side me = view.me;
  std::string title =
      "Game " + std::to_string(s.game_id()) + ", " + board_name(s.size(), s.win_length());
  if (has_chess_clock(s)) {
    title += ", clock " + clock_name({s.clock().initial_ms(), s.clock().increment_ms()});
  }
  title += s.rated() ? ", rated" : ", unrated";
  put(top, left, title, width, A_BOLD);
  // The clocks and the away players' seats run on from the state: the time
  // since it came.
  const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - view.game_at)
                         .count();
  const bool running = s.status() == wire::GAME_STATUS_IN_PROGRESS;
  auto left_of = [&](std::uint32_t ms) -> std::uint32_t {
    return since >= ms ? 0 : ms - static_cast<std::uint32_t>(since);
  };
  auto live = [&](wire::Side side, std::uint32_t ms) -> std::uint32_t {
    return running && s.to_move() == side ? left_of(ms) : ms;
  };
  std::array<std::string, 2> names;
  std::array<std::string, 2> times;
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const std::size_t i = side == wire::SIDE_X ? 0 : 1;
    const wire::PlayerInfo& p = info_of(s, side);
    std::string line =
        (running && s.to_move() == side ? "> " : "  ") + side_name(side) + "  " + seat_name(p);
    if (p.player_id() != 0 && p.rating() > 0) line += " (" + rating_text(p.rating()) + ")";
    if (side == me) line += " you";
    if (p.player_id() != 0 && !p.connected()) {
      line += p.away_ms_left() > 0 && running
                  ? " [away, " +
                        whole_seconds(std::chrono::milliseconds(left_of(p.away_ms_left()))) +
                        " left]"
                  : " [away]";
    }
    names[i] = std::move(line);
    if (has_chess_clock(s)) {
      times[i] = clock_face(live(side, side == wire::SIDE_X ? s.x_clock_ms() : s.o_clock_ms()));
    } else if (running && s.to_move() == side && s.move_time_left_ms() > 0) {
      times[i] = whole_seconds(std::chrono::milliseconds(live(side, s.move_time_left_ms())));
    }
  }
  // The clocks stand right after the longer name, in one column.
  const int time_width = 8;
  const int name_width =
      std::min(static_cast<int>(std::max(display_width(names[0]), display_width(names[1]))),
               std::max(width - time_width - 2, 1));
  for (const wire::Side side : {wire::SIDE_X, wire::SIDE_O}) {
    const std::size_t i = side == wire::SIDE_X ? 0 : 1;
    const int attributes = (running && s.to_move() == side ? A_BOLD : 0) |
                           (color_pairs_ ? COLOR_PAIR(side == wire::SIDE_X ? kPairX : kPairO) : 0);
    const int y = top + 2 + static_cast<int>(i);
    put(y, left, names[i], name_width, attributes);
    if (!times[i].empty()) put(y, left + name_width + 2, times[i], time_width, attributes);
  }
  std::vector<std::string> status;
  const bool player = me == wire::SIDE_X || me == wire::SIDE_O;
  if (is_over(s)) {
    status.push_back(game_over_line(s));
    const std::string personal = personal_result(s, me);
    if (!personal.empty()) status.push_back(personal);
    status.push_back(player ? "/rematch to play again, /leave for the lobby."
                            : "/leave for the lobby.");
  } else if (s.status() == wire::GAME_STATUS_WAITING) {
    status.push_back("Waiting for an opponent to join game " + std::to_string(s.game_id()) + ".");
  } else if (s.to_move() == me) {
    status.push_back("Your turn (" + side_name(me) + "): move the cursor, Enter places.");
  } else {
    const wire::Side mover = s.to_move();
    status.push_back(seat_name(info_of(s, mover)) + " (" + side_name(mover) + ") to move.");
  }
  const wire::Side draw = s.draw_offered_by();
  if (draw == wire::SIDE_X || draw == wire::SIDE_O) {
    // Only the other player can take it: spectators are told who offers.
    status.push_back(draw == me ? "You offered a draw."
                     : player   ? "A draw is offered: /draw or /decline."
                                : seat_name(info_of(s, draw)) + " (" + side_name(draw) +
                                    ") offers a draw.");
  }
  const wire::Side rematch = s.rematch_requested_by();
  if ((rematch == wire::SIDE_X || rematch == wire::SIDE_O) && rematch != me) {
    status.push_back(player ? "A rematch is asked: /rematch or /decline."
                            : seat_name(info_of(s, rematch)) + " (" + side_name(rematch) +
                                  ") asks for a rematch.");
  }
  if (s.spectators() > 0) status.push_back(std::to_string(s.spectators()) + " watching");
  // Each line wrapped between words, as many as the panel has room for.
  int y = top + 5;
  for (std::size_t i = 0; i < status.size(); ++i) {
    for (const std::string& piece : wrapped(status[i], width)) {
      if (y >= top + layout_.panel_height) return;
      put(y++, left, piece, width, i == 0 && is_over(s) ? A_BOLD : 0);
    }
  }
}

void ScreenPainter::draw_lobby(const ScreenView& view) {
  const int half = layout_.panel_width / 2;
  const int lines = layout_.panel_height;
  const int games_width = half - 1;
  const int players_width = layout_.panel_width - half;
  put(0, 0, "Games (/create, /quick, /join ID)", games_width, A_BOLD);
  put(0, half, "Players online (/challenge NAME)", players_width, A_BOLD);
  // Each list laid out for its column (tables drop what does not fit, long
  // lines wrap between words); what is below the panel is left out.
  auto column = [&](const std::string& text, int left, int width) {
    int y = 1;
    std::size_t start = 0;
    while (start < text.size() && y < lines) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      for (const std::string& piece : wrapped(text.substr(start, end - start), width)) {
        if (y >= lines) break;
        put(y++, left, piece, width);
      }
      start = end + 1;
    }
  };
  const auto wide = [](int width) { return static_cast<std::size_t>(std::max(width, 1)); };
  column(view.lobby_games ? game_list_text(*view.lobby_games, wide(games_width))
                          : "(asking the server...)",
         0, games_width);
  column(view.lobby_players ? player_list_text(*view.lobby_players, wide(players_width))
                            : "(asking the server...)",
         half, players_width);
  mvhline(lines, 0, ACS_HLINE, COLS);
}

void ScreenPainter::draw_log(ScreenLog& log) {
  const int width = std::max(layout_.width - 1, 1);
  const int height = layout_.log_height;
  const ScreenLog::View shown = log.view(width, height);
  for (std::size_t i = 0; i < shown.rows.size(); ++i) {
    put(layout_.log_top + static_cast<int>(i), 0, shown.rows[i], width);
  }
  if (shown.scrolled) {
    put(layout_.log_top + height - 1, std::max(0, width - 24), "-- PgDn for newer --", 24,
        A_REVERSE);
  }
}

void ScreenPainter::draw_input(const ScreenView& view) {
  const int y = layout_.input_line;
  const std::string& line = view.input_line;
  const int width = COLS - 1;
  // The end of a long line stays in view.
  const auto pieces = wrapped(line, std::max(width, 1));
  put(y, 0, pieces.back(), width);
  move(y, std::min(static_cast<int>(display_width(pieces.back())), width));
}

void ScreenPainter::draw_help() {
  static const std::pair<const char*, const char*> kKeys[] = {
      {"arrows or h j k l", "move the cursor on the board"},
      {"Enter or space", "place your mark on the cursor's cell"},
      {"a mouse click", "place your mark on the cell clicked"},
      {"b2, 2 2", "type a cell and Enter (from column h on: ROW COL)"},
      {"/command", "any command of the line mode (/help lists them)"},
      {"PgUp, PgDn", "scroll the messages"},
      {"Esc", "clear the input line"},
      {"?", "this help (? or Esc closes it)"},
  };
  const int width = std::min(COLS - 2, 76);
  std::vector<std::string> lines{"Keys"};
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& [keys, what] : kKeys) rows.emplace_back(keys, what);
  const std::string table =
      two_columns(rows, 2, 20, static_cast<std::size_t>(std::max(width - 4, 10)));
  for (std::size_t start = 0; start < table.size();) {
    const std::size_t end = table.find('\n', start);
    lines.push_back(table.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const int height = std::min(static_cast<int>(lines.size()) + 2, LINES);
  const int top = std::max(0, (LINES - height) / 2);
  const int left = std::max(0, (COLS - width) / 2);
  for (int i = 0; i < height; ++i) put(top + i, left, std::string(width, ' '), width, A_REVERSE);
  for (int i = 0; i < static_cast<int>(lines.size()) && i < height - 2; ++i) {
    put(top + 1 + i, left + 2, lines[static_cast<std::size_t>(i)], width - 4,
        A_REVERSE | (i == 0 ? A_BOLD : 0));
  }
}

}  // namespace ttt::client
