// ttt-arena's command line: `ttt-arena A B [flags]`, the two players first.
#pragma once

#include <cstdint>
#include <string>

#include "arena/arena_game.hpp"
#include "ttt/cli/program.hpp"

namespace ttt::client {

struct ArenaConfig {
  std::string a;  // the players: a level or engine:CMD
  std::string b;
  int games = 10;
  int size = 15;
  int win_length = 5;  // 0: the size (whole lines)
  ArenaClock clock;
  std::chrono::milliseconds engine_grace{1000};
  int opening_plies = -1;  // -1: default_opening_plies(size)
  std::string openings;    // a file of openings; empty: random ones
  std::string record;      // a file to write every game's moves to; empty: none
  std::uint64_t seed = 0;
  bool seeded = false;
  std::string log_level = "warn";
};

// Parses ttt-arena's arguments into config.
cli::ParsedArgs parse_arena_args(int argc, const char* const* argv, ArenaConfig& config);

}  // namespace ttt::client
