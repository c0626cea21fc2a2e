#include "store/db_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ttt::server {
namespace {

std::string reason(const std::string& path) { return path + ": " + std::strerror(errno); }

}  // namespace

std::string default_db_path(std::string& error) {
  std::filesystem::path state;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && xdg[0] == '/') {
    state = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    state = std::filesystem::path(home) / ".local" / "state";
  } else {
    error =
        "no place for the default database: neither XDG_STATE_HOME nor HOME is set "
        "(choose one with --db PATH)";
    return "";
  }
  return (state / "ttt" / "ttt.db").string();
}

bool prepare_db_file(const std::string& path, bool make_folders, std::string& error) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (make_folders && !folder.empty()) {
    std::filesystem::path partial;
    for (const auto& part : folder) {
      partial /= part;
      if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
        error = reason(partial.string());
        return false;
      }
    }
    if (::chmod(folder.c_str(), 0700) != 0) {
      error = reason(folder.string());
      return false;
    }
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = reason(path);
    return false;
  }
  ::close(fd);
  return true;
}

}  // namespace ttt::server
