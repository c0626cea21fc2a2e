#include "store/game_export.hpp"

#include <cstdio>
#include <ctime>
#include <iomanip>

#include "store/record_outcome.hpp"

namespace ttt::server {
namespace {

// 2026-11-22T14:03:07.123Z
std::string utc_time(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));
  return std::string(text) + millis;
}

// Whether code point c prints as itself: not a control (C0, DEL, C1), not a
// line or paragraph separator (U+2028, U+2029, which some readers split
// lines on), not a format or invisible character (bidi controls, zero-width
// characters, variation selectors, tags, BOM), not a space other than
// U+0020, not a private-use character or a noncharacter.
bool prints_as_itself(char32_t c) {
  if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0xa0)) return false;
  static constexpr std::pair<char32_t, char32_t> kHidden[] = {
      {0x00ad, 0x00ad},   {0x034f, 0x034f},    {0x061c, 0x061c}, {0x115f, 0x1160},
      {0x1680, 0x1680},   {0x17b4, 0x17b5},    {0x180b, 0x180f}, {0x2000, 0x200f},
      {0x2028, 0x202f},   {0x205f, 0x206f},    {0x3000, 0x3000}, {0x3164, 0x3164},
      {0xd800, 0xdfff},   {0xe000, 0xf8ff},    {0xfdd0, 0xfdef}, {0xfe00, 0xfe0f},
      {0xfeff, 0xfeff},   {0xffa0, 0xffa0},    {0xfff0, 0xfffb}, {0x1d173, 0x1d17a},
      {0xe0000, 0xe0fff}, {0xf0000, 0x10ffff},
  };
  for (const auto& [first, last] : kHidden) {
    if (c >= first && c <= last) return false;
  }
  return (c & 0xfffe) != 0xfffe;  // U+xFFFE and U+xFFFF are noncharacters
}

std::string hex(std::uint32_t value, int digits) {
  char text[16];
  std::snprintf(text, sizeof text, "%0*X", digits, value);
  return text;
}

}  // namespace

std::string escape_export_text(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\\') {
      out += "\\\\";
      ++i;
      continue;
    }
    std::size_t length = byte < 0x80             ? 1
                         : (byte & 0xe0) == 0xc0 ? 2
                         : (byte & 0xf0) == 0xe0 ? 3
                         : (byte & 0xf8) == 0xf0 ? 4
                                                 : 0;
    char32_t code = length == 1   ? byte
                    : length == 2 ? byte & 0x1f
                    : length == 3 ? byte & 0x0f
                                  : byte & 0x07;
    bool valid = length != 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xc0) == 0x80;
      code = (code << 6) | (next & 0x3f);
    }
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (valid && (code < kMin[length] || code > 0x10ffff)) valid = false;
    if (!valid) {
      out += "\\x{" + hex(byte, 2) + "}";  // a byte that is not UTF-8
      ++i;
      continue;
    }
    if (prints_as_itself(code)) {
      out.append(text.substr(i, length));
    } else {
      out += "\\u{" + hex(static_cast<std::uint32_t>(code), 4) + "}";
    }
    i += length;
  }
  return out;
}

namespace {

std::string result_of(const GameRecord& g) {
  if (g.status == "x_won") return "X";
  if (g.status == "o_won") return "O";
  if (g.status == "draw") return "draw";
  return "none";
}

}  // namespace

std::size_t export_games(Store& store, std::ostream& out) {
  out << "# ttt games export, format 3\n\n";
  std::size_t count = 0;
  for (const GameRecord& g : store.finished_games()) {
    out << "game " << g.id << "\n";
    out << "room " << g.room_id << " round " << g.round << "\n";
    out << "size " << g.size << "\n";
    out << "win_length " << g.win_length << "\n";
    out << "x " << escape_export_text(g.x_name) << "\n";
    out << "o " << escape_export_text(g.o_name) << "\n";
    out << "rated " << (g.rated ? "yes" : "no") << "\n";
    out << "start " << utc_time(g.started_ms) << "\n";
    out << "end " << utc_time(g.ended_ms) << "\n";
    out << "result " << result_of(g) << "\n";
    out << "reason " << (g.reason.empty() ? "none" : g.reason) << "\n";
    out << "outcome " << result_text(g) << "\n";
    out << "moves " << g.moves.size() << "\n";
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      const StoredMove& m = g.moves[i];
      out << "move " << i + 1 << " " << (i % 2 == 0 ? "X" : "O") << " " << m.row << " " << m.col
          << " " << (m.at_ms - g.started_ms) << "\n";
    }
    out << "\n";
    ++count;
  }
  return count;
}

}  // namespace ttt::server
