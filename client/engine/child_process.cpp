#include "engine/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace ttt::client {
namespace {

using std::chrono::milliseconds;

constexpr std::size_t kStderrLines = 4;
constexpr std::size_t kStderrLineBytes = 200;

// Milliseconds from now to deadline for poll: at least 0, rounded up.
int poll_timeout(ChildProcess::Clock::time_point deadline) {
  const auto left = deadline - ChildProcess::Clock::now();
  if (left <= ChildProcess::Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<milliseconds>(left).count();
  return static_cast<int>(std::min<long long>(ms, 60'000));
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// SIGPIPE blocked on this thread while it lives; one raised meanwhile by a
// write to a closed pipe is taken back before the old mask returns.
class SigpipeGuard {
 public:
  SigpipeGuard() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeGuard() {
    if (!was_pending_) {
      timespec zero{};
      while (sigtimedwait(&pipe_, nullptr, &zero) == SIGPIPE) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  sigset_t pipe_{};
  sigset_t old_{};
  bool was_pending_ = false;
};

struct Pipe {
  int read = -1;
  int write = -1;
  bool open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void close_both() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
    read = write = -1;
  }
};

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::string& command, std::string& error) {
  std::array<Pipe, 3> pipes;  // stdin, stdout, stderr
  for (Pipe& p : pipes) {
    if (!p.open()) {
      error = std::string("could not make a pipe: ") + std::strerror(errno);
      for (Pipe& q : pipes) q.close_both();
      return nullptr;
    }
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipes[0].read, 0);
  posix_spawn_file_actions_adddup2(&actions, pipes[1].write, 1);
  posix_spawn_file_actions_adddup2(&actions, pipes[2].write, 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attributes, &defaults);

  std::string shell = "sh";
  std::string dash_c = "-c";
  // A simple command replaces the shell, so that its exit status and signals
  // are the program's own; anything with shell operators runs as written.
  const bool simple = command.find_first_of(";&|()`<>\n") == std::string::npos &&
                      command.find("$(") == std::string::npos;
  std::string text = simple ? "exec " + command : command;
  char* argv[] = {shell.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(pipes[0].read);
  ::close(pipes[1].write);
  ::close(pipes[2].write);
  if (spawned != 0) {
    error = std::string("could not start /bin/sh: ") + std::strerror(spawned);
    ::close(pipes[0].write);
    ::close(pipes[1].read);
    ::close(pipes[2].read);
    return nullptr;
  }
  for (int fd : {pipes[0].write, pipes[1].read, pipes[2].read}) set_nonblocking(fd);
  return std::unique_ptr<ChildProcess>(
      new ChildProcess(pid, pipes[0].write, pipes[1].read, pipes[2].read));
}

ChildProcess::ChildProcess(pid_t pid, int in_fd, int out_fd, int err_fd)
    : pid_(pid), in_fd_(in_fd), out_fd_(out_fd), err_fd_(err_fd) {}

ChildProcess::~ChildProcess() {
  kill();
  close_fds();
}

void ChildProcess::close_fds() {
  for (int* fd : {&in_fd_, &out_fd_, &err_fd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

// --- reading ------------------------------------------------------------------

ChildProcess::ReadResult ChildProcess::read_line(Clock::time_point deadline) {
  for (;;) {
    const std::size_t end = out_buffer_.find_first_of("\r\n");
    if (end != std::string::npos) {
      std::string line = out_buffer_.substr(0, end);
      out_buffer_.erase(0, end + 1);
      if (dropping_) {  // the tail of an over-long line
        dropping_ = false;
        continue;
      }
      if (line.empty()) continue;
      if (line.size() > kMaxLine) {
        line.resize(kMaxLine);
        return {ReadStatus::TooLong, std::move(line)};
      }
      return {ReadStatus::Line, std::move(line)};
    }
    if (out_buffer_.size() > kMaxLine) {
      std::string line = out_buffer_.substr(0, kMaxLine);
      out_buffer_.clear();
      const bool was_dropping = dropping_;
      dropping_ = true;
      if (!was_dropping) return {ReadStatus::TooLong, std::move(line)};
      continue;
    }
    if (out_fd_ < 0) {
      // The last line may lack its end.
      if (!out_buffer_.empty() && !dropping_) {
        std::string line = std::move(out_buffer_);
        out_buffer_.clear();
        return {ReadStatus::Line, std::move(line)};
      }
      return {ReadStatus::Closed, {}};
    }
    if (Clock::now() >= deadline) return {ReadStatus::Timeout, {}};
    fill(deadline);
  }
}

bool ChildProcess::fill(Clock::time_point deadline) {
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  const int ready = ::poll(fds, 2, poll_timeout(deadline));
  if (ready < 0 && errno != EINTR) return false;
  if (ready <= 0) return true;
  if (fds[1].revents != 0) drain_stderr();
  if (fds[0].revents != 0 && out_fd_ >= 0) {
    char buffer[8192];
    for (;;) {
      const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
      if (n > 0) {
        out_buffer_.append(buffer, static_cast<std::size_t>(n));
        if (out_buffer_.size() > 2 * kMaxLine + sizeof buffer) break;  // parse before more
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) break;
      ::close(out_fd_);  // end of output (or an error reading it)
      out_fd_ = -1;
      break;
    }
  }
  return out_fd_ >= 0 || !out_buffer_.empty();
}

void ChildProcess::drain_stderr() {
  if (err_fd_ < 0) return;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(err_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) {
      ::close(err_fd_);
      err_fd_ = -1;
      if (!err_partial_.empty()) err_lines_.push_back(std::move(err_partial_));
      err_partial_.clear();
      while (err_lines_.size() > kStderrLines) err_lines_.pop_front();
      return;
    }
    for (ssize_t i = 0; i < n; ++i) {
      const char c = buffer[i];
      if (c == '\n' || c == '\r') {
        if (!err_partial_.empty()) err_lines_.push_back(std::move(err_partial_));
        err_partial_.clear();
        if (err_lines_.size() > kStderrLines) err_lines_.pop_front();
      } else if (err_partial_.size() < kStderrLineBytes) {
        // It ends up on a terminal: no control characters.
        const auto byte = static_cast<unsigned char>(c);
        err_partial_ += byte < 0x20 || byte == 0x7f ? '?' : c;
      }
    }
  }
}

std::string ChildProcess::stderr_tail() const {
  std::string text;
  auto add = [&text](const std::string& line) {
    if (!text.empty()) text += " / ";
    text += line;
  };
  for (const std::string& line : err_lines_) add(line);
  if (!err_partial_.empty()) add(err_partial_);
  return text;
}

// --- writing ------------------------------------------------------------------

bool ChildProcess::write_line(std::string_view text, Clock::time_point deadline) {
  if (in_fd_ < 0) return false;
  std::string data(text);
  data += "\r\n";
  std::string_view rest = data;
  SigpipeGuard guard;
  while (!rest.empty()) {
    const ssize_t n = ::write(in_fd_, rest.data(), rest.size());
    if (n > 0) {
      rest.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd fd{in_fd_, POLLOUT, 0};
      if (::poll(&fd, 1, poll_timeout(deadline)) <= 0 && Clock::now() >= deadline) return false;
      drain_stderr();  // a process blocked writing errors can't read
      continue;
    }
    ::close(in_fd_);  // EPIPE: the process closed its stdin or exited
    in_fd_ = -1;
    return false;
  }
  return true;
}

// --- ending -------------------------------------------------------------------

bool ChildProcess::reap(bool block) {
  if (status_) return true;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return false;
  status_ = r == pid_ ? status : -1;  // -1: someone else reaped it
  return true;
}

bool ChildProcess::exited() { return reap(false); }

bool ChildProcess::wait_exit(Clock::time_point deadline) {
  while (!reap(false)) {
    if (Clock::now() >= deadline) return false;
    if (out_fd_ >= 0 || err_fd_ >= 0) {
      fill(std::min(deadline, Clock::now() + milliseconds(5)));
    } else {
      std::this_thread::sleep_for(milliseconds(2));
    }
  }
  drain_stderr();
  return true;
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (in_fd_ >= 0) ::close(in_fd_);
  in_fd_ = -1;
  const auto deadline = Clock::now() + grace;
  while (!reap(false) && Clock::now() < deadline) {
    // Keep reading, so that a process writing as it goes never blocks on us.
    if (out_fd_ >= 0 || err_fd_ >= 0) {
      fill(std::min(deadline, Clock::now() + milliseconds(10)));
      out_buffer_.clear();
    } else {
      std::this_thread::sleep_for(milliseconds(5));
    }
  }
  kill();
}

void ChildProcess::kill() {
  if (pid_ <= 0 || group_killed_) return;
  // The whole group, once: a shell's children too, even after the leader exited.
  group_killed_ = true;
  ::kill(-pid_, SIGKILL);
  if (!status_) reap(true);
}

std::string ChildProcess::exit_text() const {
  if (!status_) return "";
  const int status = *status_;
  if (status == -1) return "exited";
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = ::strsignal(signal);
    return "was killed by signal " + std::to_string(signal) +
           (name != nullptr ? " (" + std::string(name) + ")" : "");
  }
  return "ended";
}

}  // namespace ttt::client
