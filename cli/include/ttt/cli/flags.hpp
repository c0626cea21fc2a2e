// The command line and config file of every program (server, client, bot,
// bench). CLI11 reads the command line (`--name VALUE`, `--name=VALUE`, short
// aliases such as `-k 4`, switches); `--config FILE` reads the same settings
// from a TOML file in which every flag has a key of the same name
// (`max-connections = 500`), and flags given on the command line win over the
// file. `--print-config` asks for the effective settings. Every value is
// checked, and bad input yields one clear message naming the flag (or the
// file, line and key); programs exit 2 on it.
//
// The file is read by toml++ rather than CLI11's own config reader: CLI11 2.1
// (Debian 12) reads a line-based subset of TOML and reports an unknown key
// without its file or line; toml++ is a complete TOML 1.0 parser that gives
// every key's line. Each value then goes through the same check as the flag.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace ttt::cli {

// What parse() found.
struct ParseResult {
  bool ok = true;             // false: error holds the reason
  bool help = false;          // --help or -h was given
  bool print_config = false;  // --print-config was given: show effective_config() and exit
  bool version = false;       // --version was given: show the version and exit
  std::string error;
};

class Flags {
 public:
  // program names the program in usage and in effective_config().
  Flags(std::string program, std::string summary);
  ~Flags();
  Flags(const Flags&) = delete;
  Flags& operator=(const Flags&) = delete;

  // A switch: present means true; `key = true|false` in a config file.
  // short_name is like "-v" or "".
  void add_bool(std::string name, std::string short_name, bool* out, std::string help);
  // Any text (non-empty unless allow_empty).
  void add_string(std::string name, std::string short_name, std::string* out,
                  std::string value_name, std::string help, bool allow_empty = false);
  // An integer in [min, max].
  void add_int(std::string name, std::string short_name, std::int64_t* out, std::int64_t min,
               std::int64_t max, std::string value_name, std::string help);
  // An integer in [min, max] that may be left unset. what describes the
  // values in errors ("a board size from 3 to 15"); empty: the range.
  void add_optional_int(std::string name, std::optional<std::int64_t>* out, std::int64_t min,
                        std::int64_t max, std::string value_name, std::string help,
                        std::string what = "");
  // Seconds (decimals allowed, e.g. 0.5) in [0, max_seconds], stored in ms.
  void add_seconds(std::string name, std::chrono::milliseconds* out, double max_seconds,
                   std::string help);
  // One of a fixed set of words.
  void add_choice(std::string name, std::string short_name, std::string* out,
                  std::vector<std::string> choices, std::string help);

  // Parses argv[1..argc), then the file of --config (if given) for the flags
  // the command line left unset. Unknown flags or keys, missing or malformed
  // values, values out of range, positional arguments, a config file that
  // can't be read or parsed, and a key of the wrong TOML type are errors.
  ParseResult parse(int argc, const char* const* argv);

  // The usage text for --help: every flag with its default.
  std::string usage() const;

  // After parse: every setting's value as a TOML line (`port = 7777`), in
  // the order the flags were added; a file ttt-PROGRAM --config reads back.
  std::string effective_config() const;

 private:
  struct Spec;
  void add(Spec spec);                       // registers spec with CLI11
  std::optional<std::string> read_config();  // applies --config FILE; error or nullopt

  std::string program_;
  std::string summary_;
  std::unique_ptr<CLI::App> app_;
  std::vector<Spec> specs_;
  std::string config_path_;
  bool print_config_ = false;
  bool version_ = false;
};

// Parses a whole decimal integer in [min, max]; nullopt for anything else.
std::optional<std::int64_t> parse_int(std::string_view text, std::int64_t min, std::int64_t max);

}  // namespace ttt::cli
