// Lobby::Connection, for the lobby's own files only.
#pragma once

#include <exception>
#include <memory>
#include <vector>

#include "lobby/lobby.hpp"

namespace ttt::server {

// The lobby's end of one connection: its messages and its closing reach the
// lobby through here, with the player it speaks for once it said Hello. A
// move needs no lookup: connection -> player -> room. The Admission and the
// NodeRouter see it as a RoutedConnection.
class Lobby::Connection final : public Inbox,
                                public RoutedConnection,
                                public std::enable_shared_from_this<Lobby::Connection> {
 public:
  Connection(Lobby& lobby, const std::shared_ptr<Participant>& conn, std::string from)
      : address(std::move(from)),
        invite_failures(1000.0 / static_cast<double>(lobby.config_.invite_retry.count()),
                        lobby.config_.invite_failures_per_connection),
        lobby_(lobby),
        conn_(conn) {}

  void receive(const wire::ClientMessage& message) override {
    if (closed_) return;
    try {
      if (lobby_.config_.before_message) lobby_.config_.before_message(message);
      lobby_.receive(*this, message);
    } catch (const std::exception& e) {
      lobby_.fault(*this, e.what());
    }
  }
  void closed() override {
    if (closed_) return;
    closed_ = true;
    lobby_.closed(*this);
  }

  std::shared_ptr<Participant> participant() const override { return conn_.lock(); }
  LobbyPlayer* speaks_for() const override { return player; }
  const std::string& peer_address() const override { return address; }
  std::weak_ptr<RoutedConnection> handle() override { return weak_from_this(); }
  void attach(LobbyPlayer& speaker) override {
    player = &speaker;
    speaker.inbox = this;
    speaker.participant = conn_;
  }
  void detach() override {
    if (player == nullptr) return;
    player->inbox = nullptr;
    player->participant.reset();
    player = nullptr;
  }

  LobbyPlayer* player = nullptr;  // attached at Hello; null once detached
  // Its Hello waits for an answer from the other nodes or the records
  // (several nodes): what the peer sends meanwhile is held (at most
  // kMaxHeld messages) and handled, in order, once the Hello is answered.
  static constexpr std::size_t kMaxHeld = 32;
  bool routing = false;
  std::vector<wire::ClientMessage> held;
  void begin_routing() override { routing = true; }
  void end_routing() override {
    routing = false;
    if (!held.empty()) lobby_.replay_held(*this);
  }
  const std::string address;    // where the connection comes from (net/peer_address.hpp)
  RateLimiter invite_failures;  // wrong invite codes this connection may still try

 private:
  Lobby& lobby_;
  std::weak_ptr<Participant> conn_;
  bool closed_ = false;
};

}  // namespace ttt::server
