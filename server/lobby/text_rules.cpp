#include "lobby/text_rules.hpp"

#include <algorithm>

namespace ttt::server {

bool is_printable_utf8(std::string_view text) noexcept {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if (byte < 0x20 || byte == 0x7f) return false;
      ++i;
      continue;
    }
    std::size_t length = 0;
    char32_t code = 0;
    if ((byte & 0xe0) == 0xc0) {
      length = 2;
      code = byte & 0x1f;
    } else if ((byte & 0xf0) == 0xe0) {
      length = 3;
      code = byte & 0x0f;
    } else if ((byte & 0xf8) == 0xf0) {
      length = 4;
      code = byte & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    const char32_t min_code[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < min_code[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
    if (code >= 0x80 && code < 0xa0) return false;  // C1 controls
    i += length;
  }
  return true;
}

}  // namespace ttt::server

namespace ttt::server {

std::string name_key(std::string_view name) { return name_skeleton(name); }

bool contains_ignoring_ascii_case(std::string_view text, std::string_view part) noexcept {
  const auto fold = [](char c) noexcept {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return std::search(text.begin(), text.end(), part.begin(), part.end(),
                     [&fold](char a, char b) { return fold(a) == fold(b); }) != text.end();
}

}  // namespace ttt::server
