// Asks a ttt-server for its counters over a connection of its own.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>
#include <string>

#include "ttt.pb.h"

namespace ttt::bench {

// The server's ServerStats, or nullopt if it could not be had within 5 s.
// operator_token: the server's --stats-token, without which the operator's
// counters (connections, memory) come back as 0.
boost::asio::awaitable<std::optional<wire::ServerStats>> query_stats(
    boost::asio::ip::tcp::endpoint server, std::string operator_token);

}  // namespace ttt::bench
