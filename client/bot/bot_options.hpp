// What one ttt-bot player does: how it finds its games, how many it plays,
// how it chooses its moves, and the waits between.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "link/connection.hpp"
#include "ttt/ai.hpp"

namespace ttt::client {

// How a bot finds its games: quick match, a game by id, a game of its own,
// a challenge to one player by name, or the challenges others make to it.
enum class BotMode { QuickMatch, Join, Create, Challenge, AcceptChallenges };

struct BotOptions {
  ConnectionOptions connection;
  std::string secret_path;     // where the name's secret is kept; empty = nowhere
  bool rotate_secret = false;  // replace the name's secret once connected
  BotMode mode = BotMode::QuickMatch;
  int size = 3;               // QuickMatch, Create
  int win_length = 0;         // QuickMatch, Create: marks in a row that win; 0 = size
  std::uint64_t game_id = 0;  // Join
  std::string invite_code;    // Join a private game
  std::string opponent;       // Challenge: whom
  // AcceptChallenges: whose challenges it takes (empty: anyone's); the
  // others it declines.
  std::vector<std::string> accept_from;
  // QuickMatch, Create, Challenge: a Fischer clock (initial 0: none).
  std::uint32_t clock_initial_ms = 0;
  std::uint32_t clock_increment_ms = 0;
  int games = 1;  // games to play in a row; 0: no limit (until stopped)
  // Ask for rated games (RATED_YES); otherwise the server's default for a
  // program (Hello.bot): unrated.
  bool rated = false;
  AiOptions ai;  // ai.budget is also an engine's time per move
  // An outside engine's command (shell syntax) to play instead of the AI;
  // empty: the AI at ai.level.
  std::string engine;
  // How long past its time per move an engine may take before it loses.
  std::chrono::milliseconds engine_grace{1000};
  // How long to wait for the opponent to agree to a rematch.
  std::chrono::milliseconds rematch_wait{30'000};
  // After the server could not save a move (STORAGE), the pause before the
  // bot moves again: a failing disk is not hammered.
  std::chrono::milliseconds storage_retry{500};
  // After a node refused to find a game for a while (DRAINING, or
  // CLUSTER_UNAVAILABLE: the lobby's shared state out of reach), the pause
  // before asking again; the bot asks for up to connection.retry, then
  // counts an error and stops.
  std::chrono::milliseconds enter_retry{1000};
  // While it waits for an opponent (a queue, its open game, challenges), a
  // line on stdout this often.
  std::chrono::milliseconds waiting_notice{30'000};
};

}  // namespace ttt::client
