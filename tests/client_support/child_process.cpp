#include "client_support/child_process.hpp"

#include "client_support/loopback_trust.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "support/eventually.hpp"
#include "support/test_threads.hpp"

extern char** environ;

namespace ttt::testing {

using std::chrono::steady_clock;

std::string bin_dir() { return TTT_BIN_DIR; }

ChildProcess::ChildProcess(std::vector<std::string> argv, std::vector<std::string> env,
                           const std::string& cwd) {
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe2 failed");
  }
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
  for (auto& extra : env) {  // an entry replaces the inherited one of its name
    const std::string name = extra.substr(0, extra.find('=') + 1);
    std::erase_if(environment, [&name](const std::string& e) { return e.starts_with(name); });
    environment.push_back(std::move(extra));
  }
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (auto& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  stdin_fd_ = in[1];
  output_fd_ = out[0];
  ::fcntl(output_fd_, F_SETFL, O_NONBLOCK);
}

ChildProcess::~ChildProcess() {
  kill(SIGKILL);
  close_stdin();
  if (output_fd_ >= 0) ::close(output_fd_);
}

bool ChildProcess::write(std::string_view text) {
  while (!text.empty() && stdin_fd_ >= 0) {
    const ssize_t n = ::write(stdin_fd_, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return stdin_fd_ >= 0;
}

void ChildProcess::close_stdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

bool ChildProcess::pump(std::chrono::milliseconds wait) {
  if (output_fd_ < 0) return false;
  pollfd fd{output_fd_, POLLIN, 0};
  if (::poll(&fd, 1, static_cast<int>(wait.count())) <= 0) return true;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(output_fd_, buffer, sizeof buffer);
    if (n > 0) {
      output_.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    ::close(output_fd_);  // end of output
    output_fd_ = -1;
    return false;
  }
}

bool ChildProcess::wait_for(const std::function<bool(const std::string&)>& pred,
                            std::chrono::milliseconds timeout) {
  const auto deadline = steady_clock::now() + timeout;
  for (;;) {
    if (pred(output_)) return true;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady_clock::now());
    if (left.count() <= 0) return false;
    if (!pump(std::min(left, std::chrono::milliseconds(50)))) return pred(output_);  // no more
  }
}

bool ChildProcess::wait_for_text(std::string_view text, std::chrono::milliseconds timeout,
                                 std::size_t from) {
  return wait_for(
      [text, from](const std::string& out) {
        return out.size() >= from && out.find(text, from) != std::string::npos;
      },
      timeout);
}

bool ChildProcess::reap(bool block) {
  if (pid_ < 0 || exit_code_) return true;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  if (r == 0) return false;
  if (r < 0) {
    exit_code_ = -1;
    return true;
  }
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = steady_clock::now() + timeout;
  // Its output is read meanwhile (a child blocked on a full pipe never ends).
  const bool ended = eventually(
      [&] {
        if (reap(false)) return true;
        pump(10ms);
        return reap(false);
      },
      timeout, 5ms);
  if (!ended) return std::nullopt;
  while (pump(0ms) && output_fd_ >= 0) {
    if (steady_clock::now() >= deadline) break;
  }
  return exit_code_;
}

void ChildProcess::kill(int signal_number) {
  if (pid_ < 0 || exit_code_) return;
  ::kill(pid_, signal_number);
  reap(true);
}

ServerProcess::ServerProcess(std::vector<std::string> extra_args, std::uint16_t port)
    : process_(
          [&] {
            std::vector<std::string> argv{
                bin_dir() + "/ttt-server", "--bind",      "127.0.0.1", "--port",
                std::to_string(port),      "--log-level", "warn"};
            // The players of these tests all come from 127.0.0.1: their games
            // are rated as the players' of many addresses would be.
            argv.push_back("--rate-same-address");
            if (test_server_threads() > 1) {
              argv.insert(argv.end(), {"--threads", std::to_string(test_server_threads())});
            }
            argv.insert(argv.end(), extra_args.begin(), extra_args.end());
            return argv;
          }(),
          {"XDG_STATE_HOME=" + dir_.path()}, dir_.path()) {
  const std::regex line(R"(listening on port (\d+)\n)");
  std::smatch match;
  if (!process_.wait_for(
          [&](const std::string& out) { return std::regex_search(out, match, line); }, 10s)) {
    throw std::runtime_error("ttt-server did not start: " + process_.output());
  }
  port_ = static_cast<std::uint16_t>(std::stoi(match[1].str()));
  const std::regex fingerprint_line(R"(tls fingerprint: (SHA256:[A-Za-z0-9+/]+)\n)");
  std::smatch fingerprint;
  if (std::regex_search(process_.output(), fingerprint, fingerprint_line)) {
    fingerprint_ = fingerprint[1].str();
  }
  register_server(port_, fingerprint_);
}

ServerProcess::~ServerProcess() { forget_server(port_, fingerprint_); }

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "ttt-client-test.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

CommandResult run_command(std::vector<std::string> argv, std::chrono::milliseconds timeout) {
  if (argv.empty()) return {};
  if (argv[0].find('/') == std::string::npos) {
    // Look the program up on PATH.
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const std::string candidate = dirs.substr(start, end - start) + "/" + argv[0];
      if (::access(candidate.c_str(), X_OK) == 0) {
        argv[0] = candidate;
        break;
      }
      start = end + 1;
    }
  }
  ChildProcess process(std::move(argv));
  process.close_stdin();
  CommandResult result;
  result.exit_code = process.wait_exit(timeout).value_or(-1);
  result.output = process.output();
  return result;
}

}  // namespace ttt::testing
