#include "console/replay.hpp"

#include <cstdio>

#include "console/game_text.hpp"
#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/lobby_limits.hpp"
#include "view/board_name.hpp"
#include "view/move_input.hpp"

namespace ttt::client {
namespace {

// The record's end as a state, for the `Game over:` words; with the winning
// line when the final board shows one.
wire::GameState final_state(const wire::GameRecord& record, const std::optional<Line>& line) {
  wire::GameState state;
  state.set_status(record.status());
  state.set_end_reason(record.end_reason());
  if (line && record.end_reason() == wire::END_REASON_LINE) {
    *state.mutable_winning_line() = wire::wire_line_of(*line);
  }
  return state;
}

// Time into the game: "+4.2 s", or "+2:05" from a minute on.
std::string offset_text(std::uint64_t started_ms, std::uint64_t at_ms) {
  const std::uint64_t ms = at_ms > started_ms ? at_ms - started_ms : 0;
  char text[32];
  if (ms < 60'000) {
    std::snprintf(text, sizeof text, "+%.1f s", static_cast<double>(ms) / 1000.0);
  } else {
    std::snprintf(text, sizeof text, "+%llu:%02llu", static_cast<unsigned long long>(ms / 60'000),
                  static_cast<unsigned long long>(ms / 1000 % 60));
  }
  return text;
}

}  // namespace

std::optional<Replay> Replay::of(const wire::GameRecord& record, std::string& error) {
  if (record.size() < 1 || record.size() > wire::kMaxLobbySize) {
    error = "the record's board size " + std::to_string(record.size()) + " can't be drawn";
    return std::nullopt;
  }
  const int win_length = wire::win_length_of(record.size(), record.win_length());
  if (!Board::valid_win_length(record.size(), win_length)) {
    error = "the record's win length " + std::to_string(record.win_length()) +
            " does not fit its " + board_name(record.size(), 0) + " board";
    return std::nullopt;
  }
  Replay replay(record);
  Board board(record.size(), win_length);
  Player mover = Player::X;
  for (const wire::MoveRecord& m : record.moves()) {
    if (!is_valid_move(board, m.row(), m.col(), mover)) {
      error = "move " + std::to_string(replay.boards_.size() + 1) + " of the record (row " +
              std::to_string(m.row()) + ", column " + std::to_string(m.col()) +
              ") is not a legal move";
      return std::nullopt;
    }
    board = make_move(board, m.row(), m.col(), mover);
    replay.boards_.push_back(board);
    mover = opponent(mover);
  }
  return replay;
}

std::string Replay::header(TimeZone zone) const {
  const wire::GameRecord& r = record_;
  const std::optional<Line> line = boards_.empty() ? std::nullopt : winning_line(boards_.back());
  std::string game = "game " + std::to_string(r.game_id());
  if (r.round() > 1) game += ", round " + std::to_string(r.round());
  const std::string size = board_name(r.size(), r.win_length());
  const std::string result = result_text(final_state(r, line));
  const std::size_t n = boards_.size();
  return "Replay of record " + std::to_string(r.record_id()) + " (" + game + "), " +
         time_text(r.started_ms(), zone) + ": " + size + ", " + (r.rated() ? "rated" : "unrated") +
         ".\n" + safe_name(r.x_name()) + " (X) vs " + safe_name(r.o_name()) + " (O): " + result +
         " after " + std::to_string(n) + (n == 1 ? " move." : " moves.");
}

std::string Replay::mover_text(std::size_t ply) const {
  return ply % 2 == 0 ? safe_name(record_.x_name()) + " (X)" : safe_name(record_.o_name()) + " (O)";
}

std::string Replay::next(RenderStyle style) {
  const std::size_t ply = shown_++;
  const wire::MoveRecord& m = record_.moves(static_cast<int>(ply));
  const Move move{m.row(), m.col()};
  const bool last = shown_ == boards_.size();
  const std::optional<Line> line = last ? winning_line(boards_[ply]) : std::nullopt;
  std::string text = "Move " + std::to_string(ply + 1) + " of " + std::to_string(boards_.size()) +
                     " (" + offset_text(record_.started_ms(), m.at_ms()) + "): " + mover_text(ply) +
                     " played " + cell_name(move) + ".\n";
  text += render_board(BoardView{boards_[ply], move, line}, style);
  if (last) text += game_over_line(final_state(record_, line)) + "\n";
  return text;
}

}  // namespace ttt::client
