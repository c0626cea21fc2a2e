// ConnectionSlots: the connections open now, in all, per address (the key
// of net/peer_address.hpp: an IPv4 address, an IPv6 /64) and per network
// (an IPv6 /48: kNetworkShare times an address's share). A new connection
// takes a slot, or is refused because the server is full or its address or
// network has as many as it may; the slot comes back when the session holding
// it is destroyed, on whatever thread. One address filling its share never
// keeps another out. Thread-safe: a mutex held for a map lookup, never while
// calling out.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ttt::server {

class ConnectionSlots : public std::enable_shared_from_this<ConnectionSlots> {
 public:
  // max_per_address 0: no limit per address.
  ConnectionSlots(std::size_t max_total, std::size_t max_per_address);

  enum class Refusal { kNone, kServerFull, kAddressFull };

  // A slot for a connection from address (an address key): held until the
  // returned pointer (and its copies) go away; null with the reason in why
  // if none is free.
  std::shared_ptr<void> take(const std::string& address, Refusal& why);

  std::size_t open() const;
  std::size_t open_from(const std::string& address) const;
  // Addresses with a connection open (the table stays that small).
  std::size_t addresses() const;

  std::size_t max_total() const noexcept { return max_total_; }
  std::size_t max_per_address() const noexcept { return max_per_address_; }

 private:
  void give_back(const std::string& address, const std::string& network);

  const std::size_t max_total_;
  const std::size_t max_per_address_;
  mutable std::mutex mutex_;
  std::size_t open_ = 0;
  std::unordered_map<std::string, std::size_t> by_address_;
  std::unordered_map<std::string, std::size_t> by_network_;  // IPv6 /48s only
};

}  // namespace ttt::server
