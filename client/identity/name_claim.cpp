#include "identity/name_claim.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "identity/config_files.hpp"

namespace ttt::client {
namespace {

constexpr int kMaxDefaultNames = 10'000;

// The same file as path still, or was it removed (a claim released) between
// our open and our lock? Then the lock we hold guards nothing.
bool still_linked(int fd, const std::string& path) {
  struct stat held {};
  struct stat named {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

}  // namespace

std::string login_name() {
  if (const char* user = std::getenv("USER"); user != nullptr && user[0] != '\0') return user;
  if (const char* login = ::getlogin(); login != nullptr && login[0] != '\0') return login;
  return "player";
}

std::string bot_name_base(const std::string& login) {
  // Room in the server's 32 bytes for "-bot", a default name's number and
  // --count's "-N".
  constexpr std::size_t kLoginBytes = 16;
  std::string base;
  for (const char c : login) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) != 0 && (c & 0x80) == 0;
    if ((plain || c == '.' || c == '_' || c == '-') && base.size() < kLoginBytes) base += c;
  }
  return (base.empty() ? std::string("player") : base) + "-bot";
}

std::unique_ptr<NameClaim> NameClaim::try_claim(const std::string& lock_path, std::string& error) {
  error.clear();
  const std::string folder = std::filesystem::path(lock_path).parent_path().string();
  if (!folder.empty() && !make_private_folders(folder, error)) return nullptr;
  for (;;) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      error = lock_path + ": " + std::strerror(errno);
      return nullptr;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int why = errno;
      ::close(fd);
      if (why != EWOULDBLOCK) error = lock_path + ": " + std::strerror(why);
      return nullptr;  // held by another process, or by another claim of ours
    }
    if (still_linked(fd, lock_path))
      return std::unique_ptr<NameClaim>(new NameClaim(fd, lock_path));
    ::close(fd);  // its holder released it and removed the file meanwhile: try the new one
  }
}

NameClaim::~NameClaim() {
  // Removed while still locked, so that nobody locks a file on its way out.
  ::unlink(path_.c_str());
  ::close(fd_);
}

std::string name_lock_path(const std::string& host, std::uint16_t port, const std::string& name) {
  return config_file_path("locks", host, port, name);
}

std::string default_name(const std::string& base, int n) {
  return n <= 1 ? base : base + std::to_string(n);
}

ClaimedName claim_default_name(const std::string& host, std::uint16_t port, const std::string& base,
                               std::string& warning) {
  warning.clear();
  if (name_lock_path(host, port, base).empty()) {
    warning = "no config dir (set HOME or XDG_CONFIG_HOME) to keep names in";
  } else {
    for (int n = 1; n <= kMaxDefaultNames; ++n) {
      const std::string name = default_name(base, n);
      std::string error;
      if (auto claim = NameClaim::try_claim(name_lock_path(host, port, name), error)) {
        return {name, std::move(claim)};
      }
      if (!error.empty()) {
        warning = error;
        break;
      }
    }
    if (warning.empty()) {
      warning = "the first " + std::to_string(kMaxDefaultNames) + " names are all in use";
    }
  }
  return {base + "-p" + std::to_string(::getpid()), nullptr};
}

std::unique_ptr<NameClaim> claim_if_free(const std::string& host, std::uint16_t port,
                                         const std::string& name) {
  const std::string path = name_lock_path(host, port, name);
  std::string ignored;
  return path.empty() ? nullptr : NameClaim::try_claim(path, ignored);
}

ClaimedName claim_name(const std::string& host, std::uint16_t port, const std::string& given,
                       const std::string& base, std::string& warning) {
  warning.clear();
  if (given.empty()) return claim_default_name(host, port, base, warning);
  return {given, claim_if_free(host, port, given)};
}

}  // namespace ttt::client
