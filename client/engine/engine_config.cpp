#include "engine/engine_config.hpp"

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "ttt/cli/flags.hpp"
#include "ttt/cli/invocation.hpp"

namespace ttt::client {

cli::ParsedArgs parse_engine_args(int argc, const char* const* argv, EngineLoopOptions& options) {
  options.ai.budget = std::chrono::milliseconds(1000);
  cli::Flags flags(
      cli::invocation_name("ttt-engine"),
      "ttt's AI as a Gomocup (pbrain) engine: commands on stdin, answers on stdout.\n"
      "Plays five in a row on boards of 3 to 20 (a board under 5: its whole line), or any\n"
      "win length a manager sets with INFO ttt_win_length K.");
  std::string level(to_string(options.ai.level));
  std::int64_t budget = options.ai.budget.count();
  std::int64_t depth = 0;
  std::optional<std::int64_t> seed;
  flags.add_choice("--level", "", &level, {"random", "easy", "medium", "hard", "perfect"},
                   "playing strength");
  flags.add_int("--budget", "", &budget, 0, 3'600'000, "MS",
                "time per move when the manager sends no INFO timeout_turn");
  flags.add_int("--depth", "", &depth, 0, 64, "PLIES",
                "the most plies the search looks ahead, 0 = no limit (--level medium --depth 1: "
                "a depth-1 engine)");
  flags.add_optional_int("--seed", &seed, 0, INT64_MAX, "N",
                         "seed for the AI's choices, for repeatable games (default: random)",
                         "a whole number");
  cli::ParsedArgs args{flags.parse(argc, argv), flags.usage(), ""};
  if (!args.result.ok) return args;
  args.effective_config = flags.effective_config();
  options.ai.level = *parse_level(level);  // one of the choices above
  options.ai.budget = std::chrono::milliseconds(budget);
  options.ai.max_depth = static_cast<int>(depth);
  options.ai.seed = seed ? static_cast<std::uint64_t>(*seed) : std::random_device{}();
  return args;
}

}  // namespace ttt::client
