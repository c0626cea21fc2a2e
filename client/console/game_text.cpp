#include "console/game_text.hpp"

#include <cctype>
#include <cmath>

#include "console/session_text.hpp"
#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"
#include "ttt/wire/result_words.hpp"
#include "view/board_name.hpp"
#include "view/clock_text.hpp"
#include "view/move_input.hpp"
#include "view/node_text.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

// "alice (X)", or with_rating "alice (X, 1216)"; "[away]" after it.
std::string seat_text(const wire::GameState& state, wire::Side side, bool with_rating = false) {
  const wire::PlayerInfo& info = info_of(state, side);
  std::string text = seat_name(info) + " (" + side_name(side);
  if (with_rating && info.player_id() != 0 && info.rating() > 0) {
    text += ", " + rating_text(info.rating());
  }
  text += ")";
  if (info.player_id() != 0 && !info.connected()) {
    text += info.away_ms_left() > 0
                ? " [away, " + std::to_string((info.away_ms_left() + 999) / 1000) + " s left]"
                : " [away]";
  }
  return text;
}

std::string clock_text(const wire::GameState& state) {
  if (has_chess_clock(state)) return " (" + clocks_text(state) + ")";
  if (state.move_time_left_ms() == 0) return "";
  return " (" + std::to_string((state.move_time_left_ms() + 999) / 1000) + " s left)";
}

bool is_player(wire::Side side) { return side == wire::SIDE_X || side == wire::SIDE_O; }

// "bob (O)"
std::string player_named(const wire::GameState& state, wire::Side side) {
  return seat_name(info_of(state, side)) + " (" + side_name(side) + ")";
}

// "You offered a draw.", "bob (O) offers a draw: /draw to accept, /decline to
// refuse." (by: X or O).
std::string draw_offer_text(const wire::GameState& state, wire::Side by, wire::Side me) {
  if (by == me) return "You offered a draw.";
  return player_named(state, by) + (me == other_side(by)
                                        ? " offers a draw: /draw to accept, /decline to refuse."
                                        : " offers a draw.");
}

// "You asked for a rematch.", "bob (O) asks for a rematch: /rematch to
// accept, /decline to refuse."
std::string rematch_text(const wire::GameState& state, wire::Side by, wire::Side me) {
  if (by == me) return "You asked for a rematch.";
  return player_named(state, by) +
         (me == other_side(by) ? " asks for a rematch: /rematch to accept, /decline to refuse."
                               : " asks for a rematch.");
}

std::string offers_text(const wire::GameState& state, wire::Side me) {
  std::string text;
  if (is_player(state.draw_offered_by())) {
    text += "\n" + draw_offer_text(state, state.draw_offered_by(), me);
  }
  if (is_player(state.rematch_requested_by())) {
    text += "\n" + rematch_text(state, state.rematch_requested_by(), me);
  }
  return text;
}

}  // namespace

std::string rating_text(double rating) { return std::to_string(std::lround(rating)); }

std::string side_name(wire::Side side) {
  return side == wire::SIDE_X ? "X" : side == wire::SIDE_O ? "O" : "?";
}

std::string result_text(const wire::GameState& state) {
  return wire::result_text(state.status(), state.end_reason(), winning_line_of(state));
}

std::string game_over_line(const wire::GameState& state) {
  return "Game over: " + result_text(state);
}

std::string personal_result(const wire::GameState& state, wire::Side me) {
  if (me != wire::SIDE_X && me != wire::SIDE_O) return "";
  switch (state.status()) {
    case wire::GAME_STATUS_X_WON:
      return me == wire::SIDE_X ? "You won." : "You lost.";
    case wire::GAME_STATUS_O_WON:
      return me == wire::SIDE_O ? "You won." : "You lost.";
    case wire::GAME_STATUS_DRAW:
      return state.end_reason() == wire::END_REASON_ABORTED ? "" : "A draw.";
    default:
      return "";
  }
}

bool has_chess_clock(const wire::GameState& state) noexcept {
  return state.clock().initial_ms() != 0;
}

std::string clocks_text(const wire::GameState& state) {
  return "X " + clock_face(state.x_clock_ms()) + ", O " + clock_face(state.o_clock_ms());
}

