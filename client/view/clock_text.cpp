#include "view/clock_text.hpp"

#include <charconv>
#include <cstdio>

namespace ttt::client {
namespace {

constexpr std::uint32_t kMinInitialMs = 1'000;
constexpr std::uint32_t kMaxInitialMs = 180 * 60'000;
constexpr std::uint32_t kMaxIncrementS = 60;

// A whole number of digits only (no sign, no spaces), or nullopt.
std::optional<std::uint32_t> digits(std::string_view text) {
  if (text.empty() || text.size() > 6) return std::nullopt;
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Minutes with at most one decimal, in tenths of a minute.
std::optional<std::uint32_t> tenths_of_minutes(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) {
    const auto whole = digits(text);
    if (!whole) return std::nullopt;
    return *whole * 10;
  }
  const auto whole = digits(text.substr(0, dot));
  const std::string_view fraction = text.substr(dot + 1);
  if (!whole || fraction.size() != 1) return std::nullopt;
  const auto tenth = digits(fraction);
  if (!tenth) return std::nullopt;
  return *whole * 10 + *tenth;
}

}  // namespace

std::optional<ClockSpec> parse_clock(std::string_view text, std::string& error) {
  const auto plus = text.find('+');
  const std::string usage =
      "A clock is M+S: minutes for the game (up to 180, e.g. 3 or 0.5) and "
      "seconds added after each move (0 to 60), e.g. 3+2, not '" +
      std::string(text.substr(0, 40)) + "'";
  if (plus == std::string_view::npos) {
    error = usage;
    return std::nullopt;
  }
  const auto tenths = tenths_of_minutes(text.substr(0, plus));
  const auto increment = digits(text.substr(plus + 1));
  if (!tenths || !increment) {
    error = usage;
    return std::nullopt;
  }
  ClockSpec clock{*tenths * 6'000, *increment * 1'000};
  if (clock.initial_ms < kMinInitialMs || clock.initial_ms > kMaxInitialMs ||
      *increment > kMaxIncrementS) {
    error = usage;
    return std::nullopt;
  }
  return clock;
}

std::string clock_name(const ClockSpec& clock) {
  const std::uint32_t tenths = clock.initial_ms / 6'000;
  std::string minutes = std::to_string(tenths / 10);
  if (tenths % 10 != 0) minutes += "." + std::to_string(tenths % 10);
  return minutes + "+" + std::to_string(clock.increment_ms / 1'000);
}

std::string clock_face(std::uint32_t ms) {
  char text[32];
  const std::uint32_t seconds = ms / 1'000;
  if (seconds >= 3'600) {
    std::snprintf(text, sizeof text, "%u:%02u:%02u", seconds / 3'600, seconds / 60 % 60,
                  seconds % 60);
  } else if (seconds >= 10) {
    std::snprintf(text, sizeof text, "%u:%02u", seconds / 60, seconds % 60);
  } else {
    std::snprintf(text, sizeof text, "0:%02u.%u", seconds, ms % 1'000 / 100);
  }
  return text;
}

}  // namespace ttt::client
