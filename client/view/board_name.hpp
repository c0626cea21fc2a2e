// How the clients name the rules of a game in one phrase: "3x3" for the
// origin's whole-line rule, "15x15, 5 in a row" when k marks in a row win.
#pragma once

#include <string>

namespace ttt::client {

// "NxN" when win_length is 0 or the size (whole lines win), else
// "NxN, K in a row".
std::string board_name(int size, int win_length);

}  // namespace ttt::client
