// LobbyStats: the lobby's counts, for tests, logs, the operator's page and
// the load tool. Plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace ttt::server {

struct LobbyStats {
  std::size_t connections = 0;  // open connections, with or without Hello
  std::size_t players = 0;      // player identities online or away, bots included
  std::size_t rooms = 0;
  std::size_t queued = 0;  // players waiting in quick match
  std::size_t bots = 0;
  std::uint64_t games_finished = 0;
  std::size_t accounts = 0;  // names known (registered players and bot levels)
  std::size_t bot_searches_waiting = 0;
  std::size_t bot_searches_running = 0;
  std::size_t players_online = 0;  // people connected past Hello
  std::size_t players_away = 0;    // people whose connection dropped, their seat held
  // Rooms by state ("waiting", "playing", "finished") and board size.
  std::map<std::pair<std::string, int>, std::size_t> games;
  // Several nodes: connections sent to another node, games taken over.
  std::uint64_t redirects = 0;
  std::uint64_t games_adopted = 0;
  std::uint64_t games_lost = 0;  // dropped: another node held them (fencing)
};

}  // namespace ttt::server
