#include "lobby/new_name_allowance.hpp"

#include <algorithm>

#include "net/peer_address.hpp"

namespace ttt::server {

NewNameAllowance::NewNameAllowance(std::size_t per_hour)
    : per_hour_(per_hour),
      addresses_(static_cast<double>(per_hour) / 3600.0,
                 static_cast<double>(std::max<std::size_t>(per_hour, 1))),
      networks_(static_cast<double>(kNetworkShare * per_hour) / 3600.0,
                static_cast<double>(kNetworkShare * std::max<std::size_t>(per_hour, 1))) {}

std::optional<std::string> NewNameAllowance::spend(const std::string& address,
                                                   Clock::time_point now) {
  if (per_hour_ == 0 || address.empty()) return std::nullopt;
  const std::string network = network_key(address);
  const bool own_network = network != address;
  if (!addresses_.would_allow(address, now) ||
      (own_network && !networks_.would_allow(network, now))) {
    const double wait = std::max(addresses_.wait_seconds(address, now),
                                 own_network ? networks_.wait_seconds(network, now) : 0.0);
    const auto minutes = static_cast<long long>(wait / 60.0) + 1;
    return "your address has registered " + std::to_string(per_hour_) +
           " new names within the hour: try again in " + std::to_string(minutes) +
           " min, or use a name you already have";
  }
  addresses_.allow(address, now);
  if (own_network) networks_.allow(network, now);
  return std::nullopt;
}

}  // namespace ttt::server
