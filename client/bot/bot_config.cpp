#include "bot/bot_config.hpp"

#include <optional>

#include "ttt/board.hpp"
#include "ttt/cli/invocation.hpp"
#include "ttt/wire/lobby_limits.hpp"
#include "view/clock_text.hpp"

namespace ttt::client {

cli::ParsedArgs parse_bot_args(int argc, const char* const* argv, BotConfig& config) {
  cli::Flags flags(cli::invocation_name("ttt-bot"),
                   "AI players that join a ttt server like any client. When done, prints\n"
                   "`bot summary: games=N wins=W losses=L draws=D errors=E` as the last line.");
  ConnectionOptions& connection = config.bot.connection;
  // In a game, a server restarted within 5 min gives the game back.
  if (connection.restart_wait.count() == 0) connection.restart_wait = std::chrono::minutes(5);
  std::int64_t port = connection.port;
  std::optional<std::int64_t> quick;
  std::optional<std::int64_t> join;
  std::optional<std::int64_t> create;
  std::optional<std::int64_t> seed;
  std::int64_t win_length = 0;
  const std::string sizes = "a board size from 3 to " + std::to_string(wire::kMaxLobbySize);
  std::optional<std::int64_t> games;
  std::int64_t count = config.count;
  std::int64_t budget = config.bot.ai.budget.count();
  std::int64_t threads = config.threads;
  std::string level(to_string(config.bot.ai.level));

  flags.add_string("--host", "", &connection.host, "HOST[:PORT][,...]",
                   "server to connect to; a lobby of several nodes as a list, tried in order "
                   "(IPv6 as [ADDRESS]:PORT)");
  flags.add_int("--port", "", &port, 1, 65535, "PORT",
                "server port (for --host entries without one)");
  flags.add_string("--name", "", &config.name, "NAME",
                   "player name; with --count, bots are NAME-1, NAME-2, ... (default: your "
                   "login name followed by -bot, e.g. alice-bot, or alice-bot2, alice-bot3, ... "
                   "while other ttt programs of yours use it)");
  flags.add_choice("--level", "", &level, {"random", "easy", "medium", "hard", "perfect"},
                   "playing strength");
  flags.add_optional_int(
      "--quick-match", &quick, 3, wire::kMaxLobbySize, "SIZE",
      "play whoever else wants a SIZExSIZE game (what bots do by default, size 3)", sizes);
  flags.add_optional_int("--join", &join, 1, INT64_MAX, "ID",
                         "join game ID and play whoever created it", "a game id (a whole number)");
  flags.add_string("--code", "", &config.bot.invite_code, "CODE",
                   "the invite code of a private game for --join");
  flags.add_optional_int("--create", &create, 3, wire::kMaxLobbySize, "SIZE",
                         "create a SIZExSIZE game and wait for an opponent", sizes);
  std::string challenge, accept_from, clock;
  bool accept_challenges = false;
  flags.add_string("--challenge", "", &challenge, "NAME",
                   "challenge the player NAME (online now) to a game with --size, --win and "
                   "--clock; again after each series of rematches");
  flags.add_bool("--accept-challenges", "", &accept_challenges,
                 "wait for challenges and accept them (only those of --from, if given)");
  flags.add_string("--from", "", &accept_from, "NAME,...",
                   "with --accept-challenges: the players whose challenges it takes; the others "
                   "are declined");
  std::optional<std::int64_t> challenge_size;
  flags.add_optional_int("--size", &challenge_size, 3, wire::kMaxLobbySize, "SIZE",
                         "with --challenge: the board size (default 3)", sizes);
  flags.add_string("--clock", "", &clock, "M+S",
                   "with --create, --quick-match or --challenge: a Fischer clock, M minutes for "
                   "the game and S seconds more a move (e.g. 3+2)");
  flags.add_int("--win", "", &win_length, 0, wire::kMaxLobbySize, "K",
                "with --create, --quick-match or --challenge: K in a row wins (3 to SIZE); 0 = "
                "SIZE, only a whole row, column or main diagonal wins");
  flags.add_bool("--rated", "", &config.bot.rated,
                 "ask for rated games (a bot's games are unrated unless it asks)");
  flags.add_bool("--rotate-secret", "", &config.bot.rotate_secret,
                 "replace the secret that owns the name once connected (the new one is kept "
                 "in the secret file)");
  flags.add_string("--engine", "", &config.bot.engine, "CMD",
                   "play with an outside engine speaking the Gomocup protocol instead of the AI: "
                   "CMD runs it (shell syntax, e.g. \"ttt-engine --level hard\"); five in a "
                   "row only, unless the engine knows ttt_win_length (ttt-engine does)");
  std::int64_t grace = config.bot.engine_grace.count();
  flags.add_int("--engine-grace", "", &grace, 0, 600'000, "MS",
                "how long past its time per move (--budget) an engine may take before the bot "
                "resigns for it");
  flags.add_optional_int("--games", &games, 1, 1'000'000, "N",
                         "games to play in a row (rematches; in quick match whoever waits next); "
                         "default 1, with --accept-challenges no limit: it plays until stopped");
  flags.add_int("--count", "", &count, 1, 10'000, "C", "bots to run at once in this process");
  flags.add_int("--budget", "", &budget, 0, 60'000, "MS",
                "thinking time per move (an engine's INFO timeout_turn, within the server's "
                "move clock)");
  flags.add_int("--threads", "", &threads, 0, 256, "N", "search threads, 0 = one per core");
  flags.add_optional_int("--seed", &seed, 0, INT64_MAX, "N",
                         "seed for the AI's choices, for repeatable games (default: random)",
                         "a whole number");
  flags.add_seconds("--retry", &connection.retry, 86400,
                    "after a lost connection, keep reconnecting this long, 0 = never");
  flags.add_seconds("--connect-timeout", &connection.connect_timeout, 600,
                    "give up on a connection attempt after this long");
  flags.add_seconds("--rematch-wait", &config.bot.rematch_wait, 3600,
                    "how long to wait for the opponent to agree to a rematch");
  flags.add_seconds("--waiting-notice", &config.bot.waiting_notice, 3600,
                    "while waiting for an opponent (quick match, its open game, challenges), "
                    "say so on stdout this often (0 = never)");
  flags.add_seconds("--restart-wait", &connection.restart_wait, 86400,
                    "in a game, after a lost connection, keep reconnecting at least this long: a "
                    "server that restarts within it gives the game back (0 = only as long as the "
                    "server holds the seat)");
  flags.add_choice("--log-level", "", &config.log_level,
                   {"trace", "debug", "info", "warn", "error", "off"}, "log verbosity (stderr)");
  add_trust_flags(flags, config.trust);

  cli::ParsedArgs args{flags.parse(argc, argv), flags.usage(), ""};
  if (!args.result.ok) return args;
  if (std::string error; !finish_trust_flags(config.trust, error)) return args.refuse(error);
  apply_trust_flags(config.trust, connection);
  args.effective_config = flags.effective_config();
  connection.port = static_cast<std::uint16_t>(port);
  if (std::string error;
      !apply_host_flag(connection.host, connection.port, connection.other_nodes, error)) {
    return args.refuse(error);
  }
  const int ways = quick.has_value() + join.has_value() + create.has_value() + !challenge.empty() +
                   accept_challenges;
  if (ways > 1) {
    return args.refuse(
        "--quick-match, --join, --create, --challenge and --accept-challenges are ways to find a "
        "game: pick one");
  }
  if (!accept_from.empty() && !accept_challenges)
    return args.refuse("--from goes with --accept-challenges");
  if (challenge_size && challenge.empty()) {
    return args.refuse("--size goes with --challenge (--create and --quick-match take the size)");
  }
  if (!clock.empty() && (join || accept_challenges)) {
    return args.refuse(
        "--clock goes with --create, --quick-match or --challenge (a joined or accepted "
        "game has its own clock)");
  }
  if (!clock.empty()) {
    std::string clock_error;
    const auto parsed = parse_clock(clock, clock_error);
    if (!parsed) return args.refuse("--clock: " + clock_error);
    config.bot.clock_initial_ms = parsed->initial_ms;
    config.bot.clock_increment_ms = parsed->increment_ms;
  }
  config.bot.opponent = challenge;
  for (std::size_t start = 0; start < accept_from.size();) {
    const std::size_t comma = std::min(accept_from.find(',', start), accept_from.size());
    if (comma > start) config.bot.accept_from.push_back(accept_from.substr(start, comma - start));
    start = comma + 1;
  }
  if (!config.bot.invite_code.empty() && !join) return args.refuse("--code goes with --join");
  const std::int64_t size = create.value_or(quick.value_or(challenge_size.value_or(3)));
  if (win_length != 0 && (join || accept_challenges)) {
    return args.refuse(
        "--win goes with --create, --quick-match or --challenge (a joined or accepted "
        "game has its own rules)");
  }
  if (win_length != 0 &&
      !Board::valid_win_length(static_cast<int>(size), static_cast<int>(win_length))) {
    return args.refuse("--win expects 3 to " + std::to_string(size) + " on a " +
                       std::to_string(size) + "x" + std::to_string(size) + " board, got " +
                       std::to_string(win_length));
  }
  config.bot.mode = join                 ? BotMode::Join
                    : create             ? BotMode::Create
                    : !challenge.empty() ? BotMode::Challenge
                    : accept_challenges  ? BotMode::AcceptChallenges
                                         : BotMode::QuickMatch;
  config.bot.size = static_cast<int>(size);
  config.bot.win_length = static_cast<int>(win_length);
  config.bot.game_id = static_cast<std::uint64_t>(join.value_or(0));
  config.bot.games = static_cast<int>(games.value_or(accept_challenges ? 0 : 1));
  config.count = static_cast<int>(count);
  config.threads = static_cast<int>(threads);
  config.bot.ai.level = *parse_level(level);
  config.bot.ai.budget = std::chrono::milliseconds(budget);
  config.bot.engine_grace = std::chrono::milliseconds(grace);
  config.seeded = seed.has_value();
  config.bot.ai.seed = static_cast<std::uint64_t>(seed.value_or(0));
  return args;
}

}  // namespace ttt::client
