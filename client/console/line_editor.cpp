#include "console/line_editor.hpp"

namespace ttt::client {
namespace {

constexpr char kCtrlD = 0x04;
constexpr char kCtrlH = 0x08;
constexpr char kCtrlU = 0x15;
constexpr char kCtrlW = 0x17;
constexpr char kEscape = 0x1b;
constexpr char kDelete = 0x7f;

bool is_continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

}  // namespace

LineEditor::Result LineEditor::feed(std::string_view bytes) {
  Result result;
  for (const char c : bytes) {
    const bool was_cr = after_cr_;
    after_cr_ = false;
    if (escape_ == Escape::Start) {
      escape_ = (c == '[' || c == 'O') ? Escape::Sequence : Escape::None;
      continue;
    }
    if (escape_ == Escape::Sequence) {
      if (c >= 0x40 && c <= 0x7e) escape_ = Escape::None;  // the final byte
      continue;
    }
    switch (c) {
      case '\r':
      case '\n':
        if (c == '\n' && was_cr) break;  // CR LF is one Enter
        after_cr_ = c == '\r';
        result.lines.push_back(std::move(buffer_));
        buffer_.clear();
        break;
      case kDelete:
      case kCtrlH:
        erase_char();
        break;
      case kCtrlU:
        buffer_.clear();
        break;
      case kCtrlW:
        erase_word();
        break;
      case kCtrlD:
        if (buffer_.empty()) {
          result.eof = true;
          return result;
        }
        break;
      case kEscape:
        escape_ = Escape::Start;
        break;
      case '\t':
        if (buffer_.size() < kMaxLine) buffer_ += ' ';
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 && buffer_.size() < kMaxLine) buffer_ += c;
        break;
    }
  }
  return result;
}

void LineEditor::erase_char() {
  while (!buffer_.empty() && is_continuation(buffer_.back())) buffer_.pop_back();
  if (!buffer_.empty()) buffer_.pop_back();
}

void LineEditor::erase_word() {
  while (!buffer_.empty() && buffer_.back() == ' ') buffer_.pop_back();
  while (!buffer_.empty() && buffer_.back() != ' ') buffer_.pop_back();
}

}  // namespace ttt::client
