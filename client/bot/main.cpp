// ttt-bot: AI players on a ttt server, one or many in one process.
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "bot/bot_config.hpp"
#include "bot/bot_player.hpp"
#include "identity/config_files.hpp"
#include "identity/name_claim.hpp"
#include "link/protobuf_log.hpp"
#include "ttt/cli/program.hpp"
#include "version.hpp"

namespace {

using ttt::client::BotConfig;
using ttt::client::BotPlayer;
using ttt::client::BotTally;

int search_threads(const BotConfig& config) {
  if (config.threads > 0) return config.threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Runs every bot to the end on one I/O thread; searches go to a pool.
BotTally run_bots(const BotConfig& config) {
  // The bots' name (with --count, NAME-1, NAME-2, ...), held while they run.
  std::string warning;
  const ttt::client::ClaimedName claimed =
      ttt::client::claim_name(config.bot.connection.host, config.bot.connection.port, config.name,
                              ttt::client::bot_name_base(ttt::client::login_name()), warning);
  if (!warning.empty()) spdlog::warn("the default name is not kept for later runs: {}", warning);
  spdlog::info("playing as {}", claimed.name);
  const std::string& name = claimed.name;
  boost::asio::io_context io;
  boost::asio::thread_pool pool(static_cast<std::size_t>(search_threads(config)));
  std::vector<std::shared_ptr<BotPlayer>> bots;
  int running = config.count;
  const std::uint64_t seed = config.seeded ? config.bot.ai.seed : std::random_device{}();
  for (int i = 0; i < config.count; ++i) {
    ttt::client::BotOptions options = config.bot;
    options.connection.name = config.count == 1 ? name : name + "-" + std::to_string(i + 1);
    options.connection.client_version = std::string("ttt-bot ") + ttt::client::kVersion;
    options.ai.seed = seed + static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull;
    const std::string label = options.connection.name;
    options.secret_path =
        ttt::client::default_secret_path(options.connection.host, options.connection.port, label);
    bots.push_back(std::make_shared<BotPlayer>(label, io.get_executor(), pool.get_executor(),
                                               std::move(options), [&io, &running] {
                                                 if (--running == 0) io.stop();
                                               }));
  }
  // An engine that can't play the game asked for stops the run before any
  // bot connects.
  if (config.bot.mode != ttt::client::BotMode::Join) {
    for (auto& bot : bots) {
      std::string why;
      if (bot->brain().plays(config.bot.size, config.bot.win_length, why)) continue;
      std::fprintf(stderr, "ttt-bot: %s\n", why.c_str());
      BotTally failed;
      failed.errors = 1;
      failed.connect_failed = true;
      return failed;
    }
  }
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&bots](const boost::system::error_code& ec, int) {
    if (ec) return;
    for (auto& bot : bots) bot->stop();
  });
  for (auto& bot : bots) bot->start();
  io.run();
  pool.join();
  BotTally total;
  for (const auto& bot : bots) total += bot->tally();
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  BotConfig config;
  const auto args = ttt::client::parse_bot_args(argc, argv, config);
  if (const auto done = ttt::cli::answer_command_line("ttt-bot", args)) return *done;
  std::signal(SIGPIPE, SIG_IGN);
  ::umask(077);  // the secret and token files are the user's only
  ttt::cli::log_to_stderr("ttt-bot", config.log_level, !ttt::cli::no_color_requested());
  ttt::client::route_protobuf_logs();
  BotTally total;
  try {
    total = run_bots(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-bot: %s\n", e.what());
    total.errors += 1;
  }
  std::printf("bot summary: games=%d wins=%d losses=%d draws=%d errors=%d\n", total.games,
              total.wins, total.losses, total.draws, total.errors);
  std::fflush(stdout);
  return total.errors > 0 || total.connect_failed ? 1 : 0;
}
