#include "view/board_name.hpp"

namespace ttt::client {

std::string board_name(int size, int win_length) {
  const std::string side = std::to_string(size);
  std::string name = side + "x" + side;
  if (win_length != 0 && win_length != size)
    name += ", " + std::to_string(win_length) + " in a row";
  return name;
}

}  // namespace ttt::client
