#include "identity/config_files.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ttt::client {
namespace {

std::string safe_part(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '-' || c == '_';
    out += plain ? c : '_';
  }
  return out.empty() ? "_" : out;
}

}  // namespace

std::string config_file_path(const std::string& folder, const std::string& host, std::uint16_t port,
                             const std::string& name) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = std::filesystem::path(home) / ".config";
  } else {
    return "";
  }
  return (base / "ttt" / folder /
          (safe_part(host) + "-" + std::to_string(port) + "-" + safe_part(name)))
      .string();
}

std::string default_token_path(const std::string& host, std::uint16_t port,
                               const std::string& name) {
  return config_file_path("tokens", host, port, name);
}

std::string default_secret_path(const std::string& host, std::uint16_t port,
                                const std::string& name) {
  return config_file_path("secrets", host, port, name);
}

bool make_private_folders(const std::string& folder, std::string& error) {
  std::filesystem::path partial;
  for (const auto& part : std::filesystem::path(folder)) {
    partial /= part;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      error = partial.string() + ": " + std::strerror(errno);
      return false;
    }
  }
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    error = folder + ": not a folder";
    return false;
  }
  // A folder of ttt's own under the config dir (ttt/, ttt/secrets/, ...) is
  // made owner-only even if it was there before.
  const std::filesystem::path leaf(folder);
  if (leaf.filename() == "ttt" || leaf.parent_path().filename() == "ttt") {
    ::chmod(leaf.c_str(), 0700);
    if (leaf.parent_path().filename() == "ttt") ::chmod(leaf.parent_path().c_str(), 0700);
  }
  return true;
}

}  // namespace ttt::client
