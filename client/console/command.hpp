// The console client's slash commands: /list, /create SIZE [private]
// [bot LEVEL] [rated|unrated], /join ID [CODE], /quick SIZE, /watch ID,
// /resign, /draw, /rematch, /leave, /say TEXT, /top [N], /history [NAME],
// /replay ID, /help, /quit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ttt/ai.hpp"

namespace ttt::client {

enum class CommandKind {
  List,
  Create,
  Join,
  Quick,
  Watch,
  Resign,
  Draw,
  Rematch,
  Leave,
  Say,
  Top,
  History,
  Replay,
  Help,
  Quit
};

struct Command {
  CommandKind kind = CommandKind::Help;
  int size = 3;                 // Create, Quick
  bool is_private = false;      // Create
  std::optional<Level> bot;     // Create: the server's bot takes the other seat
  std::optional<bool> rated;    // Create: rated or not; empty = the server's default
  std::uint64_t game_id = 0;    // Join, Watch
  std::string code;             // Join, Watch: the invite code of a private game
  std::string text;             // Say; History: the player's name (empty = yourself)
  int limit = 10;               // Top: how many players
  std::uint64_t record_id = 0;  // Replay: a finished game's record id (see /history)
};

// A parsed command, or why the line is not one.
struct CommandParse {
  std::optional<Command> command;
  std::string error;  // one line; set when command is empty
};

// True if the line is meant as a command (it starts with '/').
bool is_command(std::string_view line) noexcept;

// Parses one command line: a '/', the command's exact name, then its words
// separated by spaces. SIZE defaults to 3 when left out.
CommandParse parse_command(std::string_view line);

// The /help text: every command and the move syntax, one per line.
std::string help_text();

}  // namespace ttt::client
