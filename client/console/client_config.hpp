// ttt-client's command line.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "console/terminal.hpp"
#include "identity/name_claim.hpp"
#include "link/server_list.hpp"
#include "trust/trust_flags.hpp"
#include "ttt/cli/program.hpp"

namespace ttt::client {

struct ClientConfig {
  // The first address of --host (the lobby as the user names it: the token,
  // secret and default name are kept under it) and the lobby's other nodes.
  std::string host = "localhost";
  std::uint16_t port = 7777;
  std::vector<ServerAddress> other_nodes;
  std::string name;      // empty: the first free default identity of login_name()
  std::string play_bot;  // a level: start in a game against the server's bot
  int size = 3;          // board size for --play-bot, --local and -a
  int win_length = 0;    // and its win length; 0 = the size (whole lines)
  std::chrono::milliseconds retry{30'000};
  // In a game in progress, how long at least to keep reconnecting: a server
  // restarted within it restores the game. 0: as long as the seat is held.
  std::chrono::milliseconds restart_wait{300'000};
  std::chrono::milliseconds connect_timeout{5'000};
  std::string token_file;  // default: default_token_path(host, port, name)
  bool no_token_file = false;
  bool fresh = false;       // ignore a saved token: start as a new player
  bool take_over = false;   // move a session of this name connected from elsewhere here
  std::string secret_file;  // default: default_secret_path(host, port, name)
  bool local = false;       // offline hot-seat
  bool ai = false;          // offline against the AI
  std::string ai_level = "perfect";
  bool verbose = false;  // offline: print the board as its X/O/E list
  ColorChoice color = ColorChoice::Auto;
  bool plain = false;  // line mode even on a terminal
  std::string log_level = "warn";
  // The server was started for this client and stops when it exits (./ttt
  // play): leaving mid-game keeps the game (with a token file) or ends it,
  // no seat is held.
  bool own_server = false;
  // A line said first, and again last (it stays on the screen after the
  // client is gone): ./ttt play says that its game is not kept.
  std::string notice;
  TrustFlags trust;  // --no-tls, --fingerprint, --known-servers
};

// Parses ttt-client's flags (and the --config file) into config.
cli::ParsedArgs parse_client_args(int argc, const char* const* argv, ClientConfig& config);

// Whether ttt-client runs full screen: online, on a terminal (stdin and
// stdout), one that can draw (TERM set and not "dumb"), unless --plain.
bool full_screen_wanted(const ClientConfig& config, bool stdin_tty, bool stdout_tty,
                        const char* term) noexcept;

}  // namespace ttt::client
