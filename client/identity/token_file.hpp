// Where the clients keep what identifies their player between runs: the
// resume token (TokenFile) and the secret that owns the player's name.
//
// TokenFile: where ttt-client keeps its resume token between runs, so that a
// client killed mid-game takes its seat back when it is started again. A
// running client holds an exclusive lock on its file; a second client of the
// same player on the same account finds it locked and uses the next free slot
// (PATH.2, PATH.3, ...), so two terminals never steal each other's seat. The
// lock dies with the process, however it ends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ttt::client {

class TokenFile {
 public:
  // Opens (creating it and its folder, mode 0600) and locks path, or the
  // first free slot after it; nullptr if none can be used (why goes to error).
  static std::unique_ptr<TokenFile> open(const std::string& path, std::string& error);
  ~TokenFile();

  TokenFile(const TokenFile&) = delete;
  TokenFile& operator=(const TokenFile&) = delete;

  // The saved token, or "" if there is none.
  std::string read() const;
  // Replaces the saved token; false if the file can't be written.
  bool write(const std::string& token);
  // Forgets the saved token.
  void clear() { write(""); }

  const std::string& path() const noexcept { return path_; }

 private:
  TokenFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd_;
  std::string path_;
};

// A file of a player on a server under the user's config dir:
// $XDG_CONFIG_HOME/ttt/FOLDER/HOST-PORT-NAME (XDG_CONFIG_HOME defaults to
// ~/.config), with characters other than letters, digits, '.', '-' and '_'
// replaced by '_'. Empty if neither XDG_CONFIG_HOME nor HOME is set.
std::string config_file_path(const std::string& folder, const std::string& host, std::uint16_t port,
                             const std::string& name);

// The default token file: config_file_path("tokens", ...).
std::string default_token_path(const std::string& host, std::uint16_t port,
                               const std::string& name);

// The default file of the secret that owns a name on a server:
// config_file_path("secrets", ...).
std::string default_secret_path(const std::string& host, std::uint16_t port,
                                const std::string& name);

// The secret saved in path, or "" if there is none.
std::string read_secret(const std::string& path);

// Saves a secret (mode 0600, replacing the file whole); false with a reason
// in error if it can't. It is written to a fresh file of its own (O_EXCL) and
// renamed over path, so programs saving at once never mix their bytes and a
// crash leaves the old secret or the new one, never half of one.
bool save_secret(const std::string& path, const std::string& secret, std::string& error);

// Creates folder and any missing parents, each new one mode 0700 (the files
// beside a name's secret are nobody else's business), and makes ttt's own
// config folders (ttt/, ttt/secrets/, ...) 0700 even if they exist; false
// with a reason in error if it can't.
bool make_private_folders(const std::string& folder, std::string& error);

}  // namespace ttt::client
