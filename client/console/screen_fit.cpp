#include "console/screen_fit.hpp"

#include <algorithm>

namespace ttt::client {

std::size_t screen_width(const Terminal& terminal) {
  return terminal.interactive() ? terminal.size().columns : 0;
}

RenderStyle board_style(const Terminal& terminal, int size) {
  RenderStyle style{terminal.color()};
  // A board with its borders taller than the screen is drawn without them.
  constexpr std::size_t kLinesAround = 5;  // the players line, headline, result, turn line
  style.compact =
      terminal.interactive() &&
      2 * static_cast<std::size_t>(std::max(size, 0)) + 2 + kLinesAround > terminal.size().rows;
  return style;
}

}  // namespace ttt::client
