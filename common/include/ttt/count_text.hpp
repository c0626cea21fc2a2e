// A count in words with its noun in the right number: "1 game", "2 games".
// For every message and log line that counts something.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ttt {

// "1 game", "0 games", "12 games".
inline std::string count_text(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace ttt
