// The addresses of a lobby's nodes, as the user gives them (`--host
// HOST[:PORT][,HOST[:PORT]...]`) and as a node names another in a Redirect:
// a host name, an IPv4 address or an IPv6 address (in brackets when a port
// follows), and a port.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ttt::client {

struct ServerAddress {
  std::string host;  // a name or an address; an IPv6 address without brackets
  std::uint16_t port = 0;
  friend bool operator==(const ServerAddress&, const ServerAddress&) = default;
};

// How an address is shown (and keyed in known_servers): "host:port", or
// "[v6 address]:port".
std::string address_text(const ServerAddress& address);

// The most addresses one --host takes.
inline constexpr std::size_t kMaxServerAddresses = 16;

// The longest host name (RFC 1035's 253 characters).
inline constexpr std::size_t kMaxHostLength = 253;

// Why host can't name a server, or empty when it can: a name of letters,
// digits, '.', '-' and '_' (not starting with '.' or '-'), an IPv4 address,
// or an IPv6 address (without brackets), at most 253 characters. What is
// quoted of host in the reason is made printable.
std::string host_problem(std::string_view host);

struct ServerListParse {
  std::vector<ServerAddress> addresses;  // in the order given; empty on error
  std::string error;  // what was wrong and where, e.g. "'a:0' (entry 1 of 2): ..."
};

// A --host value: entries separated by commas (spaces around them ignored),
// each HOST, HOST:PORT, [V6] or [V6]:PORT, or an IPv6 address alone
// (default_port for entries without a port). An empty value or entry, a
// bad port, a host that can't be one (host_problem) or more than
// kMaxServerAddresses entries are errors naming the entry.
ServerListParse parse_server_list(std::string_view text, std::uint16_t default_port);

// The --host and --port flags of ttt-client and ttt-bot: host holds the
// --host text and port the --port value (the default for entries without
// one); afterwards host:port is the first entry (the lobby as the user
// names it) and others the rest. False with "--host: ..." in error.
bool apply_host_flag(std::string& host, std::uint16_t& port, std::vector<ServerAddress>& others,
                     std::string& error);

}  // namespace ttt::client
