// A room's spectators: the cap, the count everyone hears (throttled, so a
// storm of arrivals costs the players one small message a second, never a
// full state per arrival), the spectators' own chat, and the room's share
// of the log.
#include <spdlog/spdlog.h>

#include "game/game_room.hpp"

namespace ttt::server {

std::size_t GameRoom::spectators_from(const std::string& address) const noexcept {
  std::size_t n = 0;
  for (const auto& [id, spectator] : spectators_) n += spectator.address == address ? 1 : 0;
  return n;
}

bool GameRoom::spectators_full() const noexcept {
  return settings_.max_spectators != 0 && spectators_.size() >= settings_.max_spectators;
}

std::array<AccountId, 2> GameRoom::seated_accounts() const noexcept {
  std::array<AccountId, 2> accounts{};
  for (std::size_t i = 0; i < 2; ++i) {
    const PlayerRef& p = seats_[i].player;
    if (p.id != SeatId{} && !p.is_bot) accounts[i] = p.account;
  }
  return accounts;
}

void GameRoom::spectators_changed() {
  if (closed_ || spectator_count_due_) return;
  const auto now = std::chrono::steady_clock::now();
  const auto next = spectator_count_sent_at_ + settings_.spectator_count_every;
  if (now >= next) {
    send_spectator_count();
    return;
  }
  spectator_count_due_ = true;
  spectator_count_timer_.expires_at(next);
  spectator_count_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto room = weak.lock()) {
      room->spectator_count_due_ = false;
      room->send_spectator_count();
    }
  });
}

void GameRoom::send_spectator_count() {
  if (closed_) return;
  const auto count = static_cast<std::uint32_t>(spectators_.size());
  if (count == spectator_count_sent_) return;  // came and went in between
  spectator_count_sent_ = count;
  spectator_count_sent_at_ = std::chrono::steady_clock::now();
  wire::ServerMessage message;
  message.mutable_spectator_count()->set_game_id(id_);
  message.mutable_spectator_count()->set_spectators(count);
  broadcast(make_outbound(std::move(message)));
  links_.owner.room_changed(*this);
}

void GameRoom::broadcast_chat(const Outbound& message, AccountId speaker, bool from_spectator) {
  auto hears = [&](const PlayerRef& listener) {
    return links_.blocks == nullptr || !links_.blocks->blocks(listener.account, speaker);
  };
  for (const Seat& seat : seats_) {
    if ((!from_spectator || seat.player.hears_spectators) && hears(seat.player)) {
      send_to(seat.player, message);
    }
  }
  for (const auto& [id, spectator] : spectators_) {
    if (hears(spectator)) send_to(spectator, message);
  }
}

void GameRoom::note(const std::string& line) const {
  if (links_.log == nullptr || settings_.origin.empty()) {
    spdlog::info("{}", line);
    return;
  }
  const auto verdict = links_.log->check(settings_.origin);
  if (verdict.log)
    spdlog::info("{}{}", line, LogLimiter::suffix(settings_.origin, verdict.held_back));
}

}  // namespace ttt::server
