#include "console/command.hpp"

#include <array>
#include <cctype>
#include <vector>

#include "console/text_table.hpp"
#include "text/display_width.hpp"
#include "ttt/board.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/wire/lobby_limits.hpp"

namespace ttt::client {
namespace {

constexpr int kMinSize = 3;
constexpr int kMaxSize = wire::kMaxLobbySize;
constexpr int kMaxTop = 100;  // the server's cap on a leaderboard

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

CommandParse fail(std::string error) { return CommandParse{std::nullopt, std::move(error)}; }

Command command_of(CommandKind kind) {
  Command command;
  command.kind = kind;
  return command;
}

CommandParse ok(Command command) { return CommandParse{std::move(command), ""}; }

std::optional<int> parse_size(std::string_view word) {
  auto size = cli::parse_int(word, kMinSize, kMaxSize);
  if (!size) return std::nullopt;
  return static_cast<int>(*size);
}

std::string size_error(std::string_view word) {
  return "The board size is a number from " + std::to_string(kMinSize) + " to " +
         std::to_string(kMaxSize) + ", not '" + std::string(word) + "'";
}

// The K of `k K` at args[i] (the word after "k"), checked against the size;
// why not in error.
std::optional<int> parse_win_length(const std::vector<std::string_view>& args, std::size_t i,
                                    int size, std::string& error) {
  const std::string range = "from " + std::to_string(Board::kMinWinLength) + " to " +
                            std::to_string(size) + " on a " + std::to_string(size) + "x" +
                            std::to_string(size) + " board";
  if (i >= args.size()) {
    error = "k needs a number after it: how many in a row win (" + range + "), e.g. k 5";
    return std::nullopt;
  }
  auto k = cli::parse_int(args[i], Board::kMinWinLength, size);
  if (!k) {
    error = "The win length is a number " + range + ", not '" + std::string(args[i]) + "'";
    return std::nullopt;
  }
  return static_cast<int>(*k);
}

// The word after "clock" at args[i]: M+S; why not in error.
std::optional<ClockSpec> parse_clock_at(const std::vector<std::string_view>& args, std::size_t i,
                                        std::string& error) {
  if (i >= args.size()) {
    error = "clock needs M+S after it: minutes for the game and seconds a move, e.g. clock 3+2";
    return std::nullopt;
  }
  return parse_clock(args[i], error);
}

// A game's settings from args[i]: an optional SIZE first, then k K, clock
// M+S, rated|unrated (with_rated), and for /create private and bot LEVEL.
// false with why in error (empty: the command's usage says it best).
bool parse_settings(const std::vector<std::string_view>& args, std::size_t i, Command& c,
                    bool with_rated, std::string& error) {
  if (i < args.size() && std::isdigit(static_cast<unsigned char>(args[i][0]))) {
    const auto size = parse_size(args[i]);
    if (!size) {
      error = size_error(args[i]);
      return false;
    }
    c.size = *size;
    ++i;
  }
  auto is_option = [](std::string_view word) {
    return word == "private" || word == "bot" || word == "rated" || word == "unrated" ||
           word == "k" || word == "clock";
  };
  for (; i < args.size(); ++i) {
    if (args[i] == "k") {
      const auto k = parse_win_length(args, i + 1, c.size, error);
      if (!k) return false;
      c.win_length = *k;
      ++i;
    } else if (args[i] == "clock") {
      c.clock = parse_clock_at(args, i + 1, error);
      if (!c.clock) return false;
      ++i;
    } else if (with_rated && (args[i] == "rated" || args[i] == "unrated")) {
      c.rated = args[i] == "rated";
    } else if (c.kind == CommandKind::Create && args[i] == "private") {
      c.is_private = true;
    } else if (c.kind == CommandKind::Create && args[i] == "bot") {
      c.bot = Level::Perfect;
      if (i + 1 < args.size() && !is_option(args[i + 1])) {
        auto level = parse_level(args[i + 1]);
        if (!level) {
          error = "Unknown bot level '" + std::string(args[i + 1]) +
                  "': random, easy, medium, hard or perfect";
          return false;
        }
        c.bot = level;
        ++i;
      }
    } else {
      error = "";
      return false;
    }
  }
  return true;
}

CommandParse parse_create(const std::vector<std::string_view>& args) {
  Command c = command_of(CommandKind::Create);
  std::size_t i = 0;
  std::string error;
  if (!parse_settings(args, i, c, true, error)) {
    if (!error.empty()) return fail(error);
    return fail(
        "Usage: /create SIZE [k K] [clock M+S] [private] [bot LEVEL] [rated|unrated], e.g. "
        "/create 3 bot perfect, /create 15 k 5 or /create 3 clock 3+2");
  }
  return ok(std::move(c));
}

CommandParse parse_game_ref(CommandKind kind, std::string_view usage,
                            const std::vector<std::string_view>& args) {
  if (args.empty() || args.size() > 2) return fail(std::string("Usage: ") + std::string(usage));
  auto id = cli::parse_int(args[0], 1, INT64_MAX);
  Command c = command_of(kind);
  if (id) {
    c.game_id = static_cast<std::uint64_t>(*id);
    if (args.size() == 2) c.code = std::string(args[1]);
  } else if (kind == CommandKind::Join && args.size() == 1) {
    c.code = std::string(args[0]);  // an invite code alone
  } else {
    return fail("A game id is a number, not '" + std::string(args[0]) + "' (see /list)");
  }
  return ok(std::move(c));
}

CommandParse parse_list(const std::vector<std::string_view>& args) {
  Command c = command_of(CommandKind::List);
  static constexpr const char* kUsage =
      "Usage: /list [open] [SIZE [k K]] [rated|unrated] [name TEXT], or /list next for the next "
      "page";
  if (args.size() == 1 && (args[0] == "next" || args[0] == "more")) {
    c.next_page = true;
    return ok(std::move(c));
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "open") {
      c.open_only = true;
    } else if (args[i] == "rated" || args[i] == "unrated") {
      c.rated = args[i] == "rated";
    } else if (args[i] == "name" && i + 1 < args.size()) {
      c.text = std::string(args[++i]);
    } else if (std::isdigit(static_cast<unsigned char>(args[i][0]))) {
      auto size = parse_size(args[i]);
      if (!size) return fail(size_error(args[i]));
      c.list_size = *size;
      if (i + 1 < args.size() && args[i + 1] == "k") {
        std::string error;
        const auto k = parse_win_length(args, i + 2, c.list_size, error);
        if (!k) return fail(error);
        c.win_length = *k;
        i += 2;
      }
    } else {
      return fail(kUsage);
    }
  }
  return ok(std::move(c));
}

CommandParse parse_quick(const std::vector<std::string_view>& args) {
  Command c = command_of(CommandKind::Quick);
  std::size_t i = 0;
  std::string error;
  if (!parse_settings(args, i, c, false, error)) {
    if (!error.empty()) return fail(error);
    return fail("Usage: /quick SIZE [k K] [clock M+S], e.g. /quick 15 k 5 or /quick 3 clock 1+1");
  }
  return ok(std::move(c));
}

CommandParse parse_challenge(const std::vector<std::string_view>& args) {
  static constexpr const char* kUsage =
      "Usage: /challenge NAME [SIZE] [k K] [clock M+S] [rated|unrated], e.g. /challenge bob 3 "
      "clock 3+2";
  if (args.empty()) return fail(kUsage);
  Command c = command_of(CommandKind::Challenge);
  c.text = std::string(args[0]);
  std::size_t i = 1;
  std::string error;
  if (!parse_settings(args, i, c, true, error)) return fail(error.empty() ? kUsage : error);
  return ok(std::move(c));
}

// /accept [ID] and /decline [ID]: a challenge's id (none: the latest; for
// /decline, the opponent's offer first when there is one).
CommandParse parse_answer(CommandKind kind, const std::vector<std::string_view>& args) {
  Command c = command_of(kind);
  if (args.size() > 1)
    return fail(kind == CommandKind::Accept ? "Usage: /accept [ID]" : "Usage: /decline [ID]");
  if (!args.empty()) {
    auto id = cli::parse_int(args[0], 1, INT64_MAX);
    if (!id) return fail("A challenge id is a number, not '" + std::string(args[0]) + "'");
    c.challenge_id = static_cast<std::uint64_t>(*id);
  }
  return ok(std::move(c));
}

CommandParse parse_who(const std::vector<std::string_view>& args) {
  Command c = command_of(CommandKind::Who);
  if (args.size() == 1 && (args[0] == "next" || args[0] == "more")) {
    c.next_page = true;
  } else if (args.size() > 1) {
    return fail("Usage: /who [NAME], or /who next for the next page");
  } else if (!args.empty()) {
    c.text = std::string(args[0]);
  }
  return ok(std::move(c));
}

CommandParse parse_top(const std::vector<std::string_view>& args) {
  Command c = command_of(CommandKind::Top);
  if (args.size() > 1) return fail("Usage: /top [N]");
  if (!args.empty()) {
    auto limit = cli::parse_int(args[0], 1, kMaxTop);
    if (!limit) {
      return fail("/top shows 1 to " + std::to_string(kMaxTop) + " players, not '" +
                  std::string(args[0]) + "'");
    }
    c.limit = static_cast<int>(*limit);
  }
  return ok(std::move(c));
}

CommandParse parse_replay(const std::vector<std::string_view>& args) {
  if (args.size() != 1) return fail("Usage: /replay ID (the record ids are in /history)");
  auto id = cli::parse_int(args[0], 1, INT64_MAX);
  if (!id) {
    return fail("A record id is a number, not '" + std::string(args[0]) + "' (see /history)");
  }
  Command c = command_of(CommandKind::Replay);
  c.record_id = static_cast<std::uint64_t>(*id);
  return ok(std::move(c));
}

// The rest of the line after the command's name, without leading spaces.
std::string_view rest_of(std::string_view line, std::string_view name) {
  std::string_view rest = line.substr(line.find(name) + name.size());
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) {
    rest.remove_prefix(1);
  }
  return rest;
}

