#include "trust/known_servers.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "ttt/tls/fingerprint.hpp"

namespace ttt::client {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeader =
    "# Servers ttt-client and ttt-bot trusted on first use: HOST:PORT FINGERPRINT.\n"
    "# Delete a line to be asked again about that server.\n";

// The file's lines (none if there is no file); false with the reason in
// error if it is there but can't be read.
bool read_lines(const std::string& path, std::vector<std::string>& lines, std::string& error) {
  lines.clear();
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (!fs::exists(path, ec) && !ec) return true;
    error = path + ": cannot read it: " + std::strerror(errno);
    return false;
  }
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (in.bad()) {
    error = path + ": cannot read it";
    return false;
  }
  return true;
}

bool blank_or_comment(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  return first == std::string::npos || line[first] == '#';
}

// The key and fingerprint of a line, or false for a comment or blank line.
bool split(const std::string& line, std::string& key, std::string& fingerprint) {
  if (blank_or_comment(line)) return false;
  std::istringstream fields(line);
  return static_cast<bool>(fields >> key >> fingerprint);
}

// A line of the file as it may be quoted in a message: printable ASCII,
// anything else as '?', cut at 60 characters.
std::string shown(const std::string& line) {
  std::string out;
  for (const char c : line.substr(0, 60)) {
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return "'" + out + (line.size() > 60 ? "...'" : "'");
}

// Why a line that is neither blank nor a comment can't be read; empty if
// it can: "HOST:PORT SHA256:..." and nothing more.
std::string line_problem(const std::string& line) {
  std::istringstream fields(line);
  std::string key, fingerprint, extra;
  fields >> key >> fingerprint >> extra;
  if (fingerprint.empty() || !extra.empty()) return "is not 'HOST:PORT SHA256:...'";
  const auto colon = key.rfind(':');
  const std::string port = colon == std::string::npos ? "" : key.substr(colon + 1);
  if (colon == 0 || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535) {
    return "does not start with HOST:PORT";
  }
  const auto canonical = tls::parse_fingerprint(fingerprint);
  if (!canonical || *canonical != fingerprint) return "has no SHA256:... fingerprint";
  return "";
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string default_known_servers_path() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] != '\0') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = fs::path(home) / ".config";
  } else {
    return "";
  }
  return (base / "ttt" / "known_servers").string();
}

std::string server_key(const std::string& host, std::uint16_t port) {
  const bool v6 = host.find(':') != std::string::npos && host.front() != '[';
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

KnownServers::Lookup KnownServers::find(const std::string& host, std::uint16_t port) const {
  const std::string wanted = server_key(host, port);
  std::vector<std::string> lines;
  Lookup found;
  if (!read_lines(path_, lines, found.error)) return found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank_or_comment(lines[i])) continue;
    const std::string number = std::to_string(i + 1);
    if (const std::string problem = line_problem(lines[i]); !problem.empty()) {
      // The file says whom to trust: a line that can't be read is not
      // skipped, lest it was the one for this server.
      found.error = path_ + ", line " + number + ": " + shown(lines[i]) + " " + problem +
                    " (fix the line, or delete it: sed -i '" + number + "d' " + path_ + ")";
      return found;
    }
    std::string key, fingerprint;
    if (split(lines[i], key, fingerprint) && key == wanted && !found.entry) {
      found.entry = Entry{fingerprint, static_cast<int>(i + 1)};
    }
  }
  return found;
}

bool KnownServers::remember(const std::string& host, std::uint16_t port,
                            const std::string& fingerprint, std::string& error) const {
  if (path_.empty()) {
    error = "no folder for known_servers (neither XDG_CONFIG_HOME nor HOME is set)";
    return false;
  }
  const fs::path folder = fs::path(path_).parent_path();
  std::error_code ec;
  if (!folder.empty()) {
    fs::create_directories(folder, ec);
    fs::permissions(folder, fs::perms::owner_all, ec);
  }
  const std::string wanted = server_key(host, port);
  std::string text;
  bool header = false;
  std::vector<std::string> lines;
  if (!read_lines(path_, lines, error)) return false;  // never replaced unread
  for (const std::string& line : lines) {
    std::string key, old;
    if (split(line, key, old) && key == wanted) continue;
    header = header || line.rfind("# Servers ttt-client", 0) == 0;
    text += line + "\n";
  }
  if (!header) text = kHeader + text;
  text += wanted + " " + fingerprint + "\n";
  const std::string temporary = path_ + ".new";
  ::unlink(temporary.c_str());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = temporary + ": " + std::strerror(errno);
    return false;
  }
  const bool written = write_all(fd, text) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), path_.c_str()) != 0) {
    error = path_ + ": " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace ttt::client
