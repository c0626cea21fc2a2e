// How the user runs a program, for the hints the program prints ("see
// ./ttt client --help", "run ./ttt client again"): a hint names a command the
// user actually has. The ./ttt script runs the programs from its build folder,
// which is not on PATH, and says how it was asked in TTT_INVOKED_AS.
#pragma once

#include <string>
#include <string_view>

namespace ttt::cli {

// $TTT_INVOKED_AS when it is set and not empty (e.g. "./ttt client"), else
// program (e.g. "ttt-client").
std::string invocation_name(std::string_view program);

}  // namespace ttt::cli
