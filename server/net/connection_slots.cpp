#include "net/connection_slots.hpp"

#include "net/peer_address.hpp"

namespace ttt::server {

ConnectionSlots::ConnectionSlots(std::size_t max_total, std::size_t max_per_address)
    : max_total_(max_total), max_per_address_(max_per_address) {}

std::shared_ptr<void> ConnectionSlots::take(const std::string& address, Refusal& why) {
  const std::string network = network_key(address);
  const bool wider = network != address;
  {
    const std::lock_guard lock(mutex_);
    if (open_ >= max_total_) {
      why = Refusal::kServerFull;
      return nullptr;
    }
    std::size_t& mine = by_address_[address];
    std::size_t* ours = wider ? &by_network_[network] : nullptr;
    if (max_per_address_ != 0 &&
        (mine >= max_per_address_ || (ours && *ours >= kNetworkShare * max_per_address_))) {
      if (mine == 0) by_address_.erase(address);
      if (ours && *ours == 0) by_network_.erase(network);
      why = Refusal::kAddressFull;
      return nullptr;
    }
    ++mine;
    if (ours) ++*ours;
    ++open_;
  }
  why = Refusal::kNone;
  // The slot keeps the table alive: a session may outlive the listener.
  auto self = shared_from_this();
  void* const token = self.get();
  return std::shared_ptr<void>(
      token, [self, address, network](void*) { self->give_back(address, network); });
}

void ConnectionSlots::give_back(const std::string& address, const std::string& network) {
  const std::lock_guard lock(mutex_);
  --open_;
  const auto found = by_address_.find(address);
  if (found != by_address_.end() && --found->second == 0) by_address_.erase(found);
  if (network == address) return;
  const auto wide = by_network_.find(network);
  if (wide != by_network_.end() && --wide->second == 0) by_network_.erase(wide);
}

std::size_t ConnectionSlots::open() const {
  const std::lock_guard lock(mutex_);
  return open_;
}

std::size_t ConnectionSlots::open_from(const std::string& address) const {
  const std::lock_guard lock(mutex_);
  const auto found = by_address_.find(address);
  return found == by_address_.end() ? 0 : found->second;
}

std::size_t ConnectionSlots::addresses() const {
  const std::lock_guard lock(mutex_);
  return by_address_.size();
}

}  // namespace ttt::server
