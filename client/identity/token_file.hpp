// TokenFile: where ttt-client keeps its resume token between runs, so that a
// client killed mid-game takes its seat back when it is started again. A
// running client holds an exclusive lock on its file; a second client of the
// same player on the same account finds it locked and uses the next free slot
// (PATH.2, PATH.3, ...), so two terminals never steal each other's seat. The
// lock dies with the process, however it ends.
#pragma once

#include <memory>
#include <string>

namespace ttt::client {

class TokenFile {
 public:
  // Opens (creating it and its folder, mode 0600) and locks path, or the
  // first free slot after it; nullptr if none can be used (why goes to error).
  static std::unique_ptr<TokenFile> open(const std::string& path, std::string& error);
  ~TokenFile();

  TokenFile(const TokenFile&) = delete;
  TokenFile& operator=(const TokenFile&) = delete;

  // The saved token, or "" if there is none.
  std::string read() const;
  // Replaces the saved token; false if the file can't be written.
  bool write(const std::string& token);
  // Forgets the saved token.
  void clear() { write(""); }

  const std::string& path() const noexcept { return path_; }

 private:
  TokenFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd_;
  std::string path_;
};

}  // namespace ttt::client
