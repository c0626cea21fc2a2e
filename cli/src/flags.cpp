#include "ttt/cli/flags.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <sstream>

#include "ttt/cli/config_file.hpp"

namespace ttt::cli {
namespace {

// What kind of value a flag takes, which decides the TOML type its key takes.
enum class Kind {
  Switch,   // no value; true or false in a file
  Text,     // a string (free text or one of a set of words)
  Number,   // a whole number
  Seconds,  // a whole or decimal number
};

}  // namespace

// One flag: what --help says about it, how a value is checked and stored (the
// same for the command line and the config file), and how its current value
// is written as TOML.
struct Flags::Spec {
  std::string name;        // "--port"
  std::string short_name;  // "-p" or ""
  std::string value_name;  // empty for switches
  std::string help;
  std::string default_text;
  Kind kind = Kind::Text;
  std::string expects;  // what a value must be, for type errors: "a whole number from 1 to 9"
  std::function<std::optional<std::string>(std::string_view)> set;  // error or nullopt
  std::function<std::optional<std::string>()> toml;                 // nullopt: not set
  CLI::Option* option = nullptr;

  std::string key() const { return name.substr(2); }
};

namespace {

// The shortest decimal text of a number of seconds held in milliseconds.
std::string seconds_text(std::chrono::milliseconds value) {
  char buffer[32];
  const double seconds = static_cast<double>(value.count()) / 1000.0;
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, seconds);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(seconds);
}

// A config value as the text a flag would have been given, if its TOML type
// fits the flag's kind. (A nan or inf of TOML becomes text the flag refuses.)
std::optional<std::string> as_flag_text(const ConfigSetting::Value& value, Kind kind) {
  if (const auto* b = std::get_if<bool>(&value)) {
    if (kind == Kind::Switch) return *b ? "true" : "false";
  } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
    if (kind == Kind::Number || kind == Kind::Seconds) return std::to_string(*i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, *d);
    if (kind == Kind::Seconds && ec == std::errc()) return std::string(buffer, end);
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    if (kind == Kind::Text) return *s;
  }
  return std::nullopt;
}

std::string type_name(const ConfigSetting::Value& value) {
  if (std::holds_alternative<bool>(value)) return "a boolean";
  if (std::holds_alternative<std::int64_t>(value)) return "a whole number";
  if (std::holds_alternative<double>(value)) return "a decimal number";
  return "a string";
}

}  // namespace

std::optional<std::int64_t> parse_int(std::string_view text, std::int64_t min, std::int64_t max) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

Flags::Flags(std::string program, std::string summary)
    : program_(std::move(program)),
      summary_(std::move(summary)),
      app_(std::make_unique<CLI::App>(summary_, program_)) {
  app_->set_help_flag("--help,-h", "this text");
  // As with most tools, a flag given twice takes its last value.
  app_->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app_->add_option("--config", config_path_)->type_name("FILE");
  app_->add_flag("--print-config", print_config_)->disable_flag_override();
  app_->add_flag("--version", version_)->disable_flag_override();
}

Flags::~Flags() = default;

void Flags::add(Spec spec) {
  const std::string names = spec.short_name.empty() ? spec.name : spec.name + "," + spec.short_name;
  if (spec.kind == Kind::Switch) {
    spec.option = app_->add_flag_function(
        names, [set = spec.set](std::int64_t) { set("true"); }, spec.help);
    spec.option->disable_flag_override();
  } else {
    // The value is checked and stored by spec.set, the same code that takes
    // it from a config file.
    spec.option = app_->add_option_function<std::string>(
        names,
        [set = spec.set, name = spec.name](const std::string& value) {
          if (auto error = set(value)) throw CLI::ValidationError(name + " " + *error);
        },
        spec.help);
    spec.option->type_name(spec.value_name);
  }
  specs_.push_back(std::move(spec));
}

void Flags::add_bool(std::string name, std::string short_name, bool* out, std::string help) {
  Spec spec{std::move(name), std::move(short_name), "",      std::move(help), "",
            Kind::Switch,    "true or false",       nullptr, nullptr,         nullptr};
  spec.set = [out](std::string_view v) -> std::optional<std::string> {
    // The command line gives "true" (presence); a config file true or false.
    *out = v != "false";
    return std::nullopt;
  };
  spec.toml = [out] { return std::optional<std::string>(*out ? "true" : "false"); };
  add(std::move(spec));
}