std::string players_line(const wire::GameState& state) {
  std::string line = "Game " + std::to_string(state.game_id()) + ", " +
                     board_name(state.size(), state.win_length());
  if (has_chess_clock(state)) {
    line += ", clock " + clock_name({state.clock().initial_ms(), state.clock().increment_ms()});
  }
  if (state.round() > 1) line += ", round " + std::to_string(state.round());
  line += state.rated() ? ", rated" : ", unrated";
  line +=
      ": " + seat_text(state, wire::SIDE_X, true) + " vs " + seat_text(state, wire::SIDE_O, true);
  if (state.is_private()) line += ", private";
  if (state.spectators() > 0) line += ", " + std::to_string(state.spectators()) + " watching";
  return line;
}

std::string turn_line(const wire::GameState& state, wire::Side me) {
  const bool player = me == wire::SIDE_X || me == wire::SIDE_O;
  if (state.status() == wire::GAME_STATUS_WAITING) {
    return "Waiting for an opponent to join game " + std::to_string(state.game_id()) + ".";
  }
  if (is_over(state)) {
    return std::string(player ? "/rematch to play again (sides swap), /leave for the lobby."
                              : "/leave for the lobby.") +
           offers_text(state, me);
  }
  const wire::Side mover = state.to_move();
  std::string line;
  if (player && mover == me) {
    line = "Your turn (" + side_name(me) + "): type a cell like b2" + clock_text(state) + ".";
  } else if (player) {
    line = "Waiting for " + seat_text(state, mover) + " to move" + clock_text(state) + ".";
  } else {
    line = seat_text(state, mover) + " to move" + clock_text(state) + ".";
  }
  return line + offers_text(state, me);
}

std::string offers_news(const wire::GameState& before, const wire::GameState& after,
                        wire::Side me) {
  std::string text;
  const wire::Side draw = after.draw_offered_by();
  if (is_player(draw) && draw != before.draw_offered_by()) {
    text = draw_offer_text(after, draw, me);
  }
  const wire::Side rematch = after.rematch_requested_by();
  if (is_player(rematch) && rematch != before.rematch_requested_by()) {
    text += (text.empty() ? "" : "\n") + rematch_text(after, rematch, me);
  }
  return text;
}

std::string connected_line(const std::string& server, const wire::Welcome& welcome, bool again) {
  const std::string rating =
      welcome.rating() > 0 ? " (rating " + rating_text(welcome.rating()) + ")" : "";
  return (again ? "Reconnected to " : "Connected to ") + server + " as " +
         safe_text(welcome.name(), field_width::kName) + rating + ". Type /help for commands.";
}

std::string joined_game_text(const wire::GameState& state, wire::Side me) {
  const wire::Side them = other_side(me);
  std::string text = seat_text(state, them, true) + " joined game " +
                     std::to_string(state.game_id()) + ": the game begins";
  if (in_progress(state)) {
    text += state.to_move() == me ? ", your move" : ", " + side_name(state.to_move()) + " to move";
  }
  return text + ".";
}

std::string move_headline(const wire::GameState& before, const wire::GameState& after,
                          wire::Side me, bool own_moves) {
  const auto board = board_of(after);
  const auto last = last_move_of(after);
  if (!board || !last || after.move_count() != before.move_count() + 1 ||
      after.round() != before.round() || last->row < 0 || last->col < 0 ||
      last->row >= board->size() || last->col >= board->size()) {
    return "";
  }
  const Cell mark = board->at(last->row, last->col);
  if (mark == Cell::Empty) return "";
  const wire::Side mover = mark == Cell::X ? wire::SIDE_X : wire::SIDE_O;
  if (mover == me) {
    return own_moves ? "You (" + side_name(me) + ") played " + cell_name(*last) + "." : "";
  }
  return seat_name(info_of(after, mover)) + " (" + side_name(mover) + ") played " +
         cell_name(*last) + ".";
}

std::string chat_line(const wire::ChatMessage& chat) {
  std::string who = safe_text(chat.from(), field_width::kName);
  if (is_player(chat.from_side())) {
    who += " (" + side_name(chat.from_side()) + ")";
  } else {
    who += " (watching)";
  }
  return "[" + who + "] " + safe_text(chat.text(), field_width::kChat);
}

std::string opponent_text(const wire::OpponentStatus& status) {
  if (status.left()) return "Your opponent left the game.";
  if (!status.connected()) {
    return "Your opponent lost the connection; their seat is held for " +
           std::to_string((status.grace_ms() + 999) / 1000) + " s.";
  }
  return "Your opponent is back.";
}

