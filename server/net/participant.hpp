// Participant: whoever sits at the lobby's end of a connection — a network
// session or the server's own bot. The lobby and rooms talk to this
// interface only, so tests can fake a player without a socket.
#pragma once

#include <memory>
#include <string>

#include "ttt.pb.h"

namespace ttt::server {

// A message to send: the message itself (for in-process participants) and
// its frame, encoded once however many participants receive it.
struct Outbound {
  std::shared_ptr<const wire::ServerMessage> message;
  std::shared_ptr<const std::string> frame;
};

// Encodes message once for any number of recipients.
Outbound make_outbound(wire::ServerMessage message);

// Builds a message in place, in memory that goes with its frame: one
// allocation for the message and its parts (a protobuf arena) and the frame,
// for the messages sent most (a game's state after every move).
class OutboundBuilder {
 public:
  OutboundBuilder();
  // The message to fill; finish() encodes it.
  wire::ServerMessage& message() noexcept { return *message_; }
  // Encodes the message once; the builder is spent.
  Outbound finish();

 private:
  struct Held;
  std::shared_ptr<Held> held_;
  wire::ServerMessage* message_;
};

class Participant {
 public:
  virtual ~Participant() = default;

  // Queues a message for this participant. Never blocks; may be called from
  // any thread. A participant that can't keep up drops its connection.
  virtual void deliver(const Outbound& message) = 0;

  // Sends what is queued, then closes (after a fatal error or on shutdown).
  virtual void close() = 0;

  // While on (a player seated in a game), a dead link must be noticed within
  // seconds: a network connection pings and drops its peer on the
  // heartbeat's shorter deadlines. In-process participants ignore it.
  virtual void set_heartbeat(bool /*on*/) {}
};

}  // namespace ttt::server
