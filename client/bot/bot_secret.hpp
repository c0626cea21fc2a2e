// BotSecret: the secret that owns a bot's name on the server, as ttt-bot
// keeps it (identity/player_secret.hpp): made and saved before the first
// Hello, taken from an older server that makes it, finished when a
// rotation's answer was lost, and replaced once with --rotate-secret.
// Warnings go to the log; errors come back for the bot to count.
#pragma once

#include <optional>
#include <string>

#include "identity/player_secret.hpp"
#include "link/connection.hpp"

namespace ttt::client {

class BotSecret {
 public:
  // label names the bot in its log; path is where the secret is kept
  // (empty: nowhere); rotate: replace it once connected.
  BotSecret(std::string label, std::string path, bool rotate);

  // Before the first Hello: the secret (and a rotation not yet confirmed)
  // into options.
  void load(ConnectionOptions& options);

  // After a Welcome, whose Hello carried secret_sent: the secret the
  // connection says from now on when it changes (an older server made
  // one), else nullopt.
  std::optional<std::string> welcomed(const wire::Welcome& welcome, const std::string& secret_sent);

  // With --rotate-secret, once: the new secret to offer the server; nullopt
  // when there is none to offer, or (with error) when it can't be kept.
  std::optional<std::string> rotation(std::string& error);

  // The server stored the new secret: the one to say from now on, or
  // nullopt with error when it could not be kept.
  std::optional<std::string> rotated(std::string& error);

  // The server refused the name: a secret made for it owns nothing.
  void name_taken() { secret_.forget_made(); }

  // What ttt-bot says when the server refuses `name` on server ("HOST:PORT").
  std::string refusal_text(const std::string& name, const std::string& server) const;

 private:
  std::string label_;
  PlayerSecret secret_;
  bool rotate_;
  bool rotated_ = false;  // --rotate-secret was acted on
};

}  // namespace ttt::client
