// The console client's slash commands: /list [next] [open] [SIZE [k K]]
// [rated|unrated] [name TEXT], /create SIZE [k K] [clock M+S] [private]
// [bot LEVEL] [rated|unrated], /join ID [CODE], /quick SIZE [k K] [clock
// M+S], /watch ID, /who [next] [NAME], /challenge NAME [SIZE] [k K] [clock
// M+S] [rated|unrated], /accept [ID], /decline [ID], /challenges on|off,
// /block [NAME], /unblock NAME, /resign, /draw, /rematch, /leave, /say
// TEXT, /mute [NAME], /unmute NAME, /spectators on|off, /me, /top [N],
// /history [NAME], /replay ID, /secret rotate, /help, /quit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ttt/ai.hpp"
#include "view/clock_text.hpp"

namespace ttt::client {

enum class CommandKind {
  List,
  Create,
  Join,
  Quick,
  Watch,
  Resign,
  Draw,
  Decline,
  Rematch,
  Leave,
  Say,
  Me,
  Top,
  History,
  Replay,
  Mute,
  Unmute,
  Spectators,
  SecretRotate,
  Help,
  Quit,
  Who,
  Challenge,
  Accept,
  Challenges,
  Block,
  Unblock
};

struct Command {
  CommandKind kind = CommandKind::Help;
  int size = 3;                 // Create, Quick
  int win_length = 0;           // Create, Quick: marks in a row that win; 0 = size (List: any)
  bool is_private = false;      // Create
  std::optional<Level> bot;     // Create: the server's bot takes the other seat
  std::optional<bool> rated;    // Create: rated or not; empty = the server's default
  std::uint64_t game_id = 0;    // Join, Watch
  std::string code;             // Join, Watch: the invite code of a private game
  std::string text;             // Say; History: the player's name (empty = yourself)
  int limit = 10;               // Top: how many players
  std::uint64_t record_id = 0;  // Replay: a finished game's record id (see /history)
  // List: the next page of the last list, or a first page with filters:
  // open games only, a board size (0 = any) and its win length (in
  // `win_length`, 0 = any), rated (in `rated`), a name (in `text`).
  bool next_page = false;
  bool open_only = false;
  int list_size = 0;
  bool on = false;  // Spectators: hear the spectators' chat; Challenges: take challenges
  std::optional<ClockSpec> clock;  // Create, Quick, Challenge: a Fischer clock
  std::uint64_t challenge_id = 0;  // Accept, Decline: which challenge (0: the latest)
  // Who: the next page (next_page), or players whose name holds `text`.
  // Challenge: whom in `text`, with size, win_length, clock and rated.
  // Block: whom in `text` (none: list who is blocked); Unblock: whom.
  // Mute, Unmute: the name in `text` (Mute without one lists who is muted).
};

// A parsed command, or why the line is not one.
struct CommandParse {
  std::optional<Command> command;
  std::string error;  // one line; set when command is empty
};

// True if the line is meant as a command (it starts with '/').
bool is_command(std::string_view line) noexcept;

// Parses one command line: a '/', the command's exact name, then its words
// separated by spaces. SIZE defaults to 3 when left out; `k K` (3 to SIZE)
// asks for K in a row to win instead of the whole line.
CommandParse parse_command(std::string_view line);

// The /help text: every command and the move syntax, a command a line
// (its description wrapping under itself) at most width columns wide (0:
// no limit).
std::string help_text(std::size_t width = 0);

}  // namespace ttt::client
