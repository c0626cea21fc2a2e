// The completion token of the server's coroutines for operations whose
// errors are expected (a peer gone, a timer cancelled): co_await gives back
// (error_code, results...) instead of throwing.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ttt::server {

inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace ttt::server
