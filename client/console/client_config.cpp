#include "console/client_config.hpp"

#include <string_view>

#include <unistd.h>

#include <cstdlib>

#include "ttt/board.hpp"
#include "ttt/cli/invocation.hpp"
#include "ttt/wire/lobby_limits.hpp"

namespace ttt::client {

cli::ParsedArgs parse_client_args(int argc, const char* const* argv, ClientConfig& config) {
  cli::Flags flags(cli::invocation_name("ttt-client"),
                   "The ttt console client: play on a lobby server, or offline with --local or "
                   "-a.\nType /help in the client for its commands.");
  std::int64_t port = config.port;
  std::int64_t size = config.size;
  std::int64_t win_length = config.win_length;
  std::string color = "auto";
  flags.add_string("--host", "", &config.host, "HOST[:PORT][,...]",
                   "server to connect to; a lobby of several nodes as a list, tried in order "
                   "(IPv6 as [ADDRESS]:PORT)");
  flags.add_int("--port", "", &port, 1, 65535, "PORT",
                "server port (for --host entries without one)");
  flags.add_string("--name", "", &config.name, "NAME",
                   "your name in the lobby (default: your login name, or the login name "
                   "followed by 2, 3, ... while other ttt programs of yours use it)");
  flags.add_choice("--play-bot", "", &config.play_bot,
                   {"random", "easy", "medium", "hard", "perfect"},
                   "start straight in a game against the server's bot at this level");
  flags.add_int("--size", "-k", &size, 3, wire::kMaxLobbySize, "N",
                "board size for --play-bot, --local and -a");
  flags.add_int("--win", "", &win_length, 0, wire::kMaxLobbySize, "K",
                "marks in a row that win (3 to N) for --play-bot, --local and -a; 0 = N, only "
                "a whole row, column or main diagonal wins");
  flags.add_seconds("--retry", &config.retry, 86400,
                    "after a lost connection, keep reconnecting this long (longer while the server "
                    "may hold your seat in a game), 0 = never");
  flags.add_seconds("--restart-wait", &config.restart_wait, 86400,
                    "in a game, after a lost connection, keep reconnecting at least this long: a "
                    "server that restarts within it gives the game back (0 = only as long as the "
                    "server holds the seat)");
  flags.add_seconds("--connect-timeout", &config.connect_timeout, 600,
                    "give up on a connection attempt after this long");
  flags.add_string("--token-file", "", &config.token_file, "FILE",
                   "where the resume token is kept between runs (default: "
                   "$XDG_CONFIG_HOME/ttt/tokens/HOST-PORT-NAME)");
  flags.add_bool("--no-token-file", "", &config.no_token_file,
                 "keep the resume token in memory only");
  flags.add_bool("--fresh", "", &config.fresh, "ignore a saved token: start as a new player");
  flags.add_bool("--take-over", "", &config.take_over,
                 "if this name is connected from another terminal, move the session here");
  flags.add_string("--secret-file", "", &config.secret_file, "FILE",
                   "where the secret that owns your name on the server is kept (default: "
                   "$XDG_CONFIG_HOME/ttt/secrets/HOST-PORT-NAME)");
  flags.add_bool("--local", "", &config.local, "offline: two players take turns on this terminal");
  flags.add_bool("--ai", "-a", &config.ai, "offline: play X against the AI (O)");
  flags.add_choice("--ai-level", "", &config.ai_level,
                   {"random", "easy", "medium", "hard", "perfect"}, "the offline AI's level");
  flags.add_bool("--verbose", "-v", &config.verbose,
                 "offline: print the board as its X/O/E list after each move");
  flags.add_bool("--plain", "", &config.plain,
                 "line mode on a terminal too: lines scroll up, moves and commands are typed "
                 "(the mode of pipes and scripts; a terminal gets the full-screen board)");
  flags.add_choice("--color", "", &color, {"auto", "always", "never"},
                   "ANSI colour: auto = on a terminal; never while NO_COLOR is set");
  flags.add_bool("--own-server", "", &config.own_server,
                 "the server stops when this client exits (./ttt play starts one so): leaving "
                 "mid-game says whether the game is kept, not that a seat is held");
  flags.add_string("--notice", "", &config.notice, "TEXT",
                   "a line to show when the client starts and again when it ends (./ttt play "
                   "says so when its game is not kept)");
  flags.add_choice("--log-level", "", &config.log_level,
                   {"trace", "debug", "info", "warn", "error", "off"}, "log verbosity (stderr)");
  add_trust_flags(flags, config.trust);
  cli::ParsedArgs args{flags.parse(argc, argv), flags.usage(), ""};
  if (!args.result.ok) return args;
  if (std::string error; !finish_trust_flags(config.trust, error)) return args.refuse(error);
  config.port = static_cast<std::uint16_t>(port);
  config.size = static_cast<int>(size);
  config.win_length = static_cast<int>(win_length);
  config.color = color == "always"  ? ColorChoice::Always
                 : color == "never" ? ColorChoice::Never
                                    : ColorChoice::Auto;
  // An empty name stays empty: the first free default name, settled when connecting.
  args.effective_config = flags.effective_config();
  if (std::string error; !apply_host_flag(config.host, config.port, config.other_nodes, error)) {
    return args.refuse(error);
  }
  if (config.local && config.ai) {
    return args.refuse("--local and -a are two different offline modes: pick one");
  }
  if (win_length != 0 && !Board::valid_win_length(config.size, config.win_length)) {
    return args.refuse("--win expects " + std::to_string(Board::kMinWinLength) + " to " +
                       std::to_string(size) + " on a " + std::to_string(size) + "x" +
                       std::to_string(size) + " board (--size), got " + std::to_string(win_length));
  }
  return args;
}

bool full_screen_wanted(const ClientConfig& config, bool stdin_tty, bool stdout_tty,
                        const char* term) noexcept {
  if (config.plain || config.local || config.ai || !stdin_tty || !stdout_tty) return false;
  return term != nullptr && term[0] != '\0' && std::string_view(term) != "dumb";
}

}  // namespace ttt::client
