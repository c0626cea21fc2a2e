#include "arena/arena_config.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "ttt/board.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/cli/invocation.hpp"

namespace ttt::client {

cli::ParsedArgs parse_arena_args(int argc, const char* const* argv, ArenaConfig& config) {
  cli::Flags flags(
      cli::invocation_name("ttt-arena") + " A B",
      "Plays A against B, each a ttt level (random, easy, medium, hard, perfect) or\n"
      "engine:CMD (a Gomocup engine, e.g. engine:ttt-engine), colours alternating and each\n"
      "random opening played once with each colour; prints every game, then\n"
      "`arena summary: games=N wins=W losses=L draws=D forfeits_a=FA forfeits_b=FB score=S\n"
      "elo=E ci95=LOW..HIGH` (from A's side). Exit 0, 1 if an engine forfeited a game, 2 for\n"
      "a bad command line, 3 if a player can't play the game, 130 when interrupted.");
  std::int64_t games = config.games;
  std::int64_t size = config.size;
  std::int64_t win_length = -1;  // not given: 5, or the size below 5
  std::int64_t budget = config.clock.per_move.count();
  std::int64_t grace = config.engine_grace.count();
  std::int64_t plies = config.opening_plies;
  std::optional<std::int64_t> seed;
  flags.add_int("--games", "", &games, 1, 1'000'000, "N", "games to play");
  flags.add_int("--size", "", &size, 3, Board::kMaxSize, "N", "board size");
  flags.add_int("--win", "", &win_length, -1, Board::kMaxSize, "K",
                "K in a row wins (3 to N); 0 = N, only a whole line wins; -1 = 5, or N "
                "on boards under 5");
  flags.add_int("--budget", "", &budget, 0, 600'000, "MS",
                "time per move (an engine's INFO timeout_turn)");
  flags.add_seconds("--match-time", &config.clock.per_game, 86'400,
                    "each side's time for a whole game (INFO timeout_match and time_left), "
                    "0 = no limit");
  flags.add_int("--engine-grace", "", &grace, 0, 600'000, "MS",
                "how long past its time per move an engine may answer before it forfeits");
  flags.add_int("--opening-plies", "", &plies, -1, Board::kMaxCells, "P",
                "moves in each random opening; -1 = 3 on boards of 9 and more, else 1");
  flags.add_string("--openings", "", &config.openings, "FILE",
                   "play the openings of FILE in turn, each with both colours (one a line: "
                   "cells like h8 i9 g7, or Gomocup offsets from the centre like 0,0, 1,-1)");
  flags.add_string("--record", "", &config.record, "FILE",
                   "write every game's moves to FILE, one game a line in the --openings "
                   "format (cells like h8 i9 g7), after a comment line naming the game");
  flags.add_optional_int("--seed", &seed, 0, INT64_MAX, "N",
                         "seed for openings and the AI (default: random)", "a whole number");
  flags.add_choice("--log-level", "", &config.log_level,
                   {"trace", "debug", "info", "warn", "error", "off"}, "log verbosity (stderr)");

  // The players come first; the flags follow.
  std::vector<const char*> rest{argc > 0 ? argv[0] : "ttt-arena"};
  int first_flag = 1;
  while (first_flag < argc && first_flag < 3 && argv[first_flag][0] != '-') ++first_flag;
  for (int i = first_flag; i < argc; ++i) rest.push_back(argv[i]);
  cli::ParsedArgs args{flags.parse(static_cast<int>(rest.size()), rest.data()), flags.usage(), ""};
  if (!args.result.ok || args.result.help || args.result.version) return args;
  args.effective_config = flags.effective_config();
  if (args.result.print_config) return args;
  if (first_flag != 3) {
    return args.refuse(
        "name two players first: ttt-arena A B [flags], e.g. ttt-arena hard engine:ttt-engine");
  }
  config.a = argv[1];
  config.b = argv[2];
  if (win_length < 0) win_length = std::min<std::int64_t>(5, size);
  if (win_length != 0 &&
      !Board::valid_win_length(static_cast<int>(size), static_cast<int>(win_length))) {
    return args.refuse("--win expects 3 to " + std::to_string(size) + " on a " +
                       std::to_string(size) + "x" + std::to_string(size) + " board, got " +
                       std::to_string(win_length));
  }
  config.seeded = seed.has_value();
  config.seed = static_cast<std::uint64_t>(seed.value_or(0));
  config.games = static_cast<int>(games);
  config.size = static_cast<int>(size);
  config.win_length = static_cast<int>(win_length);
  config.clock.per_move = std::chrono::milliseconds(budget);
  config.engine_grace = std::chrono::milliseconds(grace);
  config.opening_plies = static_cast<int>(plies);
  return args;
}

}  // namespace ttt::client
