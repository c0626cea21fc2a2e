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

std::string cut_to_width(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) return std::string(text);
  const std::size_t room = width >= 2 ? width - 1 : width;  // the ellipsis takes one
  std::string out;
  std::size_t used = 0;
  const auto length = static_cast<std::int32_t>(std::min<std::size_t>(text.size(), INT32_MAX));
  std::int32_t i = 0;
  while (i < length) {
    const std::int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(text.data(), i, length, c);
    const std::size_t w =
        code_point_width(c < 0 ? kReplacementCodePoint : static_cast<char32_t>(c));
    if (used + w > room) break;
    out.append(text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
    used += w;
  }
  if (width >= 2) out += "\xE2\x80\xA6";  // …
  return out;
}

std::vector<std::string> wrap_words(std::string_view line, std::size_t width, std::size_t indent) {
  std::vector<std::string> pieces(1);
  if (width == 0) {
    pieces.back() = std::string(line);
    return pieces;
  }
  if (indent >= width) indent = width > 1 ? width / 2 : 0;
  std::size_t used = 0;
  const auto length = static_cast<std::int32_t>(std::min<std::size_t>(line.size(), INT32_MAX));
  std::int32_t i = 0;
  while (i < length) {
    const std::int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(line.data(), i, length, c);
    const std::string_view one =
        line.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start));
    const std::size_t w =
        code_point_width(c < 0 ? kReplacementCodePoint : static_cast<char32_t>(c));
    const std::size_t floor = pieces.size() > 1 ? indent : 0;  // the piece's own indent
    if (used + w > width && used > floor) {
      std::string rest;
      std::string& last = pieces.back();
      const std::size_t space = last.rfind(' ');
      if (one != " " && space != std::string::npos && space > floor &&
          last.find_first_not_of(' ', floor) < space) {
        rest = last.substr(space + 1);  // the word being cut moves down whole
        last.erase(space);
      }
      while (!last.empty() && last.back() == ' ') last.pop_back();
      pieces.push_back(std::string(indent, ' ') + rest);
      used = display_width(pieces.back());
      if (one == " ") continue;  // a break between words eats the space
    }
    pieces.back().append(one);
    used += w;
  }
  return pieces;
}

std::string wrap_text(std::string_view text, std::size_t width) {
  std::string out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
    for (const std::string& piece : wrap_words(line, width, lead)) {
      if (!out.empty() && out.back() != '\n') out += '\n';
      out += piece;
    }
    if (end == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(end + 1);
  }
  return out;
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
