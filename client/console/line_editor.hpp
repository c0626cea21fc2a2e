// LineEditor: line input for a terminal in non-canonical mode, so the client
// can redraw the half-typed line after printing something that arrived from
// the server. Handles printable text (UTF-8 too), Backspace, Ctrl-U, Ctrl-W,
// Enter and Ctrl-D on an empty line; escape sequences (arrow keys) are
// swallowed. Pure: bytes in, lines out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ttt::client {

class LineEditor {
 public:
  static constexpr std::size_t kMaxLine = 1000;

  struct Result {
    std::vector<std::string> lines;  // completed lines, without the newline
    bool eof = false;                // Ctrl-D on an empty line
  };

  // Consumes bytes read from the terminal.
  Result feed(std::string_view bytes);

  // The line typed so far.
  const std::string& buffer() const noexcept { return buffer_; }

 private:
  enum class Escape { None, Start, Sequence };

  void erase_char();
  void erase_word();

  std::string buffer_;
  Escape escape_ = Escape::None;
  bool after_cr_ = false;
};

}  // namespace ttt::client
