// Where ttt-server keeps its database unless --db says otherwise, and a new
// database file that is nobody else's to read: it holds every player's
// hashed secret.
#pragma once

#include <string>

namespace ttt::server {

// $XDG_STATE_HOME/ttt/ttt.db, where XDG_STATE_HOME (if not an absolute path)
// defaults to ~/.local/state. Empty, with why in error, when neither
// XDG_STATE_HOME nor HOME is set.
std::string default_db_path(std::string& error);

// Readies path for SQLite to open. make_folders (the default location):
// creates the missing folders mode 0700 and keeps ttt's own folder (the
// file's) at 0700. Creates the file mode 0600 if it is missing; SQLite gives
// its -wal and -shm files the same mode. An existing file is left as it is.
// false with a reason in error if it can't.
bool prepare_db_file(const std::string& path, bool make_folders, std::string& error);

}  // namespace ttt::server
