// ttt-client: the console client's command line.
#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <sys/stat.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "console/client_config.hpp"
#include "console/console_client.hpp"
#include "console/offline_game.hpp"
#include "console/stdin_reader.hpp"
#include "console/terminal.hpp"
#include "link/protobuf_log.hpp"
#include "ttt/cli/invocation.hpp"

namespace {

int run_offline(const ttt::client::ClientConfig& config) {
  ttt::client::OfflineOptions options;
  options.size = config.size;
  options.win_length = config.win_length;
  options.vs_ai = config.ai;
  options.level = *ttt::parse_level(config.ai_level);
  options.verbose = config.verbose;
  options.color = ttt::client::use_color(config.color, ::isatty(1) == 1, std::getenv("NO_COLOR"));
  options.prompts = ::isatty(0) == 1 && ::isatty(1) == 1;
  return ttt::client::play_offline(options, std::cin, std::cout);
}

int run_online(const ttt::client::ClientConfig& config) {
  boost::asio::io_context io;
  ttt::client::Terminal terminal(config.color);
  ttt::client::ConsoleClient client(io, config, terminal);
  boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait([&client](const boost::system::error_code& ec, int) {
    if (!ec) client.quit();
  });
  ttt::client::StdinReader input(io.get_executor(),
                                 [&terminal](std::string chunk) { terminal.feed(chunk); });
  terminal.begin_input([&client](std::string line) { client.on_line(line); },
                       [&client] { client.on_input_end(); });
  client.start();
  input.start();
  io.run();
  terminal.restore();
  return client.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  ttt::client::ClientConfig config;
  const auto args = ttt::client::parse_client_args(argc, argv, config);
  if (!args.result.ok) {
    std::fprintf(stderr, "ttt-client: %s\n(see %s --help)\n", args.result.error.c_str(),
                 ttt::cli::invocation_name("ttt-client").c_str());
    return 2;
  }
  if (args.result.help) {
    std::fputs(args.usage.c_str(), stdout);
    return 0;
  }
  if (args.result.print_config) {
    std::fputs(args.effective_config.c_str(), stdout);
    return 0;
  }
  std::signal(SIGPIPE, SIG_IGN);
  ::umask(077);  // the secret and token files are the user's only
  // Log lines are coloured only where the screen is (NO_COLOR and --color hold for them too).
  const bool log_color =
      ttt::client::use_color(config.color, ::isatty(2) == 1, std::getenv("NO_COLOR"));
  spdlog::set_default_logger(spdlog::stderr_color_mt(
      "ttt-client", log_color ? spdlog::color_mode::automatic : spdlog::color_mode::never));
  ttt::client::route_protobuf_logs();
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  try {
    if (config.local || config.ai) return run_offline(config);
    return run_online(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-client: %s\n", e.what());
    return 1;
  }
}