void Flags::add_string(std::string name, std::string short_name, std::string* out,
                       std::string value_name, std::string help, bool allow_empty) {
  Spec spec{std::move(name),
            std::move(short_name),
            std::move(value_name),
            std::move(help),
            *out,
            Kind::Text,
            "text",
            nullptr,
            nullptr,
            nullptr};
  spec.set = [out, allow_empty](std::string_view v) -> std::optional<std::string> {
    if (v.empty() && !allow_empty) return "must not be empty";
    *out = std::string(v);
    return std::nullopt;
  };
  spec.toml = [out, allow_empty]() -> std::optional<std::string> {
    if (out->empty() && !allow_empty) return std::nullopt;
    return toml_quote(*out);
  };
  add(std::move(spec));
}

void Flags::add_int(std::string name, std::string short_name, std::int64_t* out, std::int64_t min,
                    std::int64_t max, std::string value_name, std::string help) {
  const std::string range =
      "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  Spec spec{std::move(name),
            std::move(short_name),
            std::move(value_name),
            std::move(help),
            std::to_string(*out),
            Kind::Number,
            range,
            nullptr,
            nullptr,
            nullptr};
  spec.set = [out, min, max, range](std::string_view v) -> std::optional<std::string> {
    auto value = parse_int(v, min, max);
    if (!value) return "expects " + range + ", got '" + std::string(v) + "'";
    *out = *value;
    return std::nullopt;
  };
  spec.toml = [out] { return std::optional<std::string>(std::to_string(*out)); };
  add(std::move(spec));
}

void Flags::add_optional_int(std::string name, std::optional<std::int64_t>* out, std::int64_t min,
                             std::int64_t max, std::string value_name, std::string help,
                             std::string what) {
  if (what.empty())
    what = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  Spec spec{std::move(name),
            "",
            std::move(value_name),
            std::move(help),
            *out ? std::to_string(**out) : "",
            Kind::Number,
            what,
            nullptr,
            nullptr,
            nullptr};
  spec.set = [out, min, max, what](std::string_view v) -> std::optional<std::string> {
    auto value = parse_int(v, min, max);
    if (!value) return "expects " + what + ", got '" + std::string(v) + "'";
    *out = *value;
    return std::nullopt;
  };
  spec.toml = [out]() -> std::optional<std::string> {
    if (!*out) return std::nullopt;
    return std::to_string(**out);
  };
  add(std::move(spec));
}

void Flags::add_seconds(std::string name, std::chrono::milliseconds* out, double max_seconds,
                        std::string help) {
  std::ostringstream range;
  range << "seconds from 0 to " << max_seconds;
  Spec spec{std::move(name), "",          "SECONDS", std::move(help), seconds_text(*out),
            Kind::Seconds,   range.str(), nullptr,   nullptr,         nullptr};
  spec.set = [out, max_seconds,
              range = range.str()](std::string_view v) -> std::optional<std::string> {
    std::string text(v);
    std::istringstream in(text);
    double seconds = -1;
    in >> std::noskipws >> seconds;
    const bool whole = in && in.peek() == std::char_traits<char>::eof();
    if (text.empty() || !whole || !std::isfinite(seconds) || seconds < 0 || seconds > max_seconds) {
      return "expects " + range + ", got '" + text + "'";
    }
    *out = std::chrono::milliseconds(std::llround(seconds * 1000.0));
    return std::nullopt;
  };
  spec.toml = [out] { return std::optional<std::string>(seconds_text(*out)); };
  add(std::move(spec));
}

void Flags::add_choice(std::string name, std::string short_name, std::string* out,
                       std::vector<std::string> choices, std::string help) {
  std::string value_name;
  for (const auto& c : choices) value_name += (value_name.empty() ? "" : "|") + c;
  Spec spec{std::move(name), std::move(short_name),  value_name, std::move(help), *out,
            Kind::Text,      "one of " + value_name, nullptr,    nullptr,         nullptr};
  spec.set = [out, choices, value_name](std::string_view v) -> std::optional<std::string> {
    for (const auto& c : choices) {
      if (v == c) {
        *out = c;
        return std::nullopt;
      }
    }
    return "expects one of " + value_name + ", got '" + std::string(v) + "'";
  };
  spec.toml = [out]() -> std::optional<std::string> {
    if (out->empty()) return std::nullopt;  // a choice with no default, not given
    return toml_quote(*out);
  };
  add(std::move(spec));
}

