// ExitStatus: how a run of ttt-client ends. The server's fatal errors end
// the link: those the connection gets over (a resume token the server no
// longer holds, a node's refusal) are said at once; those that end the run
// (the name refused, the session taken over, anything else) are said now or
// kept for the last line. When the connection gives up, it sets the exit
// code and says that last line on standard error.
#pragma once

#include <string>

#include "console/terminal.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class ExitStatus {
 public:
  // Exit codes: 0 after a normal quit, kLost when the server could not be
  // reached or was lost (or another terminal took the session over),
  // kNameRefused when the server refused the name (NAME_TAKEN, or
  // SESSION_ACTIVE: the name is connected from another terminal),
  // kUntrusted when its TLS certificate was not trusted.
  static constexpr int kLost = 1;
  static constexpr int kNameRefused = 3;
  static constexpr int kUntrusted = 4;

  explicit ExitStatus(Terminal& terminal) : terminal_(terminal) {}

  // A fatal error from the server to the player called name. welcomed: a
  // Welcome came before (before one, the connection's own failure says what
  // went wrong).
  void fatal(const wire::Error& error, bool welcomed, const std::string& name);

  // Whether the server refused the name (NAME_TAKEN).
  bool name_refused() const noexcept { return name_refused_; }

  // The connection of the player called name gave up (reason: its words):
  // sets the exit code and says the last line on stderr. name_refusal is
  // what to say of a refused name (NameSecret's), trust_refusal the refusal
  // of an untrusted server (TrustQuestion's; empty: the server was trusted).
  void failed(const std::string& reason, const std::string& name, const std::string& name_refusal,
              const std::string& trust_refusal);

  int code() const noexcept { return code_; }

 private:
  void say(const std::string& line);

  Terminal& terminal_;
  bool name_refused_ = false;    // the server said NAME_TAKEN
  bool session_active_ = false;  // the server said SESSION_ACTIVE
  std::string fatal_said_;       // a fatal error's words, said already
  int code_ = 0;
};

}  // namespace ttt::client
