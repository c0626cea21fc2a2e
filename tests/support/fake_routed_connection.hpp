// FakeRoutedConnection: a client's connection as the lobby's parts see it
// (RoutedConnection), over a FakeParticipant that keeps what it is told, for
// tests of the parts that let clients in and move them between nodes. As
// the Lobby's own connection does, it attaches the player it speaks for
// (the player's peer and inbox are its own) and detaches it. A test marks
// it gone when the lobby would no longer have it.
#pragma once

#include <memory>
#include <string>

#include "lobby/node_router.hpp"
#include "net/inbox.hpp"
#include "support/fake_participant.hpp"

namespace ttt::testing {

class FakeRoutedConnection : public server::RoutedConnection,
                             public server::Inbox,
                             public std::enable_shared_from_this<FakeRoutedConnection> {
 public:
  std::shared_ptr<server::Participant> participant() const override {
    return gone ? nullptr : std::static_pointer_cast<server::Participant>(peer);
  }
  server::LobbyPlayer* speaks_for() const override { return player; }
  const std::string& peer_address() const override { return address; }
  void begin_routing() override { routing = true; }
  void end_routing() override { routing = false; }
  std::weak_ptr<server::RoutedConnection> handle() override { return weak_from_this(); }
  void attach(server::LobbyPlayer& speaker) override {
    player = &speaker;
    speaker.inbox = this;
    speaker.participant = peer;
  }
  void detach() override {
    if (player == nullptr) return;
    player->inbox = nullptr;
    player->participant.reset();
    player = nullptr;
  }
  // Inbox: what the peer says and its closing are the test's to drive.
  void receive(const wire::ClientMessage&) override {}
  void closed() override {}

  std::shared_ptr<FakeParticipant> peer = std::make_shared<FakeParticipant>();
  server::LobbyPlayer* player = nullptr;
  std::string address = "10.0.0.9";
  bool routing = false;
  bool gone = false;  // dropped: the lobby no longer has it
};

}  // namespace ttt::testing