// The rest of the line after the command's name, trimmed.
std::string_view trimmed_rest(std::string_view line, std::string_view name) {
  std::string_view rest = rest_of(line, name);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back()))) {
    rest.remove_suffix(1);
  }
  return rest;
}

// Commands that take no argument.
std::optional<CommandKind> simple_command(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, CommandKind>, 9> kSimple{{
      {"resign", CommandKind::Resign},
      {"draw", CommandKind::Draw},
      {"me", CommandKind::Me},
      {"rematch", CommandKind::Rematch},
      {"leave", CommandKind::Leave},
      {"help", CommandKind::Help},
      {"quit", CommandKind::Quit},
      {"exit", CommandKind::Quit},
      {"?", CommandKind::Help},
  }};
  for (const auto& [word, kind] : kSimple) {
    if (name == word) return kind;
  }
  return std::nullopt;
}

}  // namespace

bool is_command(std::string_view line) noexcept {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) {
    line.remove_prefix(1);
  }
  return !line.empty() && line.front() == '/';
}

CommandParse parse_command(std::string_view line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) {
    line.remove_prefix(1);
  }
  if (line.empty() || line.front() != '/') return fail("A command starts with / (see /help)");
  line.remove_prefix(1);
  const auto words = split_words(line);
  if (words.empty()) return fail("Type a command after the /, e.g. /help");
  const std::string_view name = words[0];
  const std::vector<std::string_view> args(words.begin() + 1, words.end());
  if (name == "say") {
    const std::string_view text = rest_of(line, name);
    if (text.empty()) return fail("Usage: /say TEXT");
    Command say = command_of(CommandKind::Say);
    say.text = std::string(text);
    return ok(std::move(say));
  }
  if (name == "create") return parse_create(args);
  if (name == "list") return parse_list(args);
  if (name == "mute" || name == "unmute") {
    // A name may hold spaces: it is the rest of the line.
    Command mute = command_of(name == "mute" ? CommandKind::Mute : CommandKind::Unmute);
    mute.text = std::string(trimmed_rest(line, name));
    if (mute.kind == CommandKind::Unmute && mute.text.empty()) return fail("Usage: /unmute NAME");
    return ok(std::move(mute));
  }
  if (name == "spectators") {
    if (args.size() != 1 || (args[0] != "on" && args[0] != "off")) {
      return fail("Usage: /spectators on|off (whether you hear the spectators' chat)");
    }
    Command spectators = command_of(CommandKind::Spectators);
    spectators.on = args[0] == "on";
    return ok(std::move(spectators));
  }
  if (name == "secret") {
    if (args.size() != 1 || args[0] != "rotate") return fail("Usage: /secret rotate");
    return ok(command_of(CommandKind::SecretRotate));
  }
  if (name == "join") return parse_game_ref(CommandKind::Join, "/join ID [CODE]", args);
  if (name == "who") return parse_who(args);
  if (name == "challenge") return parse_challenge(args);
  if (name == "accept") return parse_answer(CommandKind::Accept, args);
  if (name == "decline") return parse_answer(CommandKind::Decline, args);
  if (name == "challenges") {
    if (args.size() != 1 || (args[0] != "on" && args[0] != "off")) {
      return fail("Usage: /challenges on|off (whether others may challenge you)");
    }
    Command challenges = command_of(CommandKind::Challenges);
    challenges.on = args[0] == "on";
    return ok(std::move(challenges));
  }
  if (name == "block" || name == "unblock") {
    Command block = command_of(name == "block" ? CommandKind::Block : CommandKind::Unblock);
    if (args.size() > 1) return fail("Usage: /" + std::string(name) + " NAME");
    if (!args.empty()) block.text = std::string(args[0]);
    if (block.kind == CommandKind::Unblock && block.text.empty())
      return fail("Usage: /unblock NAME");
    return ok(std::move(block));
  }
  if (name == "watch") return parse_game_ref(CommandKind::Watch, "/watch ID [CODE]", args);
  if (name == "quick") return parse_quick(args);
  if (name == "top") return parse_top(args);
  if (name == "replay") return parse_replay(args);
  if (name == "history") {
    // A name may hold spaces ("bot (hard)"): it is the rest of the line.
    Command history = command_of(CommandKind::History);
    history.text = std::string(trimmed_rest(line, name));
    return ok(std::move(history));
  }
  if (auto kind = simple_command(name)) {
    if (!args.empty()) return fail("/" + std::string(name) + " takes no arguments");
    return ok(command_of(*kind));
  }
  return fail("Unknown command /" + std::string(name) + " (see /help)");
}

