// LobbyConfig: how the lobby is run, from the command line (config.cpp):
// its timers, the server's bots, the limits per player and per address, the
// page sizes, and the nodes' timings. Plain values.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "lobby/address_quotas.hpp"
#include "ttt.pb.h"
#include "ttt/ai.hpp"
#include "ttt/cli/version.hpp"

namespace ttt::server {

struct LobbyConfig {
  std::chrono::milliseconds move_timeout{60'000};  // 0 = no move clock
  std::chrono::milliseconds reconnect_grace{30'000};
  // A game against the server's bot whose human is away ends after this:
  // nobody else waits for the human.
  std::chrono::milliseconds bot_game_grace{5'000};
  // The sessions' heartbeat timeout (SessionLimits), told to clients in Welcome.
  std::chrono::milliseconds heartbeat_timeout{10'000};
  std::chrono::milliseconds bot_fallback{0};  // quick match; 0 = never
  Level fallback_level = Level::Hard;         // the level of a fallback bot
  std::chrono::milliseconds bot_budget{200};  // thinking time per bot move
  int bot_threads = 1;                        // searches that run at once
  std::size_t bot_queue = 64;  // searches waiting past which new bot games are refused; 0 = no cap
  double chat_per_second = 1.0;          // chat rate limit per player...
  double chat_burst = 5.0;               // ...and the burst it allows
  double address_chat_per_second = 3.0;  // chat of all players of one address
  double address_chat_burst = 10.0;
  std::size_t max_spectators = 100;  // per game; 0 = no limit
  // Games between two accounts of one address (an IPv6 /64) are rated too
  // (a club behind one NAT); off: one address is one person to the ratings.
  bool rate_one_address = false;
  QuotaLimits quotas;  // game seats per address
  // Wrong invite codes: a burst per connection and per address, then one
  // every invite_retry.
  double invite_failures_per_connection = 5;
  double invite_failures_per_address = 20;
  std::chrono::milliseconds invite_retry{3'000};
  std::chrono::milliseconds token_lifetime{24LL * 3600 * 1000};  // resume tokens
  // New names one address may register in an hour (0 = no limit), and the
  // failed identity checks (wrong secrets, unknown tokens) an address may
  // make in an hour before each costs a growing wait (lobby/identity_backoff).
  std::size_t new_names_per_hour = 30;
  std::size_t identity_failures = 10;
  std::chrono::milliseconds challenge_lifetime{60'000};  // a challenge stands this long
  // The web client on the game port (--web on), and its public address
  // when a proxy is in front (--web-url), told to clients in Welcome.
  bool web_client = false;
  std::string web_url;
  // Challenges one player may make a minute (its address twice that, an
  // IPv6 /48 kNetworkShare times that), and how long before it may
  // challenge the same player again after a challenge that ended without a
  // game; 0 = no limits.
  double challenges_per_minute = 10;
  std::chrono::milliseconds challenge_cooldown{30'000};
  std::uint32_t list_page_size = 50;  // games per page by default...
  std::uint32_t list_page_max = 100;  // ...and at most
  std::string stats_token;            // GetStats with it gets the operator counters; empty = nobody
  // Info lines per address (connections, players, games): a burst, then one
  // every log_every; the rest are counted (limits/log_limiter.hpp).
  double log_burst = 20;
  std::chrono::milliseconds log_every{5'000};
  std::string server_version = cli::kVersion;
  // Several nodes: a node whose heartbeats are older than this is dead for
  // the others, who may take its games (--node-dead-after).
  std::chrono::milliseconds node_dead_after{2'500};
  // How long a seat is kept for a player another node sends here
  // (--seat-hold).
  std::chrono::milliseconds seat_hold{10'000};
  // Test seam: runs before each message is handled; an exception it throws
  // is handled as any failure of a handler is (the connection ends).
  std::function<void(const wire::ClientMessage&)> before_message;
};

}  // namespace ttt::server
