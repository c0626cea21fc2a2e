// The records the database keeps: players (accounts), games with their
// moves, and a finished game's effect on a player. Plain values, shared by
// the store, its writers and whoever answers queries about them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ttt::server {

struct StoredPlayer {
  std::int64_t id = 0;
  std::string name;
  std::string salt;
  std::string secret_hash;  // empty for the server's bots: nobody can log in as them
  bool is_bot = false;
  double rating = 1200.0;
  std::int64_t games_played = 0;
  std::int64_t wins = 0;
  std::int64_t losses = 0;
  std::int64_t draws = 0;
  // Rated games that counted (rated, both players moved): derived from the
  // games table when loaded, counted on in memory.
  std::int64_t rated_games = 0;
  // The different accounts it played rated games that counted against, the
  // first kVariedOpponents of them (game/rating.hpp: past that many the
  // rules don't tell them apart): derived from the games table when loaded,
  // added to in memory.
  std::vector<std::int64_t> opponents;
  // The name's key (lobby/text_rules' name_key: no two accounts share one);
  // kept by the PostgreSQL store so that nodes sharing it can look names up.
  std::string key;
};

// A rated game that counted, as the repeat rule remembers it.
struct RatedPairing {
  std::int64_t x = 0;
  std::int64_t o = 0;
  std::int64_t ended_ms = 0;
};

// One finished game's effect on one player, applied as increments so that
// results committed in any order add up.
struct PlayerResult {
  std::int64_t player_id = 0;
  double rating_change = 0;
  int wins = 0;  // each 0 or 1
  int losses = 0;
  int draws = 0;
  int rated = 0;  // 1 if the game counted as rated for this player
};

struct StoredMove {
  int row = 0;
  int col = 0;
  std::int64_t at_ms = 0;  // Unix time in milliseconds
  // With a Fischer clock, the mover's time left after the move; 0 without.
  std::int64_t clock_ms = 0;
};

// One game (one round of a room). status: "in_progress", "x_won", "o_won",
// "draw", "aborted"; reason: "", "line", "board_full", "resignation",
// "timeout", "disconnect", "draw_agreed", "aborted".
struct GameRecord {
  std::int64_t id = 0;
  std::int64_t room_id = 0;
  int round = 1;
  int size = 3;
  int win_length = 3;  // marks in a line that win; the size for whole lines
  std::int64_t x_player = 0;
  std::int64_t o_player = 0;
  std::string x_name;
  std::string o_name;
  bool rated = false;
  bool is_private = false;
  std::string invite_code;
  int bot_level = 0;                  // bot_level_code (game/bot_level_code.hpp), 0 without the bot
  std::int64_t clock_initial_ms = 0;  // a Fischer clock; 0 without one
  std::int64_t clock_increment_ms = 0;
  std::int64_t started_ms = 0;
  std::int64_t ended_ms = 0;
  std::string status = "in_progress";
  std::string reason;
  // Several nodes: the node that holds the game while it is in progress
  // (PostgreSQL only; empty: none, or one node alone).
  std::string node;
  std::vector<StoredMove> moves;  // filled where a call says so
};

}  // namespace ttt::server
