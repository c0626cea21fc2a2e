// FakeParticipant: a connection without a socket, for tests that drive the
// lobby or a room directly. It keeps every message it is given, and says
// whether it was closed and whether its heartbeat is on.
#pragma once

#include <functional>
#include <vector>

#include "net/participant.hpp"
#include "ttt.pb.h"

namespace ttt::testing {

class FakeParticipant : public server::Participant {
 public:
  void deliver(const server::Outbound& message) override;
  void close() override { closed = true; }
  void set_heartbeat(bool on) override { heartbeat = on; }

  // The last message received that `pred` holds for, or null.
  const wire::ServerMessage* last(
      const std::function<bool(const wire::ServerMessage&)>& pred) const;
  // The last Error received (the whole message), or null.
  const wire::ServerMessage* last_error() const;
  // The last game state received (from a GameState or a Joined), or null.
  const wire::GameState* last_state() const;
  // The OfferEnded messages received, oldest first.
  std::vector<wire::OfferEnded> offers_ended() const;
  // Whether an OpponentStatus was received.
  bool got_opponent_status() const;

  std::vector<wire::ServerMessage> received;
  bool closed = false;
  bool heartbeat = false;
};

}  // namespace ttt::testing
