#include "identity/token_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ttt::client {
namespace {

constexpr int kSlots = 8;
constexpr std::size_t kMaxTokenBytes = 256;

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

std::unique_ptr<TokenFile> TokenFile::open(const std::string& path, std::string& error) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (!folder.empty() && !make_private_folders(folder, error)) return nullptr;
  for (int slot = 1; slot <= kSlots; ++slot) {
    const std::string candidate = slot == 1 ? path : path + "." + std::to_string(slot);
    const int fd = ::open(candidate.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      error = candidate + ": " + std::strerror(errno);
      return nullptr;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      return std::unique_ptr<TokenFile>(new TokenFile(fd, candidate));
    }
    ::close(fd);  // another client of this player holds it
  }
  error = path + ": all " + std::to_string(kSlots) + " slots are in use by other clients";
  return nullptr;
}

TokenFile::~TokenFile() { ::close(fd_); }

std::string TokenFile::read() const {
  char buffer[kMaxTokenBytes];
  const ssize_t n = ::pread(fd_, buffer, sizeof buffer, 0);
  if (n <= 0) return "";
  std::string token(buffer, static_cast<std::size_t>(n));
  while (!token.empty() && (token.back() == '\n' || token.back() == ' ')) token.pop_back();
  return token;
}

bool TokenFile::write(const std::string& token) {
  if (::ftruncate(fd_, 0) != 0) return false;
  if (token.empty()) return true;
  const std::string line = token + "\n";
  const ssize_t n = ::pwrite(fd_, line.data(), line.size(), 0);
  return n == static_cast<ssize_t>(line.size()) && ::fdatasync(fd_) == 0;
}

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

std::string read_secret(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[kMaxTokenBytes];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  if (n <= 0) return "";
  std::string secret(buffer, static_cast<std::size_t>(n));
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == ' ')) secret.pop_back();
  return secret;
}

bool save_secret(const std::string& path, const std::string& secret, std::string& error) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (!folder.empty() && !make_private_folders(folder, error)) return false;
  // A file no other process can be writing (mkostemp opens it O_EXCL, mode
  // 0600), then renamed over the secret in one step.
  std::string temporary = path + ".XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) {
    error = temporary + ": " + std::strerror(errno);
    return false;
  }
  const std::string line = secret + "\n";
  errno = EIO;  // what a short write means
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                       ::fsync(fd) == 0;
  const int write_errno = errno;
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
    error = path + ": " + std::strerror(written ? errno : write_errno);
    ::unlink(temporary.c_str());
    return false;
  }
  return true;
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
