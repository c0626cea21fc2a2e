// ChildProcess: lines in and out with deadlines, an over-long line, stderr
// kept for the reason, how a process ended, no SIGPIPE, and no process left
// behind (the whole group is killed and the child reaped).
#include "engine/child_process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "support/eventually.hpp"

namespace ttt::client {
namespace {

using namespace std::chrono_literals;
using Clock = ChildProcess::Clock;
using Status = ChildProcess::ReadStatus;

std::unique_ptr<ChildProcess> run(const std::string& command) {
  std::string error;
  auto child = ChildProcess::start(command, error);
  EXPECT_TRUE(child) << error;
  return child;
}

// True once pid is gone or a zombie (a killed grandchild waits for init),
// within 2 s.
bool gone(pid_t pid) {
  return ttt::testing::eventually(
      [pid] {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text;
        if (!std::getline(stat, text)) return true;
        const auto close = text.rfind(')');
        return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
      },
      2s);
}

// The name of pid's program ("" once it is gone).
std::string program_of(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

// Whether pid holds a descriptor 0 (its stdin).
bool has_stdin(pid_t pid) {
  std::error_code error;
  return std::filesystem::is_symlink("/proc/" + std::to_string(pid) + "/fd/0", error);
}

TEST(ChildProcess, ReadsTheLinesAProgramWritesWhateverTheirEndings) {
  auto child = run("printf 'one\\r\\ntwo\\n\\n\\rthree\\rfour'");
  const auto deadline = Clock::now() + 5s;
  for (const char* expected : {"one", "two", "three", "four"}) {
    const auto read = child->read_line(deadline);
    EXPECT_EQ(read.status, Status::Line);
    EXPECT_EQ(read.line, expected);
  }
  EXPECT_EQ(child->read_line(deadline).status, Status::Closed);
}

TEST(ChildProcess, TalksBothWays) {
  auto child = run("while read line; do echo \"got $line\"; done");
  ASSERT_TRUE(child->write_line("hello", Clock::now() + 5s));
  const auto read = child->read_line(Clock::now() + 5s);
  EXPECT_EQ(read.status, Status::Line);
  EXPECT_EQ(read.line, "got hello") << "what we write ends in CR LF, which ends the line it echoes";
}

TEST(ChildProcess, AReadGivesUpAtItsDeadline) {
  auto child = run("sleep 30");
  const auto read = child->read_line(Clock::now() + 100ms);
  EXPECT_EQ(read.status, Status::Timeout);
  const pid_t pid = child->pid();
  child.reset();  // killed and reaped, not waited for
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(ChildProcess, AnOverLongLineIsCutAndReportedAndTheNextLineIsRead) {
  auto child = run("head -c 10000 /dev/zero | tr '\\0' x; echo; echo after");
  const auto deadline = Clock::now() + 5s;
  const auto long_line = child->read_line(deadline);
  EXPECT_EQ(long_line.status, Status::TooLong);
  EXPECT_EQ(long_line.line, std::string(ChildProcess::kMaxLine, 'x'));
  const auto next = child->read_line(deadline);
  EXPECT_EQ(next.status, Status::Line);
  EXPECT_EQ(next.line, "after");
}

TEST(ChildProcess, KeepsTheLastLinesOfStderrAndHowTheProcessEnded) {
  auto child = run("echo first >&2; echo second >&2; exit 3");
  EXPECT_EQ(child->read_line(Clock::now() + 5s).status, Status::Closed);
  ASSERT_TRUE(child->wait_exit(Clock::now() + 5s));
  EXPECT_EQ(child->exit_text(), "exited with code 3");
  EXPECT_EQ(child->stderr_tail(), "first / second");
}

TEST(ChildProcess, SaysWhichSignalKilledIt) {
  auto child = run("kill -SEGV $$");
  EXPECT_EQ(child->read_line(Clock::now() + 5s).status, Status::Closed);
  ASSERT_TRUE(child->wait_exit(Clock::now() + 5s));
  EXPECT_EQ(child->exit_text().rfind("was killed by signal 11", 0), 0u) << child->exit_text();
}

TEST(ChildProcess, ASimpleCommandIsTheProcessItself) {
  auto child = run("sh -c 'echo $$'");
  const auto read = child->read_line(Clock::now() + 5s);
  ASSERT_EQ(read.status, Status::Line);
  EXPECT_EQ(std::stoi(read.line), child->pid()) << "exec'd: no shell in between";
  auto sleeper = run("sleep 30");
  // The shell execs sleep: the process becomes it, no shell left in between.
  EXPECT_TRUE(ttt::testing::eventually([&] { return program_of(sleeper->pid()) == "sleep"; }, 5s))
      << program_of(sleeper->pid());
}

TEST(ChildProcess, ACommandThatDoesNotExistEndsWith127AndSaysWhy) {
  auto child = run("no-such-engine-anywhere --fast");
  EXPECT_EQ(child->read_line(Clock::now() + 5s).status, Status::Closed);
  ASSERT_TRUE(child->wait_exit(Clock::now() + 5s));
  EXPECT_EQ(child->exit_text(), "exited with code 127");
  EXPECT_NE(child->stderr_tail().find("not found"), std::string::npos) << child->stderr_tail();
}

TEST(ChildProcess, WritingToAProcessThatIsGoneFailsWithoutASignal) {
  auto child = run("exec 0<&-; sleep 30");  // closes its stdin at once
  ASSERT_TRUE(ttt::testing::eventually([&] { return !has_stdin(child->pid()); }, 5s))
      << "the child still holds its stdin";
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    refused = !child->write_line(std::string(1000, 'z'), Clock::now() + 1s);
  }
  EXPECT_TRUE(refused) << "EPIPE, and this test process is still here: no SIGPIPE";
}

TEST(ChildProcess, AWriteToAProcessThatDoesNotReadGivesUpAtItsDeadline) {
  auto child = run("sleep 30");
  bool refused = false;
  for (int i = 0; i < 200 && !refused; ++i) {  // fills the pipe (64 KiB) and then some
    refused = !child->write_line(std::string(4096, 'z'), Clock::now() + 100ms);
  }
  EXPECT_TRUE(refused);
}

TEST(ChildProcess, TheWholeProcessGroupIsKilledAndTheChildReaped) {
  auto child = run("sleep 30 & echo $!; wait");
  const auto read = child->read_line(Clock::now() + 5s);
  ASSERT_EQ(read.status, Status::Line);
  const pid_t grandchild = std::stoi(read.line);
  const pid_t pid = child->pid();
  child.reset();
  EXPECT_TRUE(gone(grandchild)) << "the shell's child went with it";
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1) << "reaped";
}

TEST(ChildProcess, StopLetsAProcessFinishOnEndOfInput) {
  auto child = run("cat > /dev/null; exit 0");
  child->stop(5s);
  EXPECT_EQ(child->exit_text(), "exited with code 0");
}

TEST(ChildProcess, StopKillsAProcessThatIgnoresEndOfInput) {
  auto child = run("trap '' TERM; sleep 30");
  child->stop(100ms);
  EXPECT_TRUE(child->exited());
  EXPECT_EQ(child->exit_text().rfind("was killed by signal 9", 0), 0u) << child->exit_text();
}

}  // namespace
}  // namespace ttt::client
