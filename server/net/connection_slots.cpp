#include "net/connection_slots.hpp"

namespace ttt::server {

ConnectionSlots::ConnectionSlots(std::size_t max_total, std::size_t max_per_address)
    : max_total_(max_total), max_per_address_(max_per_address) {}

std::shared_ptr<void> ConnectionSlots::take(const std::string& address, Refusal& why) {
  {
    const std::lock_guard lock(mutex_);
    if (open_ >= max_total_) {
      why = Refusal::kServerFull;
      return nullptr;
    }
    std::size_t& mine = by_address_[address];
    if (max_per_address_ != 0 && mine >= max_per_address_) {
      why = Refusal::kAddressFull;
      return nullptr;
    }
    ++mine;
    ++open_;
  }
  why = Refusal::kNone;
  // The slot keeps the table alive: a session may outlive the listener.
  auto self = shared_from_this();
  void* const token = self.get();
  return std::shared_ptr<void>(token, [self, address](void*) { self->give_back(address); });
}

void ConnectionSlots::give_back(const std::string& address) {
  const std::lock_guard lock(mutex_);
  --open_;
  const auto found = by_address_.find(address);
  if (found != by_address_.end() && --found->second == 0) by_address_.erase(found);
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
