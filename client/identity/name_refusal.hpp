// What ttt-client and ttt-bot say when the server refuses the player's name
// (a fatal NAME_TAKEN): whose the name is, and how to get in anyway.
#pragma once

#include <string>

namespace ttt::client {

struct NameRefusal {
  std::string name;         // the name asked for
  std::string server;       // "HOST:PORT"
  std::string secret_path;  // where this account keeps the name's secret; empty = nowhere
  bool had_secret = false;  // a secret was presented, and it was not the name's
  std::string secret_flag;  // the program's flag that picks another secret file; empty = none
};

// Two lines (no trailing newline): why the name was refused, then what to do
// (choose another --name, or bring the name's secret file). Names beginning
// with "bot (" get a line of their own: they belong to the server's bots.
std::string name_refusal_text(const NameRefusal& refusal);

}  // namespace ttt::client
