#include "store/game_export.hpp"

#include <ctime>
#include <iomanip>

namespace ttt::server {
namespace {

// 2026-11-22T14:03:07.123Z
std::string utc_time(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(text) + millis;
}

std::string result_of(const GameRecord& g) {
  if (g.status == "x_won") return "X";
  if (g.status == "o_won") return "O";
  if (g.status == "draw") return "draw";
  return "none";
}

}  // namespace

std::size_t export_games(Store& store, std::ostream& out) {
  out << "# ttt games export, format 1\n\n";
  std::size_t count = 0;
  for (const GameRecord& g : store.finished_games()) {
    out << "game " << g.id << "\n";
    out << "room " << g.room_id << " round " << g.round << "\n";
    out << "size " << g.size << "\n";
    out << "x " << g.x_name << "\n";
    out << "o " << g.o_name << "\n";
    out << "rated " << (g.rated ? "yes" : "no") << "\n";
    out << "start " << utc_time(g.started_ms) << "\n";
    out << "end " << utc_time(g.ended_ms) << "\n";
    out << "result " << result_of(g) << "\n";
    out << "reason " << (g.reason.empty() ? "none" : g.reason) << "\n";
    out << "moves " << g.moves.size() << "\n";
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const StoredMove& m = g.moves[i];
      out << "move " << i + 1 << " " << (i % 2 == 0 ? "X" : "O") << " " << m.row << " " << m.col
          << " " << (m.at_ms - g.started_ms) << "\n";
    }
    out << "\n";
    ++count;
  }
  return count;
}

}  // namespace ttt::server
