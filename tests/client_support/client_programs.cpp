#include "client_support/client_programs.hpp"

#include <regex>

#include "client_support/loopback_trust.hpp"

namespace ttt::testing {

std::unique_ptr<ChildProcess> start_bot(std::uint16_t port, const TempDir& config,
                                        std::vector<std::string> args) {
  std::vector<std::string> argv{bin_dir() + "/ttt-bot", "--host", "127.0.0.1", "--port",
                                std::to_string(port)};
  for (auto& arg : trust_args(port)) argv.push_back(std::move(arg));
  argv.insert(argv.end(), args.begin(), args.end());
  return std::make_unique<ChildProcess>(
      argv, std::vector<std::string>{"XDG_CONFIG_HOME=" + config.path()});
}

std::unique_ptr<ChildProcess> start_client(std::uint16_t port, const TempDir& config,
                                           std::vector<std::string> args) {
  std::vector<std::string> argv{bin_dir() + "/ttt-client", "--host", "127.0.0.1", "--port",
                                std::to_string(port),      "--name", "tester"};
  for (auto& arg : trust_args(port)) argv.push_back(std::move(arg));
  argv.insert(argv.end(), args.begin(), args.end());
  return std::make_unique<ChildProcess>(
      argv, std::vector<std::string>{"XDG_CONFIG_HOME=" + config.path(), "NO_COLOR=1"});
}

std::optional<BotSummary> last_line_summary(const std::string& output) {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::size_t newline = text.rfind('\n');
  const std::string last = text.substr(newline == std::string::npos ? 0 : newline + 1);
  const std::regex line(
      R"(bot summary: games=(\d+) wins=(\d+) losses=(\d+) draws=(\d+) errors=(\d+))");
  std::smatch m;
  if (!std::regex_match(last, m, line)) return std::nullopt;
  return BotSummary{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]),
                    std::stoi(m[5])};
}

std::optional<std::string> created_game_id(ChildProcess& bot, std::chrono::milliseconds timeout) {
  const std::regex line(R"(: waiting for an opponent in game (\d+)\n)");
  std::smatch match;
  std::string id;
  if (!bot.wait_for(
          [&](const std::string& out) {
            if (!std::regex_search(out, match, line)) return false;
            id = match[1];
            return true;
          },
          timeout)) {
    return std::nullopt;
  }
  return id;
}

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace ttt::testing