std::string queued_text(const wire::Queued& queued) {
  std::string line =
      "Waiting for another player who wants a " + board_name(queued.size(), 0) + " game";
  const int k = queued.win_length();
  if (k != 0 && k != queued.size()) line += " with " + std::to_string(k) + " in a row";
  if (queued.bot_fallback_s() > 0) {
    line += " (a bot steps in after " + std::to_string(queued.bot_fallback_s()) + " s)";
  }
  return line + "...";
}

std::string state_text(const wire::GameState& state, wire::Side me, const std::string& headline,
                       RenderStyle style, bool with_result, bool with_board) {
  const auto board = board_of(state);
  if (!with_board) {
    // The screen draws the game: only the lines around it go to the log.
    std::string text = headline.empty() ? "" : headline + "\n";
    if (with_result && board) {
      text += game_over_line(state) + "\n";
      const std::string personal = personal_result(state, me);
      if (!personal.empty()) text += personal + "\n";
      const std::string ratings = rating_change_text(state, me);
      if (!ratings.empty()) text += ratings + "\n";
    }
    return text;
  }
  if (!board) {
    return "The server sent a board that can't be read: " +
           safe_text(state.cells(), field_width::kShort) + "\n";
  }
  std::string text = "\n" + (headline.empty() ? "" : headline + "\n") + players_line(state) + "\n";
  if (state.status() != wire::GAME_STATUS_WAITING) {  // else nothing to see yet
    text += render_board(BoardView{*board, last_move_of(state), winning_line_of(state)}, style);
    if (with_result) {
      text += game_over_line(state) + "\n";
      const std::string personal = personal_result(state, me);
      if (!personal.empty()) text += personal + "\n";
      const std::string ratings = rating_change_text(state, me);
      if (!ratings.empty()) text += ratings + "\n";
    }
  }
  return text + turn_line(state, me) + "\n";
}

std::string game_list_text(const wire::GameList& list, std::size_t width) {
  if (list.games().empty()) {
    return wrap_text("No games yet: /create 3 starts one, /quick 3 finds a player.", width);
  }
  constexpr std::size_t kListName = 16;  // longer names are cut
  const auto name = [](const std::string& raw) {
    return raw.empty() ? std::string("-") : safe_text(raw, kListName);
  };
  TextTable table({{"id", 9, 0, true, false, 0, 5},
                   {"board", 5, 5, false, false, 2, 17},
                   {"status", 6, 0, false, false, 2, 11},
                   {"X", 8, 6, false, false, 2, kListName},
                   {"O", 7, 6, false, false, 1, kListName},
                   {"", 1, 10, false, true, 2, 0, true}});
  for (const wire::GameSummary& g : list.games()) {
    const char* status = g.status() == wire::GAME_STATUS_WAITING       ? "waiting"
                         : g.status() == wire::GAME_STATUS_IN_PROGRESS ? "playing"
                                                                       : "over";
    std::string notes;
    auto note = [&notes](const std::string& text) { notes += (notes.empty() ? "" : "  ") + text; };
    if (g.is_private()) note("private");
    if (g.vs_bot()) note("vs bot");
    if (g.spectators() > 0) note(std::to_string(g.spectators()) + " watching");
    // Several nodes: where the game is held (joining it moves you there).
    if (!g.node().empty()) note("at " + safe_text(g.node(), 64));
    table.add_row({std::to_string(g.game_id()), board_name(g.size(), g.win_length()), status,
                   name(g.x_name()), name(g.o_name()), notes});
  }
  return table.render(width) + wrap_text("Join with /join ID, watch with /watch ID.", width);
}

std::string error_text(const wire::Error& error) {
  switch (error.code()) {
    case wire::ERROR_CODE_OCCUPIED:
      return std::string(kCellTaken);
    case wire::ERROR_CODE_NOT_YOUR_TURN:
      return "It is not your turn";
    case wire::ERROR_CODE_OUT_OF_RANGE:
      return "That cell is off the board";
    case wire::ERROR_CODE_STORAGE:
      return "The server could not store that (its database refused); nothing changed: try again";
    case wire::ERROR_CODE_NO_DATABASE:
      return "This server keeps no game records (it runs without a database)";
    default:
      break;
  }
  if (auto words = node_error_text(error.code())) {
    (*words)[0] = static_cast<char>(std::toupper(static_cast<unsigned char>((*words)[0])));
    return *words;
  }
  std::string text = error.text().empty() ? "the server refused that"
                                          : safe_text(error.text(), field_width::kMessage);
  text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

}  // namespace ttt::client
