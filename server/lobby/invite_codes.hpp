// InviteCodes: the codes that open this node's private games, and the wrong
// tries at them. A code is made by the cryptographic generator (secrets.hpp)
// and unique among this node's games; a code typed by a player finds its
// game here or, through the game directory, at another node. Wrong tries
// are limited per connection (the caller's RateLimiter) and per address (a
// burst, then one every retry): a player is told RATE_LIMITED with the wait
// before the code is even looked at. Runs on the logic executor.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "game/game_room.hpp"
#include "ids.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "limits/rate_limiter.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"

namespace ttt::server {

// Wrong tries one address may make: a burst, then one every retry.
struct InviteLimits {
  double failures_per_address = 20;
  std::chrono::milliseconds retry{3'000};
};

class InviteCodes {
 public:
  InviteCodes(const GameDirectory& directory, PlayerReplies& replies, InviteLimits limits);

  InviteCodes(const InviteCodes&) = delete;
  InviteCodes& operator=(const InviteCodes&) = delete;

  // A new code no game here has, as players see it.
  std::string issue() const;
  // A private game here opens (or closes) with its code.
  void open(std::string_view code, GameId game);
  void close(std::string_view code);

  // The game a typed code opens, here or at another node. nullopt (the
  // player told why) for a wrong code, which counts as a wrong try, or when
  // the player may not try now. `tries`: the connection's wrong tries left
  // (null: none counted, e.g. a player away).
  std::optional<GameId> game_of(LobbyPlayer& player, RateLimiter* tries, std::string_view code,
                                std::uint32_t request_id);
  // Whether the code opens game `game` here (any code opens a public one);
  // a wrong code is a wrong try, and the player is told.
  bool admits(LobbyPlayer& player, RateLimiter* tries, GameId game, const RoomSettings& settings,
              std::string_view code, std::uint32_t request_id);
  // Whether the code opens a room of these settings (any code a public one),
  // compared in constant time; no try is counted.
  static bool opens(const RoomSettings& settings, std::string_view code);
  // The same for a game another node lists: checked against the listing's
  // key (its holder checks again).
  bool admits(LobbyPlayer& player, RateLimiter* tries, const Listing& listing,
              std::string_view code, std::uint32_t request_id);

 private:
  // Whether the player may try a code now; replies RATE_LIMITED if not.
  bool may_try(LobbyPlayer& player, RateLimiter* tries, std::uint32_t request_id);
  // A wrong code: one try less for the connection and the address; the
  // player is told why (text).
  void wrong(LobbyPlayer& player, RateLimiter* tries, std::string text, std::uint32_t request_id);

  const GameDirectory& directory_;
  PlayerReplies& replies_;
  KeyedRateLimiter per_address_;
  std::unordered_map<std::string, GameId> games_;  // by normalized code
};

}  // namespace ttt::server
