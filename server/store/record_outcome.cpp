#include "store/record_outcome.hpp"

#include "ttt/wire/lobby_limits.hpp"
#include "ttt/wire/result_words.hpp"

namespace ttt::server {

std::string stored_reason(wire::EndReason reason) {
  switch (reason) {
    case wire::END_REASON_LINE:
      return "line";
    case wire::END_REASON_BOARD_FULL:
      return "board_full";
    case wire::END_REASON_RESIGNATION:
      return "resignation";
    case wire::END_REASON_TIMEOUT:
      return "timeout";
    case wire::END_REASON_DISCONNECT:
      return "disconnect";
    case wire::END_REASON_DRAW_AGREED:
      return "draw_agreed";
    case wire::END_REASON_ABORTED:
      return "aborted";
    case wire::END_REASON_TIMEOUT_NO_WIN:
      return "timeout_no_win";
    default:
      return "";
  }
}

wire::EndReason end_reason_of(const std::string& stored) {
  for (int r = wire::EndReason_MIN; r <= wire::EndReason_MAX; ++r) {
    const auto reason = static_cast<wire::EndReason>(r);
    if (wire::EndReason_IsValid(r) && stored_reason(reason) == stored) return reason;
  }
  return wire::END_REASON_NONE;
}

wire::GameStatus game_status_of(const std::string& stored) {
  if (stored == "x_won") return wire::GAME_STATUS_X_WON;
  if (stored == "o_won") return wire::GAME_STATUS_O_WON;
  if (stored == "draw" || stored == "aborted") return wire::GAME_STATUS_DRAW;
  return wire::GAME_STATUS_IN_PROGRESS;
}

std::optional<ttt::Line> winning_line_of(const GameRecord& game) {
  if (end_reason_of(game.reason) != wire::END_REASON_LINE) return std::nullopt;
  if (game.size < 1 || game.size > wire::kMaxLobbySize) return std::nullopt;
  // The store keeps the size as the win length of a whole-line game.
  const int k = game.win_length == game.size ? 0 : game.win_length;
  if (k != 0 && !Board::valid_win_length(game.size, k)) return std::nullopt;
  Game replayed(game.size, k);
  for (const StoredMove& m : game.moves) {
    if (replayed.play(replayed.to_move(), m.row, m.col)) return std::nullopt;  // refused
  }
  return replayed.winning_line();
}

std::string result_text(const GameRecord& game) {
  return wire::result_text(game_status_of(game.status), end_reason_of(game.reason),
                           winning_line_of(game));
}

}  // namespace ttt::server