ParseResult Flags::parse(int argc, const char* const* argv) {
  ParseResult result;
  auto fail = [&result](std::string message) {
    result.ok = false;
    result.error = std::move(message);
    return result;
  };
  try {
    app_->parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    result.help = true;
    return result;
  } catch (const CLI::ExtrasError&) {
    // The first word no flag takes: an unknown flag or a stray argument.
    const auto extras = app_->remaining();
    const std::string word = extras.empty() ? "" : extras.front();
    if (!word.starts_with("-")) return fail("unexpected argument '" + word + "'");
    return fail("unknown flag " + word.substr(0, word.find('=')));
  } catch (const CLI::ArgumentMismatch& e) {
    // A flag at the end with its value missing, or a switch given a value.
    const std::string what = e.what();
    for (const Spec& spec : specs_) {
      // CLI11 names the flag with or without its dashes.
      if (what.starts_with(spec.name + ":") || what.starts_with(spec.key() + " ") ||
          what.find(" " + spec.name) != std::string::npos) {
        if (spec.kind == Kind::Switch) return fail(spec.name + " takes no value");
        return fail(spec.name + " needs a value (" + spec.value_name + ")");
      }
    }
    return fail(e.what());
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }
  result.print_config = print_config_;
  result.version = version_;
  if (!config_path_.empty()) {
    if (auto error = read_config()) return fail(*error);
  }
  return result;
}

std::optional<std::string> Flags::read_config() {
  const ConfigFile file = read_config_file(config_path_);
  if (!file.ok) return file.error;
  for (const ConfigSetting& setting : file.settings) {
    const std::string where = config_path_ + ":" + std::to_string(setting.line) + ": ";
    const Spec* spec = nullptr;
    for (const Spec& s : specs_) {
      if (s.key() == setting.key) spec = &s;
    }
    if (spec == nullptr) {
      if (setting.key == "config" || setting.key == "print-config" || setting.key == "help") {
        return where + "'" + setting.key + "' can only be given on the command line";
      }
      return where + "unknown key '" + setting.key + "' (" + program_ +
             " --help lists the flags; each is a key without its dashes)";
    }
    const auto text = as_flag_text(setting.value, spec->kind);
    if (!text) {
      return where + "'" + setting.key + "' expects " + spec->expects + ", not " +
             type_name(setting.value);
    }
    if (auto error = spec->set(*text)) return where + "'" + setting.key + "' " + *error;
  }
  // The whole file is checked, then the command line wins over it.
  for (const Spec& spec : specs_) {
    if (spec.option->count() == 0) continue;
    const auto& given = spec.option->results();
    spec.set(spec.kind == Kind::Switch || given.empty() ? "true" : given.back());
  }
  return std::nullopt;
}

std::string Flags::usage() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [flags]\n" << summary_ << "\n\nflags:\n";
  auto line = [&out](std::string left, const std::string& help, const std::string& default_text) {
    left = "  " + left;
    out << left;
    if (left.size() < 30) {
      out << std::string(30 - left.size(), ' ');
    } else {
      out << "\n" << std::string(30, ' ');
    }
    out << help;
    if (!default_text.empty()) out << " (default: " << default_text << ")";
    out << "\n";
  };
  for (const Spec& spec : specs_) {
    std::string left = spec.name;
    if (!spec.short_name.empty()) left += ", " + spec.short_name;
    if (!spec.value_name.empty()) left += " " + spec.value_name;
    line(left, spec.help, spec.default_text);
  }
  line("--config FILE",
       "read settings from a TOML file: each flag is a key of the same name (port = 7777); "
       "flags given here win",
       "");
  line("--print-config", "print the effective settings (defaults, file, flags) as TOML and exit",
       "");
  line("--version", "print the program's name and version and exit", "");
  line("--help, -h", "this text", "");
  return out.str();
}

std::string Flags::effective_config() const {
  std::ostringstream out;
  out << "# " << program_ << ": effective settings (defaults, then --config FILE, then flags)\n";
  for (const Spec& spec : specs_) {
    if (auto value = spec.toml()) {
      out << spec.key() << " = " << *value << "\n";
    } else {
      out << "# " << spec.key() << " is not set\n";
    }
  }
  return out.str();
}

}  // namespace ttt::cli
