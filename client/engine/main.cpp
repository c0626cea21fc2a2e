// ttt-engine: ttt's AI as a Gomocup engine on stdin and stdout, for any
// Gomocup manager (Piskvork, GomocupJudge, ttt-arena, ttt-bot --engine).
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>

#include "engine/engine_loop.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/cli/invocation.hpp"

int main(int argc, char** argv) {
  ttt::client::EngineLoopOptions options;
  options.ai.budget = std::chrono::milliseconds(1000);
  ttt::cli::Flags flags(
      ttt::cli::invocation_name("ttt-engine"),
      "ttt's AI as a Gomocup (pbrain) engine: commands on stdin, answers on stdout.\n"
      "Plays five in a row on boards of 3 to 20 (a board under 5: its whole line), or any\n"
      "win length a manager sets with INFO ttt_win_length K.");
  std::string level(to_string(options.ai.level));
  std::int64_t budget = options.ai.budget.count();
  std::int64_t depth = 0;
  std::optional<std::int64_t> seed_flag;
  flags.add_choice("--level", "", &level, {"random", "easy", "medium", "hard", "perfect"},
                   "playing strength");
  flags.add_int("--budget", "", &budget, 0, 3'600'000, "MS",
                "time per move when the manager sends no INFO timeout_turn");
  flags.add_int("--depth", "", &depth, 0, 64, "PLIES",
                "the most plies the search looks ahead, 0 = no limit (--level medium --depth 1: "
                "a depth-1 engine)");
  flags.add_optional_int("--seed", &seed_flag, 0, INT64_MAX, "N",
                         "seed for the AI's choices, for repeatable games (default: random)",
                         "a whole number");
  const auto parsed = flags.parse(argc, argv);
  if (!parsed.ok) {
    std::fprintf(stderr, "ttt-engine: %s\n(see %s --help)\n", parsed.error.c_str(),
                 ttt::cli::invocation_name("ttt-engine").c_str());
    return 2;
  }
  if (parsed.help) {
    std::fputs(flags.usage().c_str(), stdout);
    return 0;
  }
  if (parsed.print_config) {
    std::fputs(flags.effective_config().c_str(), stdout);
    return 0;
  }
  const std::uint64_t seed =
      seed_flag ? static_cast<std::uint64_t>(*seed_flag) : std::random_device{}();
  options.ai.level = *ttt::parse_level(level);
  options.ai.budget = std::chrono::milliseconds(budget);
  options.ai.seed = seed;
  options.ai.max_depth = static_cast<int>(depth);
  ttt::client::EngineLoop loop(options, std::cout);
  std::string line;
  while (!loop.ended() && std::getline(std::cin, line)) loop.handle(line);
  return 0;
}
