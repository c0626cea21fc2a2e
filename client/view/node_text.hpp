// The words ttt-client and ttt-bot share for a lobby of several nodes: a
// node sending the client on (Redirect), the server's notices, and the
// errors a node of such a lobby gives. Pure functions; every server string
// through safe_text.
#pragma once

#include <optional>
#include <string>

#include "ttt.pb.h"

namespace ttt::client {

// "moved to node HOST:PORT: REASON" ("moved to node HOST:PORT" without a
// reason). where and reason come from Connection::on_redirected (reason
// already through safe_text).
std::string redirect_text(const std::string& where, const std::string& reason);

// A Notice as one line: "the server says: TEXT" (its text through
// safe_text), or words of our own for its code when it has none ("the
// server is waiting for its database: ...").
std::string notice_text(const wire::Notice& notice);

// Our words for the errors of a lobby of several nodes (CLUSTER_UNAVAILABLE,
// DRAINING, RESERVATION_GONE, DATABASE_WAIT), lower case, no full stop;
// nullopt for any other code.
std::optional<std::string> node_error_text(wire::ErrorCode code);

}  // namespace ttt::client
