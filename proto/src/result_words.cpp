#include "ttt/wire/result_words.hpp"

namespace ttt::wire {
namespace {

// Why the loser (X or O) lost, or "" when there is nothing to add.
std::string why_lost(EndReason reason, const std::string& loser,
                     const std::optional<ttt::Line>& line) {
  switch (reason) {
    case END_REASON_LINE:
      return line ? line_name(*line) : "a line";
    case END_REASON_RESIGNATION:
      return loser + " resigned";
    case END_REASON_TIMEOUT:
      return loser + " ran out of time";
    case END_REASON_DISCONNECT:
      return loser + " disconnected";
    default:
      return "";
  }
}

}  // namespace

std::string result_text(GameStatus status, EndReason reason, const std::optional<ttt::Line>& line) {
  switch (status) {
    case GAME_STATUS_X_WON:
    case GAME_STATUS_O_WON: {
      const bool x_won = status == GAME_STATUS_X_WON;
      const std::string why = why_lost(reason, x_won ? "O" : "X", line);
      return std::string(x_won ? "X" : "O") + " wins" + (why.empty() ? "" : " (" + why + ")");
    }
    case GAME_STATUS_DRAW:
      if (reason == END_REASON_DRAW_AGREED) return "draw (agreed)";
      if (reason == END_REASON_ABORTED) return "no result (the server shut down)";
      if (reason == END_REASON_TIMEOUT_NO_WIN) {
        return "draw (time ran out, and the other side could no longer win)";
      }
      return "draw";
    case GAME_STATUS_WAITING:
      return "waiting for an opponent";
    default:
      return "in progress";
  }
}

}  // namespace ttt::wire