std::string help_text(std::size_t width) {
  using Rows = std::vector<std::pair<std::string, std::string>>;
  struct Section {
    const char* title;
    Rows rows;
    const char* after = nullptr;  // a note below the rows
  };
  const std::vector<Section> sections = {
      {"Lobby:",
       {{"/list [open] [SIZE [k K]] [rated|unrated] [name TEXT]",
         "the games on the server, a page at a time (open: waiting for a player; name: a "
         "player's)"},
        {"/list next", "the next page of that list"},
        {"/create SIZE [k K] [clock M+S] [private] [bot LEVEL] [rated|unrated]",
         "a new game (LEVEL: random easy medium hard perfect); k K: K in a row wins (3 to SIZE, "
         "e.g. /create 15 k 5), without it only a whole line wins; clock M+S: M minutes each for "
         "the game, S seconds more a move (e.g. 3+2), without it a move timeout; rated: the "
         "result changes both ratings (default: rated between people, unrated against the bot)"},
        {"/join ID [CODE]", "join a game (CODE for a private one)"},
        {"/quick SIZE [k K] [clock M+S]", "play the next player who wants that game"},
        {"/watch ID [CODE]", "spectate a game"}}},
      {"Players:",
       {{"/who [NAME]", "who is online and what each is doing (/who next)"},
        {"/challenge NAME [SIZE] [k K] [clock M+S] [rated|unrated]",
         "invite NAME to a game (it stands 60 s)"},
        {"/accept [ID], /decline [ID]", "answer a challenge (the latest without ID)"},
        {"/challenges on|off", "take challenges, or refuse them all"},
        {"/block NAME, /unblock NAME", "no challenges or chat from NAME; /block lists"},
        {"/mute NAME, /unmute NAME",
         "hide (or show again) NAME's chat and challenges here (a muted player's challenges "
         "are declined); /mute lists"}}},
      {"In a game:",
       {{"/resign", "give up the game"},
        {"/draw", "offer a draw, or accept your opponent's offer"},
        {"/decline",
         "decline your opponent's draw offer or rematch (with no offer: the latest challenge)"},
        {"/rematch", "ask for (or accept) a rematch; sides swap"},
        {"/leave", "back to the lobby (resigns a game in progress)"},
        {"/say TEXT", "chat with everyone in the game"},
        {"/spectators on|off", "hear the spectators' chat too (off at first)"}},
       "(on a terminal /resign and /leave in a game in progress ask to confirm)"},
      {"You:", {{"/me", "your name, rating, games, wins, losses, draws, rank"}}},
      {"Records (on a server with a database):",
       {{"/top [N]", "the N best-rated players (default 10)"},
        {"/history [NAME]", "recent finished games of NAME, or yours"},
        {"/replay ID",
         "step through a finished game (ID from /history); on a terminal Enter shows the next "
         "move, q stops"}}},
      {"Any time:",
       {{"/secret rotate", "replace the secret that owns your name"},
        {"/help", "this text"},
        {"/quit", "leave the client (while it reconnects too; so does Ctrl-C)"}}},
  };
  std::string text = wrap_text(
      "Moves: a cell like b2 (column letter, row number from 1) or ROW COL like 2 2.\n"
      "  A move typed before your turn is played when your turn comes.\n",
      width);
  for (const Section& section : sections) {
    text += std::string(section.title) + "\n" + two_columns(section.rows, 2, 34, width);
    if (section.after != nullptr)
      text += wrap_text("  " + std::string(section.after) + "\n", width);
  }
  return text;
}

}  // namespace ttt::client
