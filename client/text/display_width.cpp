#include "text/display_width.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cctype>
#include <climits>

namespace ttt::client {
namespace {

constexpr char32_t kEllipsisCodePoint = 0x2026;
constexpr char32_t kReplacementCodePoint = 0xFFFD;

// Calls each(code point) for every code point of text; bytes that are not
// UTF-8 come as U+FFFD.
template <typename Each>
void for_each_code_point(std::string_view text, Each each) {
  const auto length = static_cast<std::int32_t>(std::min<std::size_t>(text.size(), INT32_MAX));
  std::int32_t i = 0;
  while (i < length) {
    UChar32 c = 0;
    U8_NEXT(text.data(), i, length, c);
    each(c < 0 ? kReplacementCodePoint : static_cast<char32_t>(c));
  }
}

// "UTF-8", "utf8", "Utf-8" alike.
bool names_utf8(std::string_view codeset) noexcept {
  constexpr std::string_view kPlain = "utf8";
  std::size_t matched = 0;
  for (const char c : codeset) {
    if (c == '-' || c == '_') continue;
    if (matched == kPlain.size() ||
        std::tolower(static_cast<unsigned char>(c)) != kPlain[matched]) {
      return false;
    }
    ++matched;
  }
  return matched == kPlain.size();
}

}  // namespace

std::size_t code_point_width(char32_t c) {
  if (c < 0x7f) return c >= 0x20 ? 1 : 0;
  const auto u = static_cast<UChar32>(c);
  switch (u_charType(u)) {
    case U_NON_SPACING_MARK:
    case U_ENCLOSING_MARK:
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
      return 0;
    default:
      break;
  }
  const auto jamo = u_getIntPropertyValue(u, UCHAR_HANGUL_SYLLABLE_TYPE);
  if (jamo == U_HST_VOWEL_JAMO || jamo == U_HST_TRAILING_JAMO) return 0;
  const auto east_asian = u_getIntPropertyValue(u, UCHAR_EAST_ASIAN_WIDTH);
  return east_asian == U_EA_WIDE || east_asian == U_EA_FULLWIDTH ? 2 : 1;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for_each_code_point(text, [&](char32_t c) { width += code_point_width(c); });
  return width;
}

std::string pad_right(std::string_view text, std::size_t width) {
  std::string out(text);
  const std::size_t used = display_width(text);
  if (used < width) out.append(width - used, ' ');
  return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
  const std::size_t used = display_width(text);
  std::string out(used < width ? width - used : 0, ' ');
  out += text;
  return out;
}

std::size_t screen_rows(std::string_view text, std::size_t columns) {
  std::size_t rows = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    const std::size_t width = display_width(line);
    rows += columns == 0 || width == 0 ? 1 : (width + columns - 1) / columns;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return rows;
}

bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang) noexcept {
  for (const char* value : {lc_all, lc_ctype, lang}) {
    if (value == nullptr || value[0] == '\0') continue;
    const std::string_view name = value;  // language[_territory][.codeset][@modifier]
    const std::size_t dot = name.find('.');
    if (dot == std::string_view::npos) return false;
    return names_utf8(name.substr(dot + 1, name.find('@', dot) - dot - 1));
  }
  return false;
}

std::string ascii_fallback(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_code_point(text, [&](char32_t c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c == kEllipsisCodePoint) {
      out += '.';
    } else {
      out.append(code_point_width(c), '?');
    }
  });
  return out;
}

}  // namespace ttt::client
