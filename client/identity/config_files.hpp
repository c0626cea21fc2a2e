// Where the clients keep a player's files between runs: under the user's
// config folder ($XDG_CONFIG_HOME/ttt/, ~/.config/ttt/ by default), one file
// per server and name in a folder per kind (tokens/, secrets/, locks/), the
// folders nobody else's.
#pragma once

#include <cstdint>
#include <string>

namespace ttt::client {

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

// Creates folder and any missing parents, each new one mode 0700 (the files
// beside a name's secret are nobody else's business), and makes ttt's own
// config folders (ttt/, ttt/secrets/, ...) 0700 even if they exist; false
// with a reason in error if it can't.
bool make_private_folders(const std::string& folder, std::string& error);

}  // namespace ttt::client
