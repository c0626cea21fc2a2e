// PlayerSecret: the secret that owns a player's name on one server, as
// ttt-client and ttt-bot keep it in the name's secret file. The client makes
// the secret itself, saves it, and only then sends it in the Hello that
// registers the name: a Welcome lost on the way loses nothing, since the
// next Hello carries the same secret. A rotation (/secret rotate, ttt-bot
// --rotate-secret) saves the new secret beside the file (PATH.next) before
// asking the server, and makes it the file's once the server has stored it;
// if the answer is lost, the next connection tries the old secret, then the
// new one, and keeps whichever the server took.
#pragma once

#include <string>

namespace ttt::client {

// The secret saved in path, or "" if there is none.
std::string read_secret(const std::string& path);

// Saves a secret (mode 0600, replacing the file whole); false with a reason
// in error if it can't. It is written to a fresh file of its own (O_EXCL) and
// renamed over path, so programs saving at once never mix their bytes and a
// crash leaves the old secret or the new one, never half of one.
bool save_secret(const std::string& path, const std::string& secret, std::string& error);

// A new secret: 64 hex digits (256 bits) from the operating system's
// cryptographic generator. Throws std::runtime_error if there is none.
std::string new_secret();

class PlayerSecret {
 public:
  // path: the secret file; empty when there is nowhere to keep it (the
  // secret then lives for this run only).
  explicit PlayerSecret(std::string path);

  // Reads the saved secret (and a rotation not yet confirmed), or makes and
  // saves a new one when the file has none. False, with a reason in error,
  // when a new secret could not be saved; it is still used for this run.
  bool load_or_make(std::string& error);

  const std::string& path() const noexcept { return path_; }
  const std::string& current() const noexcept { return current_; }
  // The secret of a rotation the server has not confirmed, or "".
  const std::string& pending() const noexcept { return pending_; }
  // The secret was made in this run, for a name not used here before.
  bool made_now() const noexcept { return made_now_; }

  // An older server made the secret and sent it in Welcome: keep it.
  bool adopt(const std::string& secret, std::string& error);

  // Starts a rotation: a new secret, saved as pending; "" (with a reason in
  // error) if it can't be saved, and then the server must not be asked.
  std::string begin_rotation(std::string& error);
  // The server stored the pending secret (or took it at Hello): it is the
  // name's secret from now on.
  bool finish_rotation(std::string& error);

  // The server took the secret made in this run for a new name.
  void registered() noexcept { made_now_ = false; }

  // The server refused the name: a secret made in this run owns nothing,
  // and its file goes.
  void forget_made();

 private:
  std::string pending_path() const { return path_ + ".next"; }

  std::string path_;
  std::string current_;
  std::string pending_;
  bool made_now_ = false;
};

}  // namespace ttt::client
