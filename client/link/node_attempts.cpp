#include "link/node_attempts.hpp"

#include <algorithm>

#include "trust/known_servers.hpp"

namespace ttt::client {

NodeAttempts::NodeAttempts(std::vector<ServerAddress> nodes, NodePins pins,
                           std::size_t max_redirects, std::chrono::milliseconds redirect_window)
    : pins_(std::move(pins)), redirect_limit_(max_redirects, redirect_window) {
  for (ServerAddress& node : nodes) {
    if (std::find(nodes_.begin(), nodes_.end(), node) == nodes_.end()) {
      nodes_.push_back(std::move(node));
    }
  }
}

void NodeAttempts::start_round() {
  round_.clear();
  if (last_node_) round_.push_back(*last_node_);
  for (const ServerAddress& node : nodes_) {
    if (node != last_node_) round_.push_back(node);
  }
}

Attempt NodeAttempts::next() {
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

void NodeAttempts::unreachable(const Attempt& attempt) {
  // Sent to a node that can't be reached (gone since the sender last heard
  // of it): not a circle.
  if (attempt.redirected) redirect_limit_.forgive();
}

bool NodeAttempts::welcomed(const Attempt& attempt, bool kept_seat) {
  // A bot pairing fast in a lobby of several nodes is sent on often, and
  // rightly, when each redirect leads to its seat.
  if (attempt.redirected && kept_seat) redirect_limit_.forgive();
  const bool same_node = last_node_ == attempt.address;
  last_node_ = attempt.address;
  failures_.clear();
  return same_node;
}

std::string NodeAttempts::cannot_connect_text() const {
  if (failures_.size() == 1) return "cannot connect to " + failures_.front();
  std::string text =
      "cannot connect to any of the lobby's " + std::to_string(failures_.size()) + " addresses: ";
  for (std::size_t i = 0; i < failures_.size(); ++i) text += (i ? "; " : "") + failures_[i];
  return text;
}

std::optional<std::string> NodeAttempts::follow(const wire::Redirect& redirect,
                                                const std::string& from, std::string& why) {
  std::string problem;
  const auto target = check_redirect(redirect, problem);
  if (!target) {
    why = "refused a redirect from " + from + ": " + problem;
    return std::nullopt;
  }
  std::string to = address_text(target->address);
  if (!redirect_limit_.allow(std::chrono::steady_clock::now())) {
    const auto window = std::chrono::duration_cast<std::chrono::seconds>(redirect_limit_.window());
    why = "too many redirects (more than " + std::to_string(redirect_limit_.most()) + " within " +
          std::to_string(window.count()) + " s, the last from " + from + " to " + to +
          "): the lobby's nodes keep sending this client on";
    return std::nullopt;
  }
  Attempt attempt;
  attempt.address = target->address;
  attempt.vouched = target->fingerprint;
  attempt.vouched_by = from;
  attempt.reservation = target->reservation;
  attempt.redirected = true;
  if (!attempt.vouched.empty()) {
    vouched_node_ = attempt;
  } else {
    vouched_node_.reset();
  }
  next_ = std::move(attempt);
  return to;
}

std::string NodeAttempts::pin_for(const ServerAddress& node) const {
  if (!pins_.fingerprint.empty() && std::find(nodes_.begin(), nodes_.end(), node) != nodes_.end()) {
    return pins_.fingerprint;
  }
  if (pins_.known_servers.empty()) return "";
  const auto lookup = KnownServers(pins_.known_servers).find(node.host, node.port);
  return lookup.entry ? lookup.entry->fingerprint : "";
}

}  // namespace ttt::client
