// Tmux: a real terminal for end-to-end tests of the interactive client. A
// tmux server of the test's own (a private socket, -S, in a temporary
// directory of its own; no user config), one session "ttt" whose pane runs
// the command; the server is killed and its socket removed when the object
// goes away, however the test ends.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "client_support/child_process.hpp"

namespace ttt::testing {

class Tmux {
 public:
  Tmux();
  ~Tmux();
  Tmux(const Tmux&) = delete;
  Tmux& operator=(const Tmux&) = delete;

  // Whether tmux is installed (tests skip without it).
  static bool available();

  // tmux -S SOCKET ARGS... (UTF-8, no config file)
  CommandResult run(std::vector<std::string> args);

  // Starts command (a shell command line) in a columns×rows pane. The pane
  // stays, with its last screen, after the command exits; tmux runs in UTF-8
  // mode and keeps what a program puts on the clipboard (OSC 52) as a paste
  // buffer, so that tests can see whether anything did.
  bool start(const std::string& command, int columns = 120, int rows = 40);

  // ttt-client against 127.0.0.1:port with its config under config and
  // flags after --host and --port, in a UTF-8 locale, in a columns×rows pane:
  // in line mode (--plain), or full screen (a TERM that draws, env: more
  // variables such as NO_COLOR=1).
  bool start_client(std::uint16_t port, const TempDir& config, const std::string& flags,
                    int columns = 120, int rows = 40);
  bool start_full_screen(std::uint16_t port, const TempDir& config, const std::string& flags,
                         int columns = 100, int rows = 30, const std::string& env = "");

  // The pane's text, history included, wrapped lines joined.
  std::string screen();
  // Only what is on the screen now.
  std::string visible();
  // The screen with its colours and attributes as escape sequences (-e).
  std::string visible_with_attributes();
  // A tmux format of the pane, e.g. "#{pane_title}".
  std::string format(const std::string& format);
  // The names of tmux's paste buffers, one per line (empty: none).
  std::string buffers();

  // Types keys (tmux key names or text) and Enter.
  void type(const std::string& keys);
  // Presses keys (tmux key names or text) without Enter.
  void press(const std::vector<std::string>& keys);

  // Everything the pane's program writes from now on, byte for byte (the
  // bell, escape sequences), copied to a file of the tmux's own folder.
  bool record();
  std::string recorded();

  // The lines tmux had to wrap because they were wider than the pane (the
  // program did not fit its text to the screen), history included.
  std::vector<std::string> wrapped_lines();

  bool wait_screen(const std::function<bool(const std::string&)>& pred,
                   std::chrono::milliseconds timeout);
  // Waits until the pane's command has exited.
  bool wait_exit(std::chrono::milliseconds timeout);

 private:
  TempDir dir_;  // holds the socket; removed last
  std::string socket_;
};

}  // namespace ttt::testing
