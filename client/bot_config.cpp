#include "client/bot_config.hpp"

namespace ttt::client {

BotArgs parse_bot_args(int argc, const char* const* argv, BotConfig& config) {
  cli::Flags flags("ttt-bot",
                   "AI players that join a ttt server like any client. When done, prints\n"
                   "`bot summary: games=N wins=W losses=L draws=D errors=E` as the last line.");
  ConnectionOptions& connection = config.bot.connection;
  std::int64_t port = connection.port;
  std::int64_t quick = 0;
  std::int64_t join = 0;
  std::int64_t create = 0;
  std::int64_t games = config.bot.games;
  std::int64_t count = config.count;
  std::int64_t budget = config.bot.ai.budget.count();
  std::int64_t threads = config.threads;
  std::int64_t seed = 0;
  std::string level(to_string(config.bot.ai.level));

  flags.add_string("--host", "", &connection.host, "HOST", "server to connect to");
  flags.add_int("--port", "", &port, 1, 65535, "PORT", "server port");
  flags.add_string("--name", "", &config.name, "NAME",
                   "player name; with --count, bots are NAME-1, NAME-2, ...");
  flags.add_choice("--level", "", &level, {"random", "easy", "medium", "hard", "perfect"},
                   "playing strength");
  flags.add_int("--quick-match", "", &quick, 0, 15, "SIZE",
                "play whoever else wants a SIZExSIZE game (the default, size 3)");
  flags.add_int("--join", "", &join, 0, INT64_MAX, "ID", "join game ID");
  flags.add_string("--code", "", &config.bot.invite_code, "CODE",
                   "the invite code of a private game for --join");
  flags.add_int("--create", "", &create, 0, 15, "SIZE",
                "create a SIZExSIZE game and wait for an opponent");
  flags.add_int("--games", "", &games, 1, 1'000'000, "N",
                "games to play in a row (rematches, or new opponents in quick match)");
  flags.add_int("--count", "", &count, 1, 10'000, "C", "bots to run at once in this process");
  flags.add_int("--budget", "", &budget, 0, 60'000, "MS", "thinking time per move");
  flags.add_int("--threads", "", &threads, 0, 256, "N", "search threads, 0 = one per core");
  flags.add_int("--seed", "", &seed, 0, INT64_MAX, "N",
                "seed for the AI's choices (default: random each run)");
  flags.add_seconds("--retry", &connection.retry, 86400,
                    "after a lost connection, keep reconnecting this long, 0 = never");
  flags.add_seconds("--connect-timeout", &connection.connect_timeout, 600,
                    "give up on a connection attempt after this long");
  flags.add_seconds("--rematch-wait", &config.bot.rematch_wait, 3600,
                    "how long to wait for the opponent to agree to a rematch");
  flags.add_choice("--log-level", "", &config.log_level,
                   {"trace", "debug", "info", "warn", "error", "off"}, "log verbosity (stderr)");

  BotArgs args{flags.parse(argc, argv), flags.usage()};
  if (!args.result.ok) return args;
  auto fail = [&args](std::string error) {
    args.result.ok = false;
    args.result.error = std::move(error);
    return args;
  };
  if ((quick != 0) + (join != 0) + (create != 0) > 1) {
    return fail("--quick-match, --join and --create are three ways to find a game: pick one");
  }
  if ((quick != 0 && quick < 3) || (create != 0 && create < 3)) {
    return fail("board sizes are 3 to 15");
  }
  if (!config.bot.invite_code.empty() && join == 0) return fail("--code goes with --join");
  config.bot.mode = join != 0 ? BotMode::Join : create != 0 ? BotMode::Create : BotMode::QuickMatch;
  config.bot.size = static_cast<int>(create != 0 ? create : quick != 0 ? quick : 3);
  config.bot.game_id = static_cast<std::uint64_t>(join);
  connection.port = static_cast<std::uint16_t>(port);
  config.bot.games = static_cast<int>(games);
  config.count = static_cast<int>(count);
  config.threads = static_cast<int>(threads);
  config.bot.ai.level = *parse_level(level);
  config.bot.ai.budget = std::chrono::milliseconds(budget);
  config.seeded = seed != 0;
  config.bot.ai.seed = static_cast<std::uint64_t>(seed);
  return args;
}

}  // namespace ttt::client
