// RecordQueries: the server's records the player asked for (/top, /history,
// /replay, /me) while their answers are on the way, and each answer shown:
// tables through the Pager, a replay a move at a time, a refusal in words
// that name the query.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "console/command.hpp"
#include "console/pager.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class RecordQueries {
 public:
  RecordQueries(Terminal& terminal, Pager& pager) : terminal_(terminal), pager_(pager) {}

  // The query went to the server as request id.
  void asked(std::uint32_t id, const Command& query) { in_flight_[id] = query; }

  // The query a reply answers, taken from those in flight; nullopt when the
  // reply is not to a query.
  std::optional<Command> take(std::uint32_t in_reply_to);

  // Shows the reply to query. False when it is a fatal error, left to the
  // caller.
  bool show(const wire::ServerMessage& reply, const Command& query);

  // The link was lost: no answers are coming.
  void clear() noexcept { in_flight_.clear(); }

 private:
  Terminal& terminal_;
  Pager& pager_;
  std::map<std::uint32_t, Command> in_flight_;  // by request id
};

}  // namespace ttt::client
