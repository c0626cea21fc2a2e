#include "view/node_text.hpp"

#include "text/safe_text.hpp"

namespace ttt::client {

std::string redirect_text(const std::string& where, const std::string& reason) {
  return "moved to node " + where + (reason.empty() ? "" : ": " + reason);
}

std::string notice_text(const wire::Notice& notice) {
  if (!notice.text().empty()) {
    return "the server says: " + safe_text(notice.text(), field_width::kMessage);
  }
  return node_error_text(notice.code()).value_or("the server has something to say, but no words");
}

std::optional<std::string> node_error_text(wire::ErrorCode code) {
  switch (code) {
    case wire::ERROR_CODE_CLUSTER_UNAVAILABLE:
      return "the lobby's nodes can't reach their shared state just now: try again in a moment";
    case wire::ERROR_CODE_DRAINING:
      return "this node of the lobby is being drained and takes no new games: try again in a "
             "moment (another node takes them)";
    case wire::ERROR_CODE_RESERVATION_GONE:
      return "the seat kept for you at this node is no longer there (seats are kept a few seconds)";
    case wire::ERROR_CODE_DATABASE_WAIT:
      return "the server is waiting for its database: play goes on when it is back";
    default:
      return std::nullopt;
  }
}

}  // namespace ttt::client
