#include "ttt/cli/config_file.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ttt::cli {
namespace {

// Config files are small; anything bigger is a mistake (a log, a database).
constexpr std::size_t kMaxConfigBytes = 1 << 20;

std::string at(const std::string& name, std::uint32_t line) {
  return name + ":" + std::to_string(line) + ": ";
}

// What a TOML value that no flag takes is called in an error.
std::string kind_of(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    default:
      return "a value";
  }
}

}  // namespace

ConfigFile parse_config_text(std::string_view text, const std::string& name) {
  ConfigFile file;
  auto fail = [&file](std::string error) {
    file.ok = false;
    file.error = std::move(error);
    file.settings.clear();
    return file;
  };
  toml::table table;
  try {
    table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    return fail(at(name, e.source().begin.line) + std::string(e.description()));
  }
  for (auto&& [key, node] : table) {
    ConfigSetting setting;
    setting.key = std::string(key.str());
    setting.line = key.source().begin.line;
    if (auto s = node.value_exact<std::string>()) {
      setting.value = *s;
    } else if (auto i = node.value_exact<std::int64_t>()) {
      setting.value = *i;
    } else if (auto d = node.value_exact<double>()) {
      setting.value = *d;
    } else if (auto b = node.value_exact<bool>()) {
      setting.value = *b;
    } else {
      return fail(at(name, setting.line) + "'" + setting.key + "' is " + kind_of(node) +
                  ": settings are top-level keys with one value, like port = 7777");
    }
    file.settings.push_back(std::move(setting));
  }
  // toml++ keeps keys sorted; errors read best in the file's own order.
  std::stable_sort(file.settings.begin(), file.settings.end(),
                   [](const ConfigSetting& a, const ConfigSetting& b) { return a.line < b.line; });
  return file;
}

ConfigFile read_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    ConfigFile file;
    file.ok = false;
    file.error = path + ": cannot read the config file: it is a directory";
    return file;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ConfigFile file;
    file.ok = false;
    file.error = path + ": cannot read the config file: " + std::strerror(errno);
    return file;
  }
  std::string text;
  text.reserve(4096);
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes) {
      ConfigFile file;
      file.ok = false;
      file.error =
          path + ": not a config file (larger than " + std::to_string(kMaxConfigBytes) + " bytes)";
      return file;
    }
  }
  if (in.bad()) {
    ConfigFile file;
    file.ok = false;
    file.error = path + ": cannot read the config file: " + std::strerror(errno);
    return file;
  }
  return parse_config_text(text, path);
}

std::string toml_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(byte));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace ttt::cli
