// RequestSender: where the parts of ttt-client send their requests to the
// server. ConsoleClient is the sender (through its Connection) and keeps
// which replies are due; unit tests put a fake in its place.
#pragma once

#include <cstdint>

#include "ttt.pb.h"

namespace ttt::client {

class RequestSender {
 public:
  virtual ~RequestSender() = default;

  // A request the player asked for: its request id, or 0 (and a line saying
  // so) when there is no connection. A reply awaited keeps a script from
  // ending until it comes.
  virtual std::uint32_t send(wire::ClientMessage message, bool awaits_reply) = 0;

  // A request made on the player's behalf (lists kept fresh, a challenge
  // declined unseen): its request id, or 0 without a word when there is no
  // connection.
  virtual std::uint32_t send_quietly(wire::ClientMessage message) = 0;
};

}  // namespace ttt::client
