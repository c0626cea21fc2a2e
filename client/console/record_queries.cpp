#include "console/record_queries.hpp"

#include <spdlog/spdlog.h>

#include "console/record_text.hpp"
#include "console/screen_fit.hpp"
#include "console/session_text.hpp"

namespace ttt::client {

std::optional<Command> RecordQueries::take(std::uint32_t in_reply_to) {
  const auto query = in_flight_.find(in_reply_to);
  if (query == in_flight_.end()) return std::nullopt;
  Command command = std::move(query->second);
  in_flight_.erase(query);
  return command;
}

bool RecordQueries::show(const wire::ServerMessage& reply, const Command& query) {
  switch (reply.body_case()) {
    case wire::ServerMessage::kLeaderboard:
      pager_.show(leaderboard_text(reply.leaderboard(), screen_width(terminal_)) + "\n");
      break;
    case wire::ServerMessage::kHistory:
      pager_.show(history_text(reply.history(), TimeZone::Local, screen_width(terminal_)) + "\n");
      break;
    case wire::ServerMessage::kReplay:
      pager_.show_replay(reply.replay().game(),
                         board_style(terminal_, reply.replay().game().size()), TimeZone::Local);
      break;
    case wire::ServerMessage::kProfile:
      terminal_.print(profile_text(reply.profile()) + "\n");
      break;
    case wire::ServerMessage::kError:
      if (reply.error().fatal()) return false;
      terminal_.print(record_error_text(reply.error(), query) + "\n");
      break;
    default:
      spdlog::debug("unexpected reply of kind {} to a records query",
                    static_cast<int>(reply.body_case()));
  }
  return true;
}

}  // namespace ttt::client
