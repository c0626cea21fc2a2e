// A TOML configuration file read as flat `key = value` settings, each with
// the line it came from, so that every later complaint can point at it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ttt::cli {

// One top-level `key = value` of a config file.
struct ConfigSetting {
  std::string key;
  std::uint32_t line = 0;  // 1-based line of the key
  // The TOML value: a string, a whole number, a decimal number or a boolean.
  using Value = std::variant<std::string, std::int64_t, double, bool>;
  Value value;
};

// What read_config_file found: settings in file order, or one error.
struct ConfigFile {
  bool ok = true;
  std::string error;  // "FILE:LINE: what is wrong", or "FILE: why it can't be read"
  std::vector<ConfigSetting> settings;
};

// Reads and parses path as TOML (via toml++). Syntax errors, tables, arrays,
// dates and a file that can't be read are errors naming the file (and the
// line where there is one).
ConfigFile read_config_file(const std::string& path);

// The same for TOML text already in memory; name stands for the file in errors.
ConfigFile parse_config_text(std::string_view text, const std::string& name);

// The TOML spelling of a string value: quoted, with escapes.
std::string toml_quote(std::string_view text);

}  // namespace ttt::cli
