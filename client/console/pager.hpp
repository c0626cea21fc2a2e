// Pager: output longer than a screen, shown a screenful at a time, so that a
// server's 3,000-game list can't scroll the player's screen away. On a
// terminal the rest waits: Enter shows the next screenful, q stops, and any
// other line stops the pager and is acted on as usual (server events keep
// printing meanwhile). In line mode (a script) there is nobody to press
// Enter: a text is cut after kScriptLines lines, with one line saying how
// many were left out. A replay steps the same way: a move per Enter on a
// terminal, every move at once in line mode.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "console/board_render.hpp"
#include "console/replay.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class Pager {
 public:
  // Lines of one text a script gets.
  static constexpr std::size_t kScriptLines = 200;

  explicit Pager(Terminal& terminal) : terminal_(terminal) {}

  // Shows text (whole lines, each ending in '\n'): all of it when it fits
  // the screen, else its first screenful and the rest on Enter. Whatever
  // was waiting before is dropped.
  void show(std::string_view text);

  // Steps through the replay of a record after its header: on a terminal a
  // move per Enter, in line mode every move now. A record that is no legal
  // game is one line saying why.
  void show_replay(const wire::GameRecord& record, RenderStyle style, TimeZone zone);

  // Whether something waits for Enter.
  bool waiting() const noexcept { return !lines_.empty() || replay_.has_value(); }

  // A line typed while waiting: true when it was the pager's (Enter: more,
  // q: stop); false when it stopped the pager and is the caller's to act on.
  bool take(std::string_view line);

  // The prompt while waiting: what Enter shows next.
  std::string prompt() const;

  // Drops whatever waits, silently.
  void clear();

 private:
  // Prints lines from next_line_ on, as many as fill `rows` screen rows.
  void print_page(std::size_t rows);
  void step_replay();

  Terminal& terminal_;
  std::vector<std::string> lines_;  // a paged text, while some of it waits
  std::size_t next_line_ = 0;
  std::optional<Replay> replay_;  // a replay, while moves wait
  RenderStyle style_;
};

}  // namespace ttt::client
