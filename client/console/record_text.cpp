#include "console/record_text.hpp"

#include <ctime>
#include <vector>

#include "console/game_text.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/result_words.hpp"
#include "view/board_name.hpp"

namespace ttt::client {
namespace {

// A table column: its width in terminal columns, right-aligned or not, and
// the spaces before it.
struct Column {
  std::size_t width;
  bool right = false;
  std::size_t gap = 1;
};

// One row of a table: each cell padded to its column by display width (a
// wider cell pushes the rest along), without trailing spaces.
std::string row_text(const std::vector<Column>& columns, const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < columns.size() && i < cells.size(); ++i) {
    if (i > 0) line.append(columns[i].gap, ' ');
    line += columns[i].right ? pad_left(cells[i], columns[i].width)
                             : pad_right(cells[i], columns[i].width);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

constexpr std::size_t kNameColumn = 18;  // names in tables; longer ones are cut

std::string column_name(const std::string& raw) { return safe_text(raw, kNameColumn); }

std::string command_name(CommandKind kind) {
  switch (kind) {
    case CommandKind::Top:
      return "/top";
    case CommandKind::History:
      return "/history";
    case CommandKind::Replay:
      return "/replay";
    default:
      return "that";
  }
}

}  // namespace

std::string time_text(std::uint64_t unix_ms, TimeZone zone) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm parts{};
  if (zone == TimeZone::Utc) {
    gmtime_r(&seconds, &parts);
  } else {
    localtime_r(&seconds, &parts);
  }
  char text[32];
  if (std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &parts) == 0) return "?";
  return text;
}

std::string leaderboard_text(const wire::Leaderboard& board) {
  if (board.entries().empty()) return "Nobody has finished a game on this server yet.";
  const std::vector<Column> row = {
      {4, true}, {kNameColumn, false, 2}, {7, true}, {6, true}, {5, true}, {5, true}, {5, true}};
  std::string text = row_text(row, {"rank", "name", "rating", "games", "W", "L", "D"});
  int rank = 0;
  for (const wire::LeaderboardEntry& e : board.entries()) {
    text += "\n" +
            row_text(row, {std::to_string(++rank), column_name(e.name()), rating_text(e.rating()),
                           std::to_string(e.games()), std::to_string(e.wins()),
                           std::to_string(e.losses()), std::to_string(e.draws())});
    if (e.provisional()) text += "  provisional";
  }
  return text;
}

std::string record_result_text(const wire::GameRecord& record) {
  std::optional<Line> line;
  if (record.end_reason() == wire::END_REASON_LINE && record.has_winning_line()) {
    line = wire::line_of(record.winning_line());
  }
  return wire::result_text(record.status(), record.end_reason(), line);
}

std::string history_text(const wire::History& history, TimeZone zone) {
  const std::string name = safe_text(history.name(), field_width::kName);
  if (history.games().empty()) return name + " has no finished games yet.";
  const std::vector<Column> row = {
      {6, true}, {16, false, 2}, {17, false, 2}, {kNameColumn, false, 2}, {kNameColumn}, {32},
      {7},       {5, true}};
  std::string text = "Recent games of " + name + ", newest first:\n";
  text += row_text(row, {"record", "ended", "board", "X", "O", "result", "rated", "moves"}) + "\n";
  for (const wire::GameRecord& g : history.games()) {
    const std::string size = board_name(g.size(), g.win_length());
    text += row_text(row, {std::to_string(g.record_id()), time_text(g.ended_ms(), zone), size,
                           column_name(g.x_name()), column_name(g.o_name()), record_result_text(g),
                           g.rated() ? "rated" : "unrated", std::to_string(g.move_count())}) +
            "\n";
  }
  return text + "Step through one with /replay RECORD.";
}

std::string record_error_text(const wire::Error& error, const Command& query) {
  switch (error.code()) {
    case wire::ERROR_CODE_NO_DATABASE:
      return "This server keeps no game records (it runs without a database), so " +
             command_name(query.kind) + " has nothing to show";
    case wire::ERROR_CODE_STORAGE:
      return "The server could not read its records just now (a database error): try " +
             command_name(query.kind) + " again in a moment";
    case wire::ERROR_CODE_NO_RECORD:
      if (query.kind == CommandKind::History && !query.text.empty()) {
        return "No player called '" + safe_text(query.text, field_width::kName) +
               "' on this server";
      }
      if (query.kind == CommandKind::Replay) {
        return "No finished game has record " + std::to_string(query.record_id) +
               " (/history shows the record ids)";
      }
      break;
    default:
      break;
  }
  return error_text(error);
}

}  // namespace ttt::client
