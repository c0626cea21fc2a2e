// RecordedReplies: the lobby's players and its replies to them, for tests
// of one lobby part alone (PlayerReplies). Each player has a
// FakeParticipant that keeps what it was told; a player can be dropped, as
// when it leaves before a late answer arrives, or lose its connection. A
// test's fake host derives from it beside the host interface.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "lobby/player_replies.hpp"
#include "net/replies.hpp"
#include "support/fake_participant.hpp"

namespace ttt::testing {

// Replies delivered to the player's own connection, as the Lobby's are
// (errors as send_error makes them); the players are the test's.
class DeliveredReplies : public virtual server::PlayerReplies {
 public:
  void reply(const server::LobbyPlayer& player, wire::ServerMessage message) override {
    if (auto to = player.participant.lock()) to->deliver(server::make_outbound(std::move(message)));
  }
  void error(const server::LobbyPlayer& player, wire::ErrorCode code, std::string text,
             std::uint32_t request_id) override {
    server::send_error(player.participant, code, std::move(text), request_id);
  }
};

class RecordedReplies : public DeliveredReplies {
 public:
  // Player `id`, named `name`, connected from `address`.
  server::LobbyPlayer& add(std::uint64_t id, const std::string& name,
                           const std::string& address = "192.0.2.1") {
    auto& player = players_[server::SeatId{id}];
    player = std::make_unique<server::LobbyPlayer>();
    player->id = server::SeatId{id};
    player->account = server::AccountId{id};
    player->name = name;
    player->address = address;
    auto conn = std::make_shared<FakeParticipant>();
    conns_[server::SeatId{id}] = conn;
    player->participant = conn;
    return *player;
  }
  // What player `id` was told.
  FakeParticipant& conn(std::uint64_t id) { return *conns_.at(server::SeatId{id}); }
  // Player `id` is gone from the lobby.
  void drop(std::uint64_t id) { players_.erase(server::SeatId{id}); }
  // Player `id`'s connection drops without a word; the lobby still has it.
  void disconnect(std::uint64_t id) { conns_.erase(server::SeatId{id}); }

  server::LobbyPlayer* player_of(server::SeatId id) override {
    const auto it = players_.find(id);
    return it == players_.end() ? nullptr : it->second.get();
  }

 private:
  std::map<server::SeatId, std::unique_ptr<server::LobbyPlayer>> players_;
  std::map<server::SeatId, std::shared_ptr<FakeParticipant>> conns_;
};

}  // namespace ttt::testing
