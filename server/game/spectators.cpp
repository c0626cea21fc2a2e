#include "game/spectators.hpp"

namespace ttt::server {

Spectators::Spectators(boost::asio::any_io_executor executor, SpectatorLimits limits,
                       Announce announce)
    : limits_(limits),
      announce_(std::move(announce)),
      chat_(limits.chat_per_second, limits.chat_burst),
      timer_(std::move(executor)) {}

std::size_t Spectators::from(const std::string& address) const noexcept {
  std::size_t n = 0;
  for (const auto& [id, spectator] : watching_) n += spectator.address == address ? 1 : 0;
  return n;
}

const PlayerRef* Spectators::find(SeatId id) const {
  const auto it = watching_.find(id);
  return it == watching_.end() ? nullptr : &it->second;
}

PlayerRef* Spectators::find(SeatId id) {
  const auto it = watching_.find(id);
  return it == watching_.end() ? nullptr : &it->second;
}

const PlayerRef& Spectators::add(PlayerRef player) {
  const SeatId id = player.id;
  return watching_.insert_or_assign(id, std::move(player)).first->second;
}

std::optional<PlayerRef> Spectators::remove(SeatId id) {
  const auto it = watching_.find(id);
  if (it == watching_.end()) return std::nullopt;
  PlayerRef gone = std::move(it->second);
  watching_.erase(it);
  return gone;
}

std::map<SeatId, PlayerRef> Spectators::close() {
  closed_ = true;
  timer_.cancel();
  auto all = std::move(watching_);
  watching_.clear();
  return all;
}

void Spectators::changed() {
  if (closed_ || due_) return;
  const auto now = std::chrono::steady_clock::now();
  const auto next = sent_at_ + limits_.count_every;
  if (now >= next) {
    announce_now();
    return;
  }
  due_ = true;
  timer_.expires_at(next);
  // The timer is this object's: destroyed with it, its wait ends aborted.
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    due_ = false;
    announce_now();
  });
}

void Spectators::announce_now() {
  if (closed_) return;
  const auto count = static_cast<std::uint32_t>(watching_.size());
  if (count == sent_) return;  // came and went in between
  sent_ = count;
  sent_at_ = std::chrono::steady_clock::now();
  announce_(count);
}

}  // namespace ttt::server
