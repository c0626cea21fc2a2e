#include "console/record_text.hpp"

#include <ctime>
#include <vector>

#include "console/game_text.hpp"
#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/result_words.hpp"
#include "view/board_name.hpp"

namespace ttt::client {
namespace {

std::string column_name(const std::string& raw) { return safe_text(raw, kNameColumnWidth); }

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

std::string leaderboard_text(const wire::Leaderboard& board, std::size_t width) {
  if (board.entries().empty()) return "Nobody has finished a game on this server yet.";
  TextTable table({{"rank", 9, 0, true, false, 0, 4},
                   {"name", 9, 8, false, false, 2, kNameColumnWidth},
                   {"rating", 8, 0, true, false, 1, 7},
                   {"games", 6, 0, true, false, 1, 6},
                   {"W", 4, 0, true, false, 1, 5},
                   {"L", 4, 0, true, false, 1, 5},
                   {"D", 4, 0, true, false, 1, 5},
                   {"", 3, 8, false, true, 2, 0}});
  int rank = 0;
  for (const wire::LeaderboardEntry& e : board.entries()) {
    std::string note = e.server_bot() ? "the server's bot" : "";
    if (e.provisional()) note += std::string(note.empty() ? "" : ", ") + "provisional";
    table.add_row({std::to_string(++rank), column_name(e.name()), rating_text(e.rating()),
                   std::to_string(e.games()), std::to_string(e.wins()), std::to_string(e.losses()),
                   std::to_string(e.draws()), note});
  }
  std::string text = table.render(width);
  text.pop_back();  // the last line's '\n'
  return text;
}

std::string record_result_text(const wire::GameRecord& record) {
  std::optional<Line> line;
  if (record.end_reason() == wire::END_REASON_LINE && record.has_winning_line()) {
    line = wire::line_of(record.winning_line());
  }
  return wire::result_text(record.status(), record.end_reason(), line);
}

std::string history_text(const wire::History& history, TimeZone zone, std::size_t width) {
  const std::string name = safe_text(history.name(), field_width::kName);
  if (history.games().empty()) return name + " has no finished games yet.";
  TextTable table({{"record", 9, 0, true, false, 0, 6},
                   {"ended", 5, 0, false, false, 2, 16, true},
                   {"board", 6, 5, false, false, 2, 17, true},
                   {"X", 8, 8, false, false, 2, kNameColumnWidth},
                   {"O", 8, 8, false, false, 1, kNameColumnWidth},
                   {"result", 7, 12, false, false, 1, 32},
                   {"rated", 3, 0, false, false, 1, 7, true},
                   {"moves", 4, 0, true, false, 1, 5, true}});
  for (const wire::GameRecord& g : history.games()) {
    table.add_row({std::to_string(g.record_id()), time_text(g.ended_ms(), zone),
                   board_name(g.size(), g.win_length()), column_name(g.x_name()),
                   column_name(g.o_name()), record_result_text(g), g.rated() ? "rated" : "unrated",
                   std::to_string(g.move_count())});
  }
  return wrap_text("Recent games of " + name + ", newest first:", width) + "\n" +
         table.render(width) + "Step through one with /replay RECORD.";
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
