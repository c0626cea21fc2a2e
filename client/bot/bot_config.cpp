#include "bot/bot_config.hpp"

#include <optional>

namespace ttt::client {

BotArgs parse_bot_args(int argc, const char* const* argv, BotConfig& config) {
  cli::Flags flags("ttt-bot",
                   "AI players that join a ttt server like any client. When done, prints\n"
                   "`bot summary: games=N wins=W losses=L draws=D errors=E` as the last line.");
  ConnectionOptions& connection = config.bot.connection;
  std::int64_t port = connection.port;
  std::string quick_text;
  std::string join_text;
  std::string create_text;
  std::string seed_text;
  std::int64_t games = config.bot.games;
  std::int64_t count = config.count;
  std::int64_t budget = config.bot.ai.budget.count();
  std::int64_t threads = config.threads;
  std::string level(to_string(config.bot.ai.level));

  flags.add_string("--host", "", &connection.host, "HOST", "server to connect to");
  flags.add_int("--port", "", &port, 1, 65535, "PORT", "server port");
  flags.add_string("--name", "", &config.name, "NAME",
                   "player name; with --count, bots are NAME-1, NAME-2, ...");
  flags.add_choice("--level", "", &level, {"random", "easy", "medium", "hard", "perfect"},
                   "playing strength");
  flags.add_string("--quick-match", "", &quick_text, "SIZE",
                   "play whoever else wants a SIZExSIZE game (what bots do by default, size 3)");
  flags.add_string("--join", "", &join_text, "ID", "join game ID and play whoever created it");
  flags.add_string("--code", "", &config.bot.invite_code, "CODE",
                   "the invite code of a private game for --join");
  flags.add_string("--create", "", &create_text, "SIZE",
                   "create a SIZExSIZE game and wait for an opponent");
  flags.add_bool("--rated", "", &config.bot.rated,
                 "ask for rated games (a bot's games are unrated unless it asks)");
  flags.add_int("--games", "", &games, 1, 1'000'000, "N",
                "games to play in a row (rematches, or new opponents in quick match)");
  flags.add_int("--count", "", &count, 1, 10'000, "C", "bots to run at once in this process");
  flags.add_int("--budget", "", &budget, 0, 60'000, "MS", "thinking time per move");
  flags.add_int("--threads", "", &threads, 0, 256, "N", "search threads, 0 = one per core");
  flags.add_string("--seed", "", &seed_text, "N",
                   "seed for the AI's choices, for repeatable games (default: random)");
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
  // Each of these is 0 when not given.
  auto number = [](const std::string& text, std::int64_t min, std::int64_t max) {
    return text.empty() ? std::optional<std::int64_t>(0) : cli::parse_int(text, min, max);
  };
  const auto quick = number(quick_text, 3, 15);
  const auto create = number(create_text, 3, 15);
  const auto join = number(join_text, 1, INT64_MAX);
  const auto seed = number(seed_text, 0, INT64_MAX);
  if (!quick)
    return fail("--quick-match expects a board size from 3 to 15, got '" + quick_text + "'");
  if (!create) return fail("--create expects a board size from 3 to 15, got '" + create_text + "'");
  if (!join) return fail("--join expects a game id (a whole number), got '" + join_text + "'");
  if (!seed) return fail("--seed expects a whole number, got '" + seed_text + "'");
  if ((*quick != 0) + (*join != 0) + (*create != 0) > 1) {
    return fail("--quick-match, --join and --create are three ways to find a game: pick one");
  }
  if (!config.bot.invite_code.empty() && *join == 0) return fail("--code goes with --join");
  config.bot.mode = *join != 0     ? BotMode::Join
                    : *create != 0 ? BotMode::Create
                                   : BotMode::QuickMatch;
  config.bot.size = static_cast<int>(*create != 0 ? *create : *quick != 0 ? *quick : 3);
  config.bot.game_id = static_cast<std::uint64_t>(*join);
  connection.port = static_cast<std::uint16_t>(port);
  config.bot.games = static_cast<int>(games);
  config.count = static_cast<int>(count);
  config.threads = static_cast<int>(threads);
  config.bot.ai.level = *parse_level(level);
  config.bot.ai.budget = std::chrono::milliseconds(budget);
  config.seeded = !seed_text.empty();
  config.bot.ai.seed = static_cast<std::uint64_t>(*seed);
  return args;
}

}  // namespace ttt::client
