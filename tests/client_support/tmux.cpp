#include "client_support/tmux.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "client_support/loopback_trust.hpp"
#include "support/eventually.hpp"

namespace ttt::testing {

Tmux::Tmux() : socket_(dir_.path() + "/tmux") {}

Tmux::~Tmux() { run({"kill-server"}); }

bool Tmux::available() { return run_command({"tmux", "-V"}).exit_code == 0; }

CommandResult Tmux::run(std::vector<std::string> args) {
  args.insert(args.begin(), {"tmux", "-u", "-f", "/dev/null", "-S", socket_});
  return run_command(std::move(args));
}

bool Tmux::start(const std::string& command, int columns, int rows) {
  return run({"new-session",
              "-d",
              "-s",
              "ttt",
              "-x",
              std::to_string(columns),
              "-y",
              std::to_string(rows),
              command,
              ";",
              "set-option",
              "-w",
              "-t",
              "ttt",
              "remain-on-exit",
              "on",
              ";",
              "set-option",
              "-s",
              "set-clipboard",
              "on"})
             .exit_code == 0;
}

bool Tmux::start_client(std::uint16_t port, const TempDir& config, const std::string& flags,
                        int columns, int rows) {
  std::string command = "env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=" + config.path() + " " + bin_dir() +
                        "/ttt-client --plain --host 127.0.0.1 --port " + std::to_string(port) + " ";
  for (const std::string& arg : trust_args(port)) command += arg + " ";
  command += flags;
  return start(command, columns, rows);
}

bool Tmux::start_full_screen(std::uint16_t port, const TempDir& config, const std::string& flags,
                             int columns, int rows, const std::string& env) {
  std::string command = "env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=" + config.path() +
                        " " + env + " " + bin_dir() + "/ttt-client --host 127.0.0.1 --port " +
                        std::to_string(port) + " ";
  for (const std::string& arg : trust_args(port)) command += arg + " ";
  command += flags;
  return start(command, columns, rows);
}

std::string Tmux::screen() {
  return run({"capture-pane", "-p", "-J", "-S", "-", "-t", "ttt"}).output;
}

std::string Tmux::visible() { return run({"capture-pane", "-p", "-t", "ttt"}).output; }

std::string Tmux::visible_with_attributes() {
  return run({"capture-pane", "-p", "-e", "-t", "ttt"}).output;
}

std::string Tmux::format(const std::string& format) {
  std::string out = run({"display-message", "-p", "-t", "ttt", format}).output;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string Tmux::buffers() { return run({"list-buffers", "-F", "#{buffer_name}"}).output; }

void Tmux::type(const std::string& keys) { run({"send-keys", "-t", "ttt", keys, "Enter"}); }

void Tmux::press(const std::vector<std::string>& keys) {
  std::vector<std::string> args{"send-keys", "-t", "ttt"};
  args.insert(args.end(), keys.begin(), keys.end());
  run(args);
}

bool Tmux::record() {
  return run({"pipe-pane", "-o", "-t", "ttt", "cat >> " + dir_.path() + "/pane.out"}).exit_code ==
         0;
}

std::string Tmux::recorded() {
  std::ifstream in(dir_.path() + "/pane.out", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> Tmux::wrapped_lines() {
  // -J joins the lines tmux wrapped; without it they stay apart.
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      std::string line = text.substr(start, end - start);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out.push_back(std::move(line));
      start = end + 1;
    }
    return out;
  };
  const auto apart = lines(run({"capture-pane", "-p", "-S", "-", "-t", "ttt"}).output);
  const auto joined = lines(screen());
  std::vector<std::string> wrapped;
  std::size_t a = 0;
  for (const std::string& line : joined) {
    std::string rebuilt = a < apart.size() ? apart[a++] : "";
    // A joined line longer than its first piece was wrapped by tmux.
    if (rebuilt.size() < line.size()) {
      wrapped.push_back(line);
      while (a < apart.size() && rebuilt.size() < line.size()) rebuilt += apart[a++];
    }
  }
  return wrapped;
}

bool Tmux::wait_screen(const std::function<bool(const std::string&)>& pred,
                       std::chrono::milliseconds timeout) {
  // The screen is asked of tmux (a process each time): every 50 ms.
  return eventually([&] { return pred(screen()); }, timeout, std::chrono::milliseconds(50));
}

bool Tmux::wait_exit(std::chrono::milliseconds timeout) {
  return eventually([&] { return format("#{pane_dead}") == "1"; }, timeout,
                    std::chrono::milliseconds(50));
}

}  // namespace ttt::testing
