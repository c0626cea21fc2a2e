// The first lines of every program's main() (ttt-server, ttt-client,
// ttt-bot, ttt-engine, ttt-arena): the command line answered, and the log
// on standard error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ttt/cli/flags.hpp"
#include "ttt/cli/version.hpp"

namespace ttt::cli {

// What a program's command line came to: the flags' verdict (with the
// program's own checks after them), and the texts --help and
// --print-config show.
struct ParsedArgs {
  ParseResult result;
  std::string usage;             // the --help text
  std::string effective_config;  // on ok: the --print-config text

  // A check after the flags parsed failed: the command line is bad, and
  // error says why (one line, naming the flag).
  ParsedArgs& refuse(std::string error) {
    result.ok = false;
    result.error = std::move(error);
    return *this;
  }
};

// Answers what the command line asks of the program itself: a bad command
// line is said on stderr ("PROGRAM: WHAT" and "(see COMMAND --help)", the
// command as the user runs it: invocation.hpp) and ends it with exit code
// 2; --help prints the usage, --print-config the effective settings and
// --version "PROGRAM VERSION" (ttt's version, kVersion) on stdout, exit code
// 0. nullopt: the program goes on.
std::optional<int> answer_command_line(std::string_view program, const ParsedArgs& args);

// The default log: standard error, named program, at level (trace, debug,
// info, warn, error, off); coloured on a terminal when color, never
// otherwise.
void log_to_stderr(const std::string& program, const std::string& level, bool color);

// Whether NO_COLOR is set (and not empty): then nothing is coloured,
// whatever the user asks.
bool no_color_requested() noexcept;

}  // namespace ttt::cli
