// What both stores select for a player and a game, and how a row of it
// reads back into the records: one column order, one reader, whatever the
// engine. A Row is anything with integer(i), real(i) and text(i) for its
// columns from 0 (SqliteStore and PostgresStore adapt their own).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "records.hpp"

// Macros, not constants: the engines paste them into string literals.
#define TTT_PLAYER_COLUMNS \
  "SELECT id, name, salt, secret_hash, is_bot, rating, games_played, wins, losses, draws "

#define TTT_GAME_COLUMNS                                                                    \
  "SELECT g.id, g.room_id, g.round, g.size, g.x_player, g.o_player, px.name, po.name, "     \
  "g.rated, g.is_private, g.invite_code, g.bot_level, g.started_ms, g.ended_ms, g.status, " \
  "g.reason, g.win_length, g.clock_initial_ms, g.clock_increment_ms "                       \
  "FROM games g JOIN players px ON px.id = g.x_player JOIN players po ON po.id = g.o_player "

// A game that counted as rated: rated, finished, and both players moved.
#define TTT_GAME_COUNTED                                        \
  "g.rated = 1 AND g.status IN ('x_won', 'o_won', 'draw') AND " \
  "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) >= 2"

// Each player's different opponents in games that counted as rated, the
// first LIMIT of each by id, as (player, opponent) rows ordered by player:
// LIMIT is the engine's placeholder for kVariedOpponents.
#define TTT_RATED_OPPONENTS(LIMIT)                                                     \
  "SELECT player, opponent FROM (SELECT player, opponent, ROW_NUMBER() OVER "          \
  "(PARTITION BY player ORDER BY opponent) AS nth FROM (SELECT g.x_player AS player, " \
  "g.o_player AS opponent FROM games g WHERE " TTT_GAME_COUNTED                        \
  " UNION SELECT "                                                                     \
  "g.o_player, g.x_player FROM games g WHERE " TTT_GAME_COUNTED                        \
  ") AS pairs WHERE player "                                                           \
  "<> opponent) AS numbered WHERE nth <= " LIMIT " ORDER BY player, opponent"

// One player's different opponents in games that counted as rated, the first
// LIMIT by id; PLAYER is the engine's placeholder for the player's id (used
// three times), LIMIT for kVariedOpponents.
#define TTT_RATED_OPPONENTS_OF(PLAYER, LIMIT)                                       \
  "SELECT DISTINCT CASE WHEN g.x_player = " PLAYER                                  \
  " THEN g.o_player ELSE g.x_player END "                                           \
  "AS opponent FROM games g WHERE (g.x_player = " PLAYER " OR g.o_player = " PLAYER \
  ") AND "                                                                          \
  "g.x_player <> g.o_player AND " TTT_GAME_COUNTED " ORDER BY opponent LIMIT " LIMIT

namespace ttt::server {

template <typename Row>
StoredPlayer player_from(const Row& r) {
  StoredPlayer p;
  p.id = r.integer(0);
  p.name = r.text(1);
  p.salt = r.text(2);
  p.secret_hash = r.text(3);
  p.is_bot = r.integer(4) != 0;
  p.rating = r.real(5);
  p.games_played = r.integer(6);
  p.wins = r.integer(7);
  p.losses = r.integer(8);
  p.draws = r.integer(9);
  return p;
}

// Gives each of `players` (ordered by id) its opponents from (player,
// opponent) rows of TTT_RATED_OPPONENTS.
inline void give_opponents(std::vector<StoredPlayer>& players,
                           const std::vector<std::pair<std::int64_t, std::int64_t>>& rows) {
  for (const auto& [player, opponent] : rows) {
    const auto it =
        std::lower_bound(players.begin(), players.end(), player,
                         [](const StoredPlayer& p, std::int64_t id) { return p.id < id; });
    if (it != players.end() && it->id == player) it->opponents.push_back(opponent);
  }
}

template <typename Row>
GameRecord game_from(const Row& r) {
  GameRecord g;
  g.id = r.integer(0);
  g.room_id = r.integer(1);
  g.round = static_cast<int>(r.integer(2));
  g.size = static_cast<int>(r.integer(3));
  g.x_player = r.integer(4);
  g.o_player = r.integer(5);
  g.x_name = r.text(6);
  g.o_name = r.text(7);
  g.rated = r.integer(8) != 0;
  g.is_private = r.integer(9) != 0;
  g.invite_code = r.text(10);
  g.bot_level = static_cast<int>(r.integer(11));
  g.started_ms = r.integer(12);
  g.ended_ms = r.integer(13);
  g.status = r.text(14);
  g.reason = r.text(15);
  // 0 only in a row no migration or insert wrote: the size, whole lines.
  g.win_length = static_cast<int>(r.integer(16));
  if (g.win_length == 0) g.win_length = g.size;
  g.clock_initial_ms = r.integer(17);
  g.clock_increment_ms = r.integer(18);
  return g;
}

}  // namespace ttt::server
