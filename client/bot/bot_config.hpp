// ttt-bot's command line.
#pragma once

#include <string>

#include "bot/bot_options.hpp"
#include "trust/trust_flags.hpp"
#include "ttt/cli/program.hpp"

namespace ttt::client {

struct BotConfig {
  BotOptions bot;       // what each bot does
  std::string name;     // empty: the first free default identity, LOGIN-bot
  int count = 1;        // bots run at once
  int threads = 0;      // search threads; 0 = one per core
  bool seeded = false;  // --seed given: repeatable games
  std::string log_level = "warn";
  TrustFlags trust;  // --no-tls, --fingerprint, --known-servers (into bot.connection)
};

// Parses ttt-bot's flags (and the --config file) into config.
cli::ParsedArgs parse_bot_args(int argc, const char* const* argv, BotConfig& config);

}  // namespace ttt::client
