// KnownServers: the servers a user has trusted on first use, as SSH's
// known_hosts: one line per server, "HOST:PORT SHA256:..." (an IPv6 address
// in brackets), in $XDG_CONFIG_HOME/ttt/known_servers (~/.config/ttt/). The
// file is 0600 in a 0700 folder; lines starting with '#' are comments. A line
// that is neither is an error naming the file and the line: what it says
// can't be guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ttt::client {

// The default file: $XDG_CONFIG_HOME/ttt/known_servers, XDG_CONFIG_HOME
// defaulting to ~/.config. Empty if neither variable is set.
std::string default_known_servers_path();

// How a server is named in the file: "host:port", "[v6 address]:port".
std::string server_key(const std::string& host, std::uint16_t port);

class KnownServers {
 public:
  explicit KnownServers(std::string path) : path_(std::move(path)) {}

  struct Entry {
    std::string fingerprint;
    int line = 0;  // from 1, for messages
  };
  struct Lookup {
    std::optional<Entry> entry;  // none if the server is not in the file (or no file)
    std::string error;           // a line that can't be read: "FILE, line N: ..."; then no entry
  };
  // The fingerprint trusted for host:port, read from the file now.
  Lookup find(const std::string& host, std::uint16_t port) const;

  // Trusts fingerprint for host:port from now on, replacing an older entry.
  // Makes the folder (0700) and the file (0600) if needed; the file is
  // replaced whole. False with a reason naming the file in error if it can't.
  bool remember(const std::string& host, std::uint16_t port, const std::string& fingerprint,
                std::string& error) const;

  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace ttt::client
