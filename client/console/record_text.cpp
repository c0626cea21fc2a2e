#include "console/record_text.hpp"

#include <cstdio>
#include <ctime>

#include "console/game_text.hpp"

namespace ttt::client {
namespace {

// One row of a table, laid out by a printf format of string columns, without
// trailing spaces.
template <typename... Columns>
std::string row_text(const char* format, Columns... columns) {
  char row[512];
  std::snprintf(row, sizeof row, format, columns...);
  std::string line = row;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

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
  constexpr const char* kRow = "%4s  %-18s %7s %6s %5s %5s %5s";
  std::string text = row_text(kRow, "rank", "name", "rating", "games", "W", "L", "D");
  int rank = 0;
  for (const wire::LeaderboardEntry& e : board.entries()) {
    text += "\n" + row_text(kRow, std::to_string(++rank).c_str(), e.name().c_str(),
                            rating_text(e.rating()).c_str(), std::to_string(e.games()).c_str(),
                            std::to_string(e.wins()).c_str(), std::to_string(e.losses()).c_str(),
                            std::to_string(e.draws()).c_str());
  }
  return text;
}

std::string record_result_text(const wire::GameRecord& record) {
  wire::GameState state;
  state.set_status(record.status());
  state.set_end_reason(record.end_reason());
  return result_text(state);
}

std::string history_text(const wire::History& history, TimeZone zone) {
  if (history.games().empty()) return history.name() + " has no finished games yet.";
  constexpr const char* kRow = "%6s  %-16s  %5s  %-18s %-18s %-32s %-7s %5s";
  std::string text = "Recent games of " + history.name() + ", newest first:\n";
  text += row_text(kRow, "record", "ended", "size", "X", "O", "result", "rated", "moves") + "\n";
  for (const wire::GameRecord& g : history.games()) {
    const std::string size = std::to_string(g.size()) + "x" + std::to_string(g.size());
    text += row_text(kRow, std::to_string(g.record_id()).c_str(),
                     time_text(g.ended_ms(), zone).c_str(), size.c_str(), g.x_name().c_str(),
                     g.o_name().c_str(), record_result_text(g).c_str(),
                     g.rated() ? "rated" : "unrated", std::to_string(g.move_count()).c_str()) +
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
        return "No player called '" + query.text + "' on this server";
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
