#include "engine/pbrain_protocol.hpp"

#include <cctype>
#include <charconv>

namespace ttt::client::pbrain {
namespace {

constexpr int kMaxCoordinate = 9999;

constexpr std::string_view kSpace = " \t\r\n\f\v";

std::string_view trim(std::string_view text) noexcept {
  const auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

std::optional<int> parse_number(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 4) return std::nullopt;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > kMaxCoordinate) {
    return std::nullopt;
  }
  return value;
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Move move_of(Point point) noexcept { return Move{point.y, point.x}; }

Point point_of(Move move) noexcept { return Point{move.col, move.row}; }

std::string point_text(Point point) {
  return std::to_string(point.x) + "," + std::to_string(point.y);
}

std::optional<Point> parse_point(std::string_view text) {
  const auto comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const auto x = parse_number(text.substr(0, comma));
  const auto y = parse_number(text.substr(comma + 1));
  if (!x || !y) return std::nullopt;
  return Point{*x, *y};
}

std::optional<Stone> parse_stone(std::string_view text) {
  const auto last = text.rfind(',');
  if (last == std::string_view::npos) return std::nullopt;
  const auto point = parse_point(text.substr(0, last));
  const auto field = parse_number(text.substr(last + 1));
  if (!point || !field || *field < 1 || *field > 3) return std::nullopt;
  return Stone{*point, *field};
}

CommandLine split_command(std::string_view line) {
  line = trim(line);
  const auto space = line.find_first_of(" \t");
  if (space == std::string_view::npos) return {upper(line), ""};
  return {upper(line.substr(0, space)), std::string(trim(line.substr(space + 1)))};
}

Answer parse_answer(std::string_view line) {
  line = trim(line);
  Answer answer;
  if (auto point = parse_point(line)) {
    answer.kind = Answer::Kind::Move;
    answer.point = *point;
    return answer;
  }
  const CommandLine words = split_command(line);
  static const std::pair<std::string_view, Answer::Kind> kWords[] = {
      {"OK", Answer::Kind::Ok},           {"ERROR", Answer::Kind::Error},
      {"MESSAGE", Answer::Kind::Message}, {"DEBUG", Answer::Kind::Debug},
      {"UNKNOWN", Answer::Kind::Unknown}, {"SUGGEST", Answer::Kind::Suggest},
  };
  for (const auto& [word, kind] : kWords) {
    if (words.name != word) continue;
    answer.kind = kind;
    answer.text = words.args;
    if (kind == Answer::Kind::Suggest) {
      const auto point = parse_point(words.args);
      if (!point) break;
      answer.point = *point;
    }
    return answer;
  }
  answer.kind = Answer::Kind::Other;
  answer.text = std::string(line);
  return answer;
}

std::map<std::string, std::string> parse_about(std::string_view text) {
  std::map<std::string, std::string> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) || text[i] == ','))
      ++i;
    const std::size_t key_start = i;
    while (i < text.size() && text[i] != '=' && text[i] != ',') ++i;
    if (i >= text.size() || text[i] != '=') break;
    std::string key(trim(text.substr(key_start, i - key_start)));
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ++i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '"') break;
    const std::size_t value_start = ++i;
    while (i < text.size() && text[i] != '"') ++i;
    if (i >= text.size()) break;
    if (!key.empty()) fields[key] = std::string(text.substr(value_start, i - value_start));
    ++i;
  }
  return fields;
}

}  // namespace ttt::client::pbrain
