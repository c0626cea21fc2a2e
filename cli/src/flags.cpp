#include "ttt/cli/flags.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace ttt::cli {

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
    : program_(std::move(program)), summary_(std::move(summary)) {}

void Flags::add_bool(std::string name, std::string short_name, bool* out, std::string help) {
  specs_.push_back({std::move(name), std::move(short_name), "", std::move(help), "",
                    [out](std::string_view) -> std::optional<std::string> {
                      *out = true;
                      return std::nullopt;
                    }});
}

void Flags::add_string(std::string name, std::string short_name, std::string* out,
                       std::string value_name, std::string help, bool allow_empty) {
  std::string default_text = out->empty() ? "" : *out;
  specs_.push_back({std::move(name), std::move(short_name), std::move(value_name),
                    std::move(help), std::move(default_text),
                    [out, allow_empty](std::string_view v) -> std::optional<std::string> {
                      if (v.empty() && !allow_empty) return "must not be empty";
                      *out = std::string(v);
                      return std::nullopt;
                    }});
}

void Flags::add_int(std::string name, std::string short_name, std::int64_t* out, std::int64_t min,
                    std::int64_t max, std::string value_name, std::string help) {
  specs_.push_back({std::move(name), std::move(short_name), std::move(value_name),
                    std::move(help), std::to_string(*out),
                    [out, min, max](std::string_view v) -> std::optional<std::string> {
                      auto value = parse_int(v, min, max);
                      if (!value) {
                        return "expects a whole number from " + std::to_string(min) + " to " +
                               std::to_string(max) + ", got '" + std::string(v) + "'";
                      }
                      *out = *value;
                      return std::nullopt;
                    }});
}

void Flags::add_seconds(std::string name, std::chrono::milliseconds* out, double max_seconds,
                        std::string help) {
  std::ostringstream default_text;
  default_text << static_cast<double>(out->count()) / 1000.0;
  specs_.push_back(
      {std::move(name), "", "SECONDS", std::move(help), default_text.str(),
       [out, max_seconds](std::string_view v) -> std::optional<std::string> {
         std::string text(v);
         std::istringstream in(text);
         double seconds = -1;
         in >> std::noskipws >> seconds;
         const bool whole = in && in.peek() == std::char_traits<char>::eof();
         if (text.empty() || !whole || !std::isfinite(seconds) || seconds < 0 ||
             seconds > max_seconds) {
           std::ostringstream error;
           error << "expects seconds from 0 to " << max_seconds << ", got '" << text << "'";
           return error.str();
         }
         *out = std::chrono::milliseconds(std::llround(seconds * 1000.0));
         return std::nullopt;
       }});
}

void Flags::add_choice(std::string name, std::string short_name, std::string* out,
                       std::vector<std::string> choices, std::string help) {
  std::string value_name;
  for (const auto& c : choices) value_name += (value_name.empty() ? "" : "|") + c;
  specs_.push_back({std::move(name), std::move(short_name), value_name, std::move(help), *out,
                    [out, choices, value_name](std::string_view v) -> std::optional<std::string> {
                      for (const auto& c : choices) {
                        if (v == c) {
                          *out = c;
                          return std::nullopt;
                        }
                      }
                      return "expects one of " + value_name + ", got '" + std::string(v) + "'";
                    }});
}

const Flags::Spec* Flags::find(std::string_view arg) const {
  for (const Spec& spec : specs_) {
    if (arg == spec.name || (!spec.short_name.empty() && arg == spec.short_name)) return &spec;
  }
  return nullptr;
}

ParseResult Flags::parse(int argc, const char* const* argv) {
  ParseResult result;
  auto fail = [&](std::string message) {
    result.ok = false;
    result.error = std::move(message);
    return result;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      result.help = true;
      continue;
    }
    std::optional<std::string_view> inline_value;
    if (arg.starts_with("--")) {
      if (auto eq = arg.find('='); eq != std::string_view::npos) {
        inline_value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      }
    }
    const Spec* spec = find(arg);
    if (spec == nullptr) {
      if (!arg.starts_with("-")) return fail("unexpected argument '" + std::string(arg) + "'");
      return fail("unknown flag " + std::string(arg));
    }
    std::string_view value;
    if (spec->value_name.empty()) {
      if (inline_value) return fail(spec->name + " takes no value");
    } else if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return fail(std::string(arg) + " needs a value (" + spec->value_name + ")");
    }
    if (auto error = spec->set(value)) return fail(std::string(arg) + " " + *error);
  }
  return result;
}

std::string Flags::usage() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [flags]\n" << summary_ << "\n\nflags:\n";
  for (const Spec& spec : specs_) {
    std::string left = "  " + spec.name;
    if (!spec.short_name.empty()) left += ", " + spec.short_name;
    if (!spec.value_name.empty()) left += " " + spec.value_name;
    out << left;
    if (left.size() < 30) {
      out << std::string(30 - left.size(), ' ');
    } else {
      out << "\n" << std::string(30, ' ');
    }
    out << spec.help;
    if (!spec.default_text.empty()) out << " (default: " << spec.default_text << ")";
    out << "\n";
  }
  out << "  --help, -h                  this text\n";
  return out.str();
}

}  // namespace ttt::cli
