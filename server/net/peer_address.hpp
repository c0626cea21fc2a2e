// The address a connection comes from, as the limits per address count it.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <string>

namespace ttt::server {

// The key under which limits per address are kept: an IPv4 address as
// written ("192.0.2.7"), or the /64 network of an IPv6 address
// ("2001:db8:1:2::/64": one subscriber usually holds a whole /64, so counting
// single IPv6 addresses would let one host take many shares). An IPv4-mapped
// IPv6 address counts as its IPv4 address.
std::string address_key(const boost::asio::ip::address& address);

}  // namespace ttt::server
