#include "console/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "text/display_width.hpp"

namespace ttt::client {
namespace {

// Lines wider than the screen broken between words (continuation lines as
// indented as their line); lines with escape codes (a coloured board) stay
// as they are.
std::string fit_to_screen(std::string_view text, std::size_t columns) {
  std::string out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (line.find('\x1b') != std::string_view::npos) {
      out.append(line);
    } else {
      out += wrap_text(line, columns);
    }
    if (end == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace

bool use_color(ColorChoice choice, bool stdout_is_tty, const char* no_color_env) noexcept {
  const bool no_color = no_color_env != nullptr && no_color_env[0] != '\0';
  if (no_color || choice == ColorChoice::Never) return false;  // NO_COLOR wins over --color
  return choice == ColorChoice::Always || stdout_is_tty;
}

Terminal::Terminal(ColorChoice color)
    : interactive_(::isatty(0) == 1 && ::isatty(1) == 1),
      color_(use_color(color, ::isatty(1) == 1, std::getenv("NO_COLOR"))),
      tty_(interactive_),
      ascii_(::isatty(1) == 1 &&
             !locale_is_utf8(std::getenv("LC_ALL"), std::getenv("LC_CTYPE"), std::getenv("LANG"))) {
}

Terminal::Terminal(bool interactive, bool color, Writer write, ScreenSize size)
    : interactive_(interactive), color_(color), write_(std::move(write)), size_(size) {}

ScreenSize Terminal::size() const {
  if (!tty_) return size_;
  winsize window{};
  if (::ioctl(1, TIOCGWINSZ, &window) != 0 || window.ws_row == 0 || window.ws_col == 0) return {};
  return {window.ws_row, window.ws_col};
}

Terminal::~Terminal() { restore(); }

void Terminal::begin_input(OnLine on_line, OnEnd on_end) {
  on_line_ = std::move(on_line);
  on_end_ = std::move(on_end);
  if (!tty_) return;
  termios mode{};
  if (::tcgetattr(0, &mode) != 0) return;
  saved_ = mode;
  // Keys arrive one by one without echo; Ctrl-C still raises SIGINT.
  mode.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
  mode.c_cc[VMIN] = 1;
  mode.c_cc[VTIME] = 0;
  ::tcsetattr(0, TCSANOW, &mode);
  redraw_input();
}

void Terminal::restore() {
  if (!saved_) return;
  write_out("\r\x1b[K");
  ::tcsetattr(0, TCSANOW, &*saved_);
  saved_.reset();
}

void Terminal::feed(std::string_view bytes) {
  if (ended_) return;
  if (bytes.empty()) {  // end of input
    ended_ = true;
    if (!pending_.empty() && on_line_) on_line_(std::exchange(pending_, {}));
    if (on_end_) on_end_();
    return;
  }
  if (!interactive_) {
    pending_.append(bytes);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string line = pending_.substr(start, nl - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (on_line_) on_line_(std::move(line));
    }
    pending_.erase(0, start);
    return;
  }
  LineEditor::Result result = editor_.feed(bytes);
  for (std::string& line : result.lines) {
    write_out("\r\x1b[K" + prompt_ + line + "\n");
    if (on_line_) on_line_(std::move(line));
  }
  redraw_input();
  if (result.eof) {
    ended_ = true;
    write_out("\n");
    if (on_end_) on_end_();
  }
}

void Terminal::print(std::string_view text) {
  if (!interactive_) {
    write_out(text);
    return;
  }
  std::string out = "\r\x1b[K";
  out.append(fit_to_screen(text, size().columns));
  write_out(out);
  redraw_input();
}

void Terminal::bell() {
  if (!interactive_) return;
  write_out("\a");
}

void Terminal::print_error(std::string_view line) {
  restore();
  std::string out(line);
  out += '\n';
  if (write_) {
    write_(out);
  } else {
    write_fd(2, ascii_ ? ascii_fallback(out) : out);
  }
}

void Terminal::set_prompt(std::string prompt) {
  if (prompt == prompt_) return;
  prompt_ = std::move(prompt);
  if (interactive_) redraw_input();
}

void Terminal::redraw_input() {
  if (!interactive_ || ended_) return;
  write_out("\r\x1b[K" + prompt_ + editor_.buffer());
}

void Terminal::write_out(std::string_view text) {
  if (write_) {
    write_(text);
  } else if (ascii_) {
    write_fd(1, ascii_fallback(text));
  } else {
    write_fd(1, text);
  }
}

void Terminal::write_fd(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace ttt::client
