#include "link/server_list.hpp"

#include <boost/asio/ip/address_v6.hpp>
#include <cstdio>

#include "ttt/cli/flags.hpp"

namespace ttt::client {
namespace {

bool name_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

// A character as a message may quote it: 'x', or its byte in hex.
std::string quoted(char c) {
  if (c > ' ' && c < 0x7f) return std::string("'") + c + "'";
  char hex[16];
  std::snprintf(hex, sizeof hex, "byte 0x%02x", static_cast<unsigned char>(c));
  return hex;
}

// Text the user typed, quoted in a message: printable ASCII, anything
// else as '?', cut at 60 characters.
std::string shown(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, 60)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return "'" + out + (text.size() > 60 ? "...'" : "'");
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// One entry: false with the reason in error.
bool parse_entry(std::string_view entry, std::uint16_t default_port, ServerAddress& out,
                 std::string& error) {
  std::string_view host = entry;
  std::string_view port;
  bool has_port = false;
  if (entry.front() == '[') {
    const auto close = entry.find(']');
    if (close == std::string_view::npos) {
      error = "an IPv6 address opened with '[' needs its ']'";
      return false;
    }
    host = entry.substr(1, close - 1);
    const std::string_view rest = entry.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') {
      error = "only :PORT may follow ']'";
      return false;
    }
    if (host.find(':') == std::string_view::npos) {
      error = "brackets are for IPv6 addresses";
      return false;
    }
    has_port = !rest.empty();
    if (has_port) port = rest.substr(1);
  } else if (const auto colon = entry.find(':');
             colon != std::string_view::npos &&
             entry.find(':', colon + 1) == std::string_view::npos) {
    host = entry.substr(0, colon);
    port = entry.substr(colon + 1);
    has_port = true;
  }
  // Several colons without brackets: an IPv6 address alone.
  if (const std::string problem = host_problem(host); !problem.empty()) {
    error = "the host " + problem;
    return false;
  }
  out.host = std::string(host);
  out.port = default_port;
  if (has_port) {
    const auto number = cli::parse_int(port, 1, 65535);
    if (!number) {
      error = "the port must be a whole number from 1 to 65535" +
              std::string(port.empty() ? "" : ", not " + shown(port));
      return false;
    }
    out.port = static_cast<std::uint16_t>(*number);
  }
  return true;
}

}  // namespace

std::string address_text(const ServerAddress& address) {
  const bool v6 = address.host.find(':') != std::string::npos;
  return (v6 ? "[" + address.host + "]" : address.host) + ":" + std::to_string(address.port);
}

std::string host_problem(std::string_view host) {
  if (host.empty()) return "is empty";
  if (host.size() > kMaxHostLength) {
    return "is " + std::to_string(host.size()) + " characters long (at most " +
           std::to_string(kMaxHostLength) + ")";
  }
  if (host.find(':') != std::string_view::npos) {
    boost::system::error_code ec;
    boost::asio::ip::make_address_v6(std::string(host), ec);
    if (ec) return shown(host) + " is not an IPv6 address";
    return "";
  }
  for (const char c : host) {
    if (!name_character(c)) {
      return shown(host) + " contains " + quoted(c) +
             " (a host is a name of letters, digits, '.', '-' and '_', or an address)";
    }
  }
  if (host.front() == '.' || host.front() == '-') {
    return shown(host) + " starts with " + quoted(host.front());
  }
  return "";
}

ServerListParse parse_server_list(std::string_view text, std::uint16_t default_port) {
  ServerListParse result;
  if (trimmed(text).empty()) {
    result.error = "no address given (HOST, HOST:PORT or [IPv6]:PORT, separated by commas)";
    return result;
  }
  std::vector<std::string_view> entries;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    entries.push_back(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (entries.size() > kMaxServerAddresses) {
    result.error = std::to_string(entries.size()) + " addresses, at most " +
                   std::to_string(kMaxServerAddresses);
    return result;
  }
  const std::string of = " of " + std::to_string(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string_view entry = trimmed(entries[i]);
    const std::string which = "entry " + std::to_string(i + 1);
    if (entry.empty()) {
      result.error = which + " of " + shown(text) + " is empty";
      result.addresses.clear();
      return result;
    }
    ServerAddress address;
    std::string error;
    if (!parse_entry(entry, default_port, address, error)) {
      result.error = shown(entry) + " (" + which + of + "): " + error;
      result.addresses.clear();
      return result;
    }
    result.addresses.push_back(std::move(address));
  }
  return result;
}

bool apply_host_flag(std::string& host, std::uint16_t& port, std::vector<ServerAddress>& others,
                     std::string& error) {
  ServerListParse parsed = parse_server_list(host, port);
  if (!parsed.error.empty()) {
    error = "--host: " + parsed.error;
    return false;
  }
  host = parsed.addresses.front().host;
  port = parsed.addresses.front().port;
  others.assign(parsed.addresses.begin() + 1, parsed.addresses.end());
  return true;
}

}  // namespace ttt::client
