// NodeAttempts: which node of the lobby a connection tries next. The nodes
// go in rounds: the node of the last Welcome first, then the lobby's in
// order. A Redirect from a node is checked (link/redirect.hpp), bounded, and
// puts the node it names first, with the seat kept there and the
// certificate the redirecting node vouched for; that certificate is used
// for that node's links only, never stored, and never over a pin the user
// set. The failures of a first connect are kept for one message naming
// every node tried.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "link/redirect.hpp"
#include "link/server_list.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// One try at one node, and what a Redirect gave for it.
struct Attempt {
  ServerAddress address;
  std::string vouched;      // the fingerprint a redirecting node vouched for; empty: none
  std::string vouched_by;   // that node, "host:port"
  std::string reservation;  // for Hello.reservation
  bool redirected = false;  // a Redirect named this node
};

// Where the user pins the nodes' certificates.
struct NodePins {
  std::string fingerprint;    // --fingerprint: for the addresses the user named
  std::string known_servers;  // the file of servers trusted on first use; empty: none
};

class NodeAttempts {
 public:
  // nodes: the lobby's addresses, the first naming the lobby (duplicates
  // are tried once); a Redirect more than max_redirects times within
  // redirect_window is refused.
  NodeAttempts(std::vector<ServerAddress> nodes, NodePins pins, std::size_t max_redirects,
               std::chrono::milliseconds redirect_window);

  // The node that names the lobby.
  const ServerAddress& first() const { return nodes_.front(); }

  // A new round: the node of the last Welcome first, then the others in order.
  void start_round();
  // Every node of the round has been tried.
  bool round_over() const noexcept { return round_.empty(); }
  // The next try: a Redirect's or a retry's first, else the round's next
  // node (which must not be over).
  Attempt next();
  // A try waits to go before the round's next node (a Redirect's, or a retry).
  bool has_next() const noexcept { return next_.has_value(); }
  // The same try again, at once.
  void again(const Attempt& attempt) { next_ = attempt; }

  // The try could not reach its node: a Redirect that led there is no circle.
  void unreachable(const Attempt& attempt);
  // The try got a Welcome; kept_seat: it sat in the seat a Redirect kept
  // for it (that Redirect went somewhere, so it is no circle). True when
  // the Welcome came from the node of the Welcome before.
  bool welcomed(const Attempt& attempt, bool kept_seat);

  // A first connect failed at a node: "host:port: REASON".
  void failed(std::string what) { failures_.push_back(std::move(what)); }
  // "cannot connect to A: REASON" (or to each of the nodes tried).
  std::string cannot_connect_text() const;

  // A Redirect from node `from` ("host:port"): the node it names is tried
  // next and its "host:port" returned, or nullopt with why it is refused (a
  // bad target, or too many redirects: the connection gives up).
  std::optional<std::string> follow(const wire::Redirect& redirect, const std::string& from,
                                    std::string& why);

  // The fingerprint the user pins for a node, if any: its known_servers
  // entry, or --fingerprint for an address the user named. A redirect can't
  // change it.
  std::string pin_for(const ServerAddress& node) const;

 private:
  std::vector<ServerAddress> nodes_;  // the lobby's, in order, each once
  NodePins pins_;
  std::deque<ServerAddress> round_;         // the nodes left to try in this round
  std::optional<Attempt> next_;             // to try before the round goes on
  std::optional<ServerAddress> last_node_;  // the node of the last Welcome
  // A node reached through a Redirect: the fingerprint vouched for it, used
  // again (in memory only) when a lost link goes back there.
  std::optional<Attempt> vouched_node_;
  std::vector<std::string> failures_;  // "node: reason" of this first round
  RedirectLimit redirect_limit_;
};

}  // namespace ttt::client
