// The address a connection comes from, as the limits per address count it.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <string>

namespace ttt::server {

// The key under which limits per address are kept: an IPv4 address as
// written ("192.0.2.7"), or the /64 network of an IPv6 address
// ("2001:db8:1:2::/64": one subscriber usually holds a whole /64, so counting
// single IPv6 addresses would let one host take many shares). An IPv4-mapped
// IPv6 address counts as its IPv4 address.
std::string address_key(const boost::asio::ip::address& address);

// The wider network an address key belongs to, for limits in aggregate: the
// /48 of an IPv6 key ("2001:db8:1::/48": a site often holds a whole /48,
// 65,536 /64s), and for any other key the key itself (an IPv4 address).
std::string network_key(const std::string& address_key);

// How many times a limit per address the whole of one network (a /48) may
// use: enough for a household or office of several /64s, not for 65,536.
inline constexpr std::size_t kNetworkShare = 8;

}  // namespace ttt::server
