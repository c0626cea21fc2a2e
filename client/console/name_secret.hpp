// NameSecret: the secret that owns the player's name on the server, as
// ttt-client keeps it (identity/player_secret.hpp) and tells the player
// about it: made and saved before the first Hello, taken from an older
// server that makes it, finished when a rotation's answer was lost, and
// replaced with /secret rotate.
#pragma once

#include <optional>
#include <string>

#include "console/terminal.hpp"
#include "identity/player_secret.hpp"
#include "link/connection.hpp"

namespace ttt::client {

class NameSecret {
 public:
  explicit NameSecret(Terminal& terminal) : terminal_(terminal) {}

  // Before the first Hello: reads the secret of `name` kept at path (empty:
  // nowhere), or makes one and saves it there; options carry it (and a
  // rotation not yet confirmed).
  void load(const std::string& path, const std::string& name, ConnectionOptions& options);

  // After a Welcome, whose Hello carried secret_sent: a rotation the server
  // took at Hello is finished, a name the secret just registered is said to
  // be ours. Returns the secret the connection says from now on when it
  // changes (an older server made one), else nullopt.
  std::optional<std::string> welcomed(const wire::Welcome& welcome, const std::string& secret_sent);

  // The server refused the name: a secret made for it owns nothing.
  void name_taken();

  // /secret rotate: the new secret to offer the server, or nullopt (said
  // why) when none can be kept.
  std::optional<std::string> begin_rotation();

  // The server stored the new secret: the one the connection says from now
  // on, or nullopt (said why) when it could not be kept here.
  std::optional<std::string> rotated();

  // What the player is told when the server refuses `name` on server
  // ("HOST:PORT"): whose the name is, and what to do about its secret.
  std::string refusal_text(const std::string& name, const std::string& server) const;

 private:
  // The server made the secret (an older server) and sent it in Welcome.
  std::optional<std::string> keep_made(const wire::Welcome& welcome);
  void say(const std::string& line);

  Terminal& terminal_;
  std::string path_;  // where the secret is kept; empty = nowhere
  std::optional<PlayerSecret> secret_;
};

}  // namespace ttt::client
