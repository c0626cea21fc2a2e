// Connection: where it connects. The lobby's nodes in rounds (the node of
// the last Welcome first, then the list), the Redirects that send it to
// another node (checked, bounded, and the vouched certificate used for that
// node's links only, never stored nor over a pin), and the fatal errors that
// decide whether to try again, elsewhere or not.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "link/connection.hpp"
#include "text/safe_text.hpp"
#include "trust/known_servers.hpp"

namespace ttt::client {

void Connection::start_round() {
  round_.clear();
  if (last_node_) round_.push_back(*last_node_);
  for (const ServerAddress& node : nodes_) {
    if (node != last_node_) round_.push_back(node);
  }
}

Connection::Attempt Connection::next_attempt() {
  if (next_) return *std::exchange(next_, std::nullopt);
  Attempt attempt;
  attempt.address = round_.front();
  round_.pop_front();
  // Back to a node a Redirect sent this client to: its vouched certificate
  // again (never a reservation: that was good once).
  if (vouched_node_ && vouched_node_->address == attempt.address) {
    attempt.vouched = vouched_node_->vouched;
    attempt.vouched_by = vouched_node_->vouched_by;
  }
  return attempt;
}

std::string Connection::cannot_connect_text() const {
  if (failures_.size() == 1) return "cannot connect to " + failures_.front();
  std::string text =
      "cannot connect to any of the lobby's " + std::to_string(failures_.size()) + " addresses: ";
  for (std::size_t i = 0; i < failures_.size(); ++i) text += (i ? "; " : "") + failures_[i];
  return text;
}

void Connection::follow(const wire::Redirect& redirect) {
  std::string why;
  const auto target = check_redirect(redirect, why);
  if (!target) {
    set_reason("refused a redirect from " + where() + ": " + why);
    give_up_ = true;
    return;
  }
  const std::string to = address_text(target->address);
  if (!redirect_limit_.allow(std::chrono::steady_clock::now())) {
    const auto window = std::chrono::duration_cast<std::chrono::seconds>(redirect_limit_.window());
    set_reason("too many redirects (more than " + std::to_string(redirect_limit_.most()) +
               " within " + std::to_string(window.count()) + " s, the last from " + where() +
               " to " + to + "): the lobby's nodes keep sending this client on");
    give_up_ = true;
    return;
  }
  set_reason("sent on to " + to);
  Attempt attempt;
  attempt.address = target->address;
  attempt.vouched = target->fingerprint;
  attempt.vouched_by = where();
  attempt.reservation = target->reservation;
  attempt.redirected = true;
  if (!attempt.vouched.empty()) {
    vouched_node_ = attempt;
  } else {
    vouched_node_.reset();
  }
  next_ = std::move(attempt);
  spdlog::debug("{} sends this client to {}", where(), to);
  events_.on_redirected(to, safe_text(redirect.reason(), field_width::kMessage));
}

std::string Connection::pin_for(const ServerAddress& node) const {
  if (!options_.fingerprint.empty() &&
      std::find(nodes_.begin(), nodes_.end(), node) != nodes_.end()) {
    return options_.fingerprint;
  }
  if (options_.known_servers.empty()) return "";
  const auto lookup = KnownServers(options_.known_servers).find(node.host, node.port);
  return lookup.entry ? lookup.entry->fingerprint : "";
}

bool Connection::on_fatal(const wire::Error& error) {
  set_reason("the server closed the connection: " + safe_text(error.text(), field_width::kMessage));
  switch (error.code()) {
    case wire::ERROR_CODE_BAD_RESUME_TOKEN:
      // The server no longer knows us (the game ended, or it restarted without
      // it): carry on as a new player, at once (a node that says so to a
      // Hello without a token waits like any other: no loop without a pause).
      retry_now_ = !token_.empty();
      token_.clear();
      break;
    case wire::ERROR_CODE_RESERVATION_GONE:
      // The seat a Redirect kept expired: the same node, at once, without it
      // (a node that says so without a reservation waits like any other).
      retry_now_ = !attempt_.reservation.empty();
      attempt_.reservation.clear();
      break;
    case wire::ERROR_CODE_SERVER_FULL:
    case wire::ERROR_CODE_TOO_MANY_CONNECTIONS:
    case wire::ERROR_CODE_DRAINING:
    case wire::ERROR_CODE_CLUSTER_UNAVAILABLE:
      // Full, drained or cut off from the lobby's shared state now: another
      // node of the lobby, or this one later; a first connect gives up once
      // every node has been tried.
      break;
    case wire::ERROR_CODE_NAME_TAKEN:
      if (!next_secret_.empty()) {
        // A rotation the server may have stored: try its new secret once.
        secret_ = std::exchange(next_secret_, "");
        retry_now_ = true;
        return false;  // nothing the owner needs to hear of
      }
      give_up_ = true;
      break;
    case wire::ERROR_CODE_HELLO_TIMEOUT:
    case wire::ERROR_CODE_IDLE_TIMEOUT:
    case wire::ERROR_CODE_SLOW_CONSUMER:
    case wire::ERROR_CODE_SHUTTING_DOWN:
      break;  // worth another try
    default:  // replaced, a wrong version or a bad name, our own bug
      give_up_ = true;
      break;
  }
  return true;
}

}  // namespace ttt::client
