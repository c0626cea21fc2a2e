// ttt-client: the console client's command line.
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>

#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>

#include "console/client_config.hpp"
#include "console/console_client.hpp"
#include "console/full_screen.hpp"
#include "console/offline_game.hpp"
#include "console/stdin_reader.hpp"
#include "console/terminal.hpp"
#include "link/protobuf_log.hpp"
#include "ttt/cli/program.hpp"

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

// Full screen: keys are read by curses when standard input is readable, and
// the screen is laid out again when the terminal changes size.
int run_full_screen(const ttt::client::ClientConfig& config) {
  std::setlocale(LC_ALL, "");  // curses draws UTF-8 only in a UTF-8 locale
  boost::asio::io_context io;
  ttt::client::FullScreen screen(config.color);
  ttt::client::ConsoleClient client(io, config, screen);
  boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait([&client](const boost::system::error_code& ec, int) {
    if (!ec) client.quit();
  });
  boost::asio::signal_set resized(io, SIGWINCH);
  std::function<void()> on_resize = [&] {
    resized.async_wait([&](const boost::system::error_code& ec, int) {
      if (ec) return;
      screen.on_resize();
      on_resize();
    });
  };
  on_resize();
  boost::asio::posix::stream_descriptor keys(io, ::dup(0));
  std::function<void()> read_keys = [&] {
    keys.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                    [&](const boost::system::error_code& ec) {
                      if (ec) return;
                      screen.pump_keys();
                      read_keys();
                    });
  };
  screen.begin_input([&client](std::string line) { client.on_line(line); },
                     [&client] { client.on_input_end(); });
  client.start();
  read_keys();
  io.run();
  screen.restore();
  return client.exit_code();
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
  if (const auto done = ttt::cli::answer_command_line("ttt-client", args)) return *done;
  std::signal(SIGPIPE, SIG_IGN);
  ::umask(077);  // the secret and token files are the user's only
  // Log lines are coloured only where the screen is (NO_COLOR and --color hold for them too).
  ttt::cli::log_to_stderr(
      "ttt-client", config.log_level,
      ttt::client::use_color(config.color, ::isatty(2) == 1, std::getenv("NO_COLOR")));
  ttt::client::route_protobuf_logs();
  try {
    if (config.local || config.ai) return run_offline(config);
    if (ttt::client::full_screen_wanted(config, ::isatty(0) == 1, ::isatty(1) == 1,
                                        std::getenv("TERM"))) {
      return run_full_screen(config);
    }
    return run_online(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-client: %s\n", e.what());
    return 1;
  }
}
