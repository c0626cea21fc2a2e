#include "identity/player_secret.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "identity/config_files.hpp"

namespace ttt::client {
namespace {

// A secret file holds one line; more than this is not one.
constexpr std::size_t kMaxSecretBytes = 256;

}  // namespace

std::string new_secret() {
  unsigned char bytes[32];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("no random source: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string secret;
  for (unsigned char b : bytes) {
    secret += kHex[b >> 4];
    secret += kHex[b & 15];
  }
  return secret;
}

std::string read_secret(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[kMaxSecretBytes];
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

PlayerSecret::PlayerSecret(std::string path) : path_(std::move(path)) {}

bool PlayerSecret::load_or_make(std::string& error) {
  if (!path_.empty()) {
    current_ = read_secret(path_);
    pending_ = read_secret(pending_path());
  }
  if (!current_.empty()) return true;
  if (!pending_.empty()) {
    // Only a rotation's file survived: that secret is the one to try.
    current_ = std::exchange(pending_, "");
    return true;
  }
  current_ = new_secret();
  made_now_ = true;
  if (path_.empty()) {
    error = "there is nowhere to keep it (set HOME or XDG_CONFIG_HOME)";
    return false;
  }
  return save_secret(path_, current_, error);
}

bool PlayerSecret::adopt(const std::string& secret, std::string& error) {
  current_ = secret;
  made_now_ = false;
  if (path_.empty()) {
    error = "there is nowhere to keep it (set HOME or XDG_CONFIG_HOME)";
    return false;
  }
  return save_secret(path_, secret, error);
}

std::string PlayerSecret::begin_rotation(std::string& error) {
  if (path_.empty()) {
    error = "there is nowhere to keep a secret (set HOME or XDG_CONFIG_HOME)";
    return "";
  }
  std::string next = new_secret();
  if (!save_secret(pending_path(), next, error)) return "";
  pending_ = next;
  return next;
}

bool PlayerSecret::finish_rotation(std::string& error) {
  if (pending_.empty()) return true;
  current_ = std::exchange(pending_, "");
  made_now_ = false;
  if (path_.empty()) return true;
  if (!save_secret(path_, current_, error)) return false;
  ::unlink(pending_path().c_str());
  return true;
}

void PlayerSecret::forget_made() {
  if (!made_now_) return;
  if (!path_.empty() && read_secret(path_) == current_) ::unlink(path_.c_str());
  current_.clear();
  made_now_ = false;
}

}  // namespace ttt::client
