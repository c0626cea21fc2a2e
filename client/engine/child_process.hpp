// ChildProcess: another program run through `/bin/sh -c COMMAND`, talked to
// by lines over pipes: its stdin and stdout are ours, and the last lines of
// its stderr are kept to explain a failure. Every read and write has a
// deadline (poll), a line has a length limit, and the process runs in a
// process group of its own that the destructor kills (SIGKILL) and reaps: no
// child outlives its object, however it ends, and nothing waits forever.
//
// One thread at a time may use an object. A write to a process that has gone
// raises no SIGPIPE.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ttt::client {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // The longest line read; the rest of a longer line is dropped and the read
  // reports it.
  static constexpr std::size_t kMaxLine = 4096;

  // Starts `command` (shell syntax: arguments, quotes, `cd DIR && ./x`; a
  // simple command is exec'd by the shell, so the process is the program
  // itself) in a new process group, its stdin and stdout pipes, its stderr kept, SIGPIPE
  // and the signal mask at their defaults. nullptr with the reason in error
  // when the shell can't be started (a command that does not exist starts
  // the shell, which exits 127 and says so on stderr).
  static std::unique_ptr<ChildProcess> start(const std::string& command, std::string& error);

  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }

  // What a read found.
  enum class ReadStatus {
    Line,     // a line (CR, LF or CR LF ended; empty lines are skipped)
    TooLong,  // a line over kMaxLine: its first kMaxLine bytes are in the result
    Timeout,  // nothing complete by the deadline
    Closed,   // the process closed its stdout (it exited, most likely)
  };
  struct ReadResult {
    ReadStatus status;
    std::string line;
  };

  // The next non-empty line of the process's stdout, waiting until deadline
  // at most.
  ReadResult read_line(Clock::time_point deadline);

  // Writes text and a CR LF; false if the process does not take it by the
  // deadline or has closed its stdin.
  bool write_line(std::string_view text, Clock::time_point deadline);

  // Closes the process's stdin (end of input), waits up to `grace` for it to
  // exit on its own, then kills its process group; always reaps it.
  void stop(std::chrono::milliseconds grace);

  // Kills the process group at once and reaps the process.
  void kill();

  // True once the process has exited and been reaped (reaps it if it has).
  bool exited();

  // Waits until the process exits (reading its stderr meanwhile) or the
  // deadline; true if it has exited.
  bool wait_exit(Clock::time_point deadline);

  // How the process ended, once it has: "exited with code 3", "was killed by
  // signal 11 (Segmentation fault)"; empty while it runs.
  std::string exit_text() const;

  // The last lines the process wrote to stderr (at most a few, each cut to
  // 200 bytes, control characters shown as '?'), joined by " / "; empty if
  // none.
  std::string stderr_tail() const;

 private:
  ChildProcess(pid_t pid, int in_fd, int out_fd, int err_fd);

  // Waits for output on stdout or stderr until deadline; reads what came.
  // False once stdout is closed and nothing is buffered.
  bool fill(Clock::time_point deadline);
  void drain_stderr();
  void close_fds();
  // Reaps the process if it has exited; block waits for it.
  bool reap(bool block);

  pid_t pid_ = -1;
  int in_fd_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_buffer_;
  std::string err_partial_;
  std::deque<std::string> err_lines_;
  bool dropping_ = false;  // inside the rest of an over-long line
  bool group_killed_ = false;
  std::optional<int> status_;  // waitpid status once reaped
};

}  // namespace ttt::client
