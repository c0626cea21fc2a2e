#include "identity/token_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "identity/config_files.hpp"

namespace ttt::client {
namespace {

constexpr int kSlots = 8;
constexpr std::size_t kMaxTokenBytes = 256;

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

}  // namespace ttt::client
