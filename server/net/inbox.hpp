// Inbox and Gate: how a connection reaches whoever handles its messages
// (the lobby) without knowing it. A session opens an Inbox through the Gate
// when it starts and reports to it, always on the logic executor: every
// message in order, then closed() once.
#pragma once

#include <memory>
#include <string>

#include "net/participant.hpp"

namespace ttt::server {

class Inbox {
 public:
  virtual ~Inbox() = default;
  // One message from the peer (a Hello first; the session enforces that).
  virtual void receive(const wire::ClientMessage& message) = 0;
  // The connection is gone; nothing more arrives.
  virtual void closed() = 0;
};

class Gate {
 public:
  virtual ~Gate() = default;
  // A new connection: returns the inbox its messages go to. Runs on the
  // logic executor; `conn` is how replies reach the peer, `address` where it
  // comes from, as limits per address count it (net/peer_address.hpp; empty
  // for the server's own bots).
  virtual std::shared_ptr<Inbox> open(const std::shared_ptr<Participant>& conn,
                                      const std::string& address) = 0;
};

}  // namespace ttt::server
