// ChildProcess: a real program run by a test, its stdin a pipe and its stdout
// and stderr read back together. Every wait is bounded; the destructor kills
// and reaps the process, so no test leaves one behind, even on failure.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ttt::testing {

using namespace std::chrono_literals;

// The directory holding the built programs (ttt-server, ttt-client, ttt-bot).
std::string bin_dir();

class ChildProcess {
 public:
  // Starts argv[0] (a path) with argv in directory cwd (empty: ours); env
  // entries ("NAME=value") are added to the environment, replacing any
  // inherited value of the same name. Throws
  // std::runtime_error if it can't start.
  explicit ChildProcess(std::vector<std::string> argv, std::vector<std::string> env = {},
                        const std::string& cwd = "");
  ~ChildProcess();

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }

  // Writes to the program's stdin; false once it is closed.
  bool write(std::string_view text);
  void close_stdin();

  // Reads output until pred holds for everything read so far, or timeout.
  bool wait_for(const std::function<bool(const std::string&)>& pred,
                std::chrono::milliseconds timeout);
  // Reads output until it contains text (found after `from`), or timeout.
  bool wait_for_text(std::string_view text, std::chrono::milliseconds timeout,
                     std::size_t from = 0);

  // Everything read from stdout and stderr so far.
  const std::string& output() const noexcept { return output_; }

  // Waits for the program to exit, reading its output; the exit code, or
  // 128 + signal, or nullopt on timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);

  // Sends a signal (SIGKILL by default) and reaps the process.
  void kill(int signal_number = 9);

 private:
  // Reads what is available within wait; false at end of output.
  bool pump(std::chrono::milliseconds wait);
  bool reap(bool block);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int output_fd_ = -1;
  std::string output_;
  std::optional<int> exit_code_;
};

// A fresh empty directory under the test temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

// ttt-server on 127.0.0.1 and a free port, started from the built binary in
// a fresh directory of its own, which is also its XDG_STATE_HOME: whatever it
// writes there (the default database, its TLS key and certificate) is its own
// and goes away with it. Its port and fingerprint are registered for the
// clients the test starts (loopback_trust.hpp).
class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> extra_args = {}, std::uint16_t port = 0);
  ~ServerProcess();
  std::uint16_t port() const noexcept { return port_; }
  // "SHA256:..." of its certificate; empty with --no-tls.
  const std::string& fingerprint() const noexcept { return fingerprint_; }
  const std::string& dir() const noexcept { return dir_.path(); }
  ChildProcess& process() noexcept { return process_; }

 private:
  TempDir dir_;
  ChildProcess process_;
  std::uint16_t port_ = 0;
  std::string fingerprint_;
};

// Runs a command to completion (bounded); its exit code and output.
struct CommandResult {
  int exit_code = -1;
  std::string output;
};
CommandResult run_command(std::vector<std::string> argv, std::chrono::milliseconds timeout = 10s);

}  // namespace ttt::testing
