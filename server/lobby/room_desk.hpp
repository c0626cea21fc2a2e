// RoomDesk: the requests a player makes to take a place in a room and to
// act in it: CreateGame (with the server's bot, or private with an invite
// code), JoinGame (by id or by code), QuickMatch (checked here, paired by
// QuickMatch), Spectate, Leave, the in-game requests its room answers
// (MakeMove, Resign, OfferDraw, Rematch, Decline), Chat, with the chat rate
// of each address, and ChatSettings. Each request is checked (rules, clock, quotas, a
// place free, the node taking games) and refused with an Error naming what
// is wrong; a game listed at another node is asked for there (through the
// host). The rooms and their seats are the RoomRegistry's. Runs on the logic
// executor.
#pragma once

#include <cstdint>
#include <string>

#include "ids.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "limits/rate_limiter.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/game_request_checks.hpp"
#include "lobby/invite_codes.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/quick_match.hpp"
#include "lobby/room_registry.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// What the room desk asks of the lobby around it (the Lobby, or a test's fake).
class RoomDeskHost : public virtual PlayerReplies {
 public:
  // The wrong invite codes the player's connection may still try (null
  // while it is away).
  virtual RateLimiter* invite_tries(const LobbyPlayer& player) = 0;
  // Whether a free seat of game `game` is kept for a player another node
  // sends here (NodeRouter::seat_kept).
  virtual bool seat_kept(GameId game) const = 0;
  // Asks node `to` to keep a place for the player and sends it there
  // (NodeRouter::seat_elsewhere); an error to the player if refused.
  virtual void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                              std::uint32_t request_id) = 0;
  // This node drains (no new games here), or the server shuts down.
  virtual bool draining() const noexcept = 0;
  virtual bool shutting_down() const noexcept = 0;
};

// The chat of all players of one address: a line a second on average, and
// the burst it allows.
struct AddressChatRate {
  double per_second = 3.0;
  double burst = 10.0;
};

class RoomDesk final : public GameRequestChecks {
 public:
  // Everything given outlives the desk.
  RoomDesk(RoomRegistry& rooms, InviteCodes& invites, const GameDirectory& directory,
           const Cluster& cluster, QuickMatch& quick_match, RoomDeskHost& host,
           AddressChatRate address_chat);

  RoomDesk(const RoomDesk&) = delete;
  RoomDesk& operator=(const RoomDesk&) = delete;

  // CreateGame: a new room, the player seated on the side it asked (the
  // bot opposite, if asked); private rooms get an invite code.
  void create(LobbyPlayer& player, const wire::CreateGame& create, std::uint32_t request_id);
  // JoinGame, by id or by invite code: the free seat of a waiting room here,
  // or a place asked for at the node that lists it.
  void join(LobbyPlayer& player, const wire::JoinGame& join, std::uint32_t request_id);
  // QuickMatch: checked, then asked of QuickMatch.
  void quick_match(LobbyPlayer& player, const wire::QuickMatch& quick, std::uint32_t request_id);
  // Spectate: a place among a room's spectators (one address takes a tenth
  // of them at most), here or at the node that lists it.
  void spectate(LobbyPlayer& player, const wire::Spectate& spectate, std::uint32_t request_id);
  // Leave: the quick match the player waits for (Left replied), or its room.
  void leave(LobbyPlayer& player, std::uint32_t request_id);
  // MakeMove, Resign, OfferDraw, Rematch or Decline, for the player's room.
  void in_room(LobbyPlayer& player, const wire::ClientMessage& message);
  // Chat to the player's room, checked (length, characters, the player's
  // and its address's rates).
  void chat(LobbyPlayer& player, const wire::Chat& chat, std::uint32_t request_id);
  // ChatSettings: whether the player hears its room's spectators chat (now
  // and in the rooms it enters later); the settings replied.
  void chat_settings(LobbyPlayer& player, const wire::ChatSettings& settings,
                     std::uint32_t request_id);

  // GameRequestChecks, for its own requests and the challenge desk's.
  bool valid_rules(LobbyPlayer& player, int size, int win_length,
                   std::uint32_t request_id) override;
  bool valid_clock(LobbyPlayer& player, const wire::ClockSettings& clock,
                   std::uint32_t request_id) override;
  bool within_quota(LobbyPlayer& player, bool bot_game, std::uint32_t request_id) override;
  bool may_hold_seat(const LobbyPlayer& player) const override;

 private:
  // Checks a player can enter a room (the node takes games, the player is
  // in none); replies an Error and returns false if not. It stops waiting
  // for a quick match if it can.
  bool can_enter(LobbyPlayer& player, std::uint32_t request_id);
  // Whether the listed game is held by another node.
  bool elsewhere(const Listing& listing) const {
    return !listing.node.empty() && listing.node != cluster_.self().id;
  }

  RoomRegistry& rooms_;
  InviteCodes& invites_;
  const GameDirectory& directory_;
  const Cluster& cluster_;
  QuickMatch& quick_match_;
  RoomDeskHost& host_;
  KeyedRateLimiter address_chat_;  // chat lines of each address
};

}  // namespace ttt::server
