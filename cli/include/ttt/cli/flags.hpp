// A small, strict command-line parser: `--name VALUE`, `--name=VALUE`, short
// aliases (`-k 4`), and boolean switches. Every value is range-checked, and a
// bad flag yields one clear message naming the flag (programs exit 2 on it).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ttt::cli {

// What parse() found.
struct ParseResult {
  bool ok = true;              // false: error holds the reason
  bool help = false;           // --help or -h was given
  std::string error;
};

class Flags {
 public:
  Flags(std::string program, std::string summary);

  // A switch: present means true. short_name is like "-v" or "".
  void add_bool(std::string name, std::string short_name, bool* out, std::string help);
  // Any text (non-empty unless allow_empty).
  void add_string(std::string name, std::string short_name, std::string* out,
                  std::string value_name, std::string help, bool allow_empty = false);
  // An integer in [min, max].
  void add_int(std::string name, std::string short_name, std::int64_t* out, std::int64_t min,
               std::int64_t max, std::string value_name, std::string help);
  // Seconds (decimals allowed, e.g. 0.5) in [0, max_seconds], stored in ms.
  void add_seconds(std::string name, std::chrono::milliseconds* out, double max_seconds,
                   std::string help);
  // One of a fixed set of words.
  void add_choice(std::string name, std::string short_name, std::string* out,
                  std::vector<std::string> choices, std::string help);

  // Parses argv[1..argc). Unknown flags, missing or malformed values, values
  // out of range and positional arguments are errors.
  ParseResult parse(int argc, const char* const* argv);

  // The usage text for --help: every flag with its default.
  std::string usage() const;

 private:
  struct Spec {
    std::string name;
    std::string short_name;
    std::string value_name;  // empty for switches
    std::string help;
    std::string default_text;
    std::function<std::optional<std::string>(std::string_view)> set;  // error or nullopt
  };
  const Spec* find(std::string_view arg) const;

  std::string program_;
  std::string summary_;
  std::vector<Spec> specs_;
};

// Parses a whole decimal integer in [min, max]; nullopt for anything else.
std::optional<std::int64_t> parse_int(std::string_view text, std::int64_t min, std::int64_t max);

}  // namespace ttt::cli
