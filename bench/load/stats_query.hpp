// Asks a ttt-server for its counters over a connection of its own.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>

#include "ttt.pb.h"

namespace ttt::bench {

// The server's ServerStats, or nullopt if it could not be had within 5 s.
boost::asio::awaitable<std::optional<wire::ServerStats>> query_stats(
    boost::asio::ip::tcp::endpoint server);

}  // namespace ttt::bench
