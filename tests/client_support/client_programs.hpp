// The built ttt-client and ttt-bot as end-to-end tests run them: on
// 127.0.0.1, each with a config dir of the test's (where the programs keep
// their names' secrets and tokens), and the bot's summary line read back.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client_support/child_process.hpp"

namespace ttt::testing {

// ttt-bot --host 127.0.0.1 --port PORT ARGS..., with XDG_CONFIG_HOME=config
// (and the port's trust flags: loopback_trust.hpp).
std::unique_ptr<ChildProcess> start_bot(std::uint16_t port, const TempDir& config,
                                        std::vector<std::string> args);

// ttt-client --host 127.0.0.1 --port PORT --name tester ARGS... (a later
// --name wins; the port's trust flags), with XDG_CONFIG_HOME=config and
// NO_COLOR set.
std::unique_ptr<ChildProcess> start_client(std::uint16_t port, const TempDir& config,
                                           std::vector<std::string> args);

// `bot summary: games=N wins=W losses=L draws=D errors=E`, parsed.
struct BotSummary {
  int games = -1, wins = -1, losses = -1, draws = -1, errors = -1;
};

// The summary in the bot's last line of output, or nullopt if that line is
// not one.
std::optional<BotSummary> last_line_summary(const std::string& output);

// The id in a --create bot's "NAME: waiting for an opponent in game N" line,
// or nullopt if none is printed within timeout.
std::optional<std::string> created_game_id(ChildProcess& bot, std::chrono::milliseconds timeout);

// How many times `what` occurs in text.
std::size_t count_of(const std::string& text, std::string_view what);

}  // namespace ttt::testing
