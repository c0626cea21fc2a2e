// The text of the Gomocup "pbrain" protocol (Piskvork's AI protocol, the one
// gomoku engines speak), both ways: the manager's commands (START, RESTART,
// BEGIN, TURN, BOARD ... DONE, INFO, END, ABOUT, ...) and a brain's answers
// ("x,y", OK, ERROR, MESSAGE, DEBUG, UNKNOWN). Coordinates are x = column,
// y = row, from 0. Pure functions: the bridge (engine_brain) and ttt-engine
// (engine_loop) do the talking.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ttt/board.hpp"

namespace ttt::client::pbrain {

// A cell as the protocol writes it.
struct Point {
  int x = 0;  // column
  int y = 0;  // row
  friend bool operator==(const Point&, const Point&) = default;
};

Move move_of(Point point) noexcept;
Point point_of(Move move) noexcept;

// "x,y".
std::string point_text(Point point);

// "x,y" with optional spaces around the numbers; each a whole number from 0
// to 9999. nullopt for anything else.
std::optional<Point> parse_point(std::string_view text);

// One line between BOARD and DONE: "x,y,field", field 1 (the brain's own
// stone), 2 (the opponent's) or 3 (a winning-line marker of continuous
// games).
struct Stone {
  Point point;
  int field = 0;
};
std::optional<Stone> parse_stone(std::string_view text);

// A command line cut into its name (upper-cased) and the rest (trimmed):
// "turn 10,10" -> {"TURN", "10,10"}.
struct CommandLine {
  std::string name;
  std::string args;
};
CommandLine split_command(std::string_view line);

// What a brain answered, one line.
struct Answer {
  enum class Kind {
    Move,     // "x,y"
    Ok,       // OK (to START, RESTART, TAKEBACK)
    Error,    // ERROR text: the brain refuses the command
    Message,  // MESSAGE text: for the user, before the real answer
    Debug,    // DEBUG text: for the brain's author
    Unknown,  // UNKNOWN text: the brain does not know the command
    Suggest,  // SUGGEST x,y: a move proposed to the manager (not a move)
    Other,    // none of these: garbage
  };
  Kind kind = Kind::Other;
  Point point;       // Move, Suggest
  std::string text;  // Error, Message, Debug, Unknown: the rest; Other: the line
};
Answer parse_answer(std::string_view line);

// The fields of an ABOUT answer, `key="value", key="value"` (keys
// lower-cased); what does not parse is left out.
std::map<std::string, std::string> parse_about(std::string_view text);

// The rule INFO value of ttt's rules: 0, freestyle (five or more in a row
// win), which is what k = 5 means here.
inline constexpr int kFreestyleRule = 0;

// The INFO key ttt adds to the protocol (ABOUT lists it as
// ttt_win_length="yes" in an engine that understands it): how many in a row
// win, for engines that play other win lengths than five.
inline constexpr std::string_view kWinLengthKey = "ttt_win_length";

// The time_left value that means "no limit for the match".
inline constexpr long long kUnlimitedMs = 2147483647;

}  // namespace ttt::client::pbrain
