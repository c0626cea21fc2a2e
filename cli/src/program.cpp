#include "ttt/cli/program.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>

#include "ttt/cli/invocation.hpp"

namespace ttt::cli {

const char* const kVersion = TTT_VERSION;

std::optional<int> answer_command_line(std::string_view program, const ParsedArgs& args) {
  if (!args.result.ok) {
    const std::string name(program);
    std::fprintf(stderr, "%s: %s\n(see %s --help)\n", name.c_str(), args.result.error.c_str(),
                 invocation_name(program).c_str());
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
  if (args.result.version) {
    std::printf("%s %s\n", std::string(program).c_str(), kVersion);
    return 0;
  }
  return std::nullopt;
}

void log_to_stderr(const std::string& program, const std::string& level, bool color) {
  spdlog::set_default_logger(spdlog::stderr_color_mt(
      program, color ? spdlog::color_mode::automatic : spdlog::color_mode::never));
  spdlog::set_level(spdlog::level::from_str(level));
}

bool no_color_requested() noexcept {
  const char* no_color = std::getenv("NO_COLOR");
  return no_color != nullptr && no_color[0] != '\0';
}

}  // namespace ttt::cli
