// Fischer clocks as the clients read and write them: "3+2" is 3 minutes for
// the game and 2 seconds more after each move; a time left shows as a clock
// face ("2:05", "0:09.4" in the last ten seconds, "1:02:03" from an hour).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ttt::client {

struct ClockSpec {
  std::uint32_t initial_ms = 0;
  std::uint32_t increment_ms = 0;
  friend bool operator==(const ClockSpec&, const ClockSpec&) = default;
};

// "M+S": M minutes for the game (a whole number, or with one decimal: 0.5
// is 30 s; 1 s to 180 min) and S whole seconds a move (0 to 60). nullopt,
// with why in error (one line), for anything else.
std::optional<ClockSpec> parse_clock(std::string_view text, std::string& error);

// "3+2", "0.5+0", "1.5+10".
std::string clock_name(const ClockSpec& clock);

// A time left on a clock face: "m:ss" under an hour ("0:07.3" under ten
// seconds), "h:mm:ss" from an hour.
std::string clock_face(std::uint32_t ms);

}  // namespace ttt::client
