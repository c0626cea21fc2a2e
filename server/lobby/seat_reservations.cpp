#include "lobby/seat_reservations.hpp"

#include "game/game_room.hpp"
#include "lobby/secrets.hpp"

namespace ttt::server {

SeatReservations::SeatReservations(boost::asio::any_io_executor executor,
                                   std::chrono::milliseconds hold, Lapsed lapsed)
    : executor_(std::move(executor)), hold_(hold), lapsed_(std::move(lapsed)) {}

SeatReservations::~SeatReservations() {
  for (auto& [code, kept] : kept_) kept.expiry->cancel();
}

std::vector<std::string> SeatReservations::keys_of(const SeatRequest& request) {
  std::vector<std::string> keys{"account " + std::to_string(number(request.account))};
  if (!request.address.empty()) keys.push_back("address " + request.address);
  return keys;
}

std::optional<std::string> SeatReservations::refusal(const SeatRequest& request) const {
  // Places kept per account and per address, and places left untaken held
  // against whoever asked: one client can't keep a game's seat from others.
  for (const std::string& key : keys_of(request)) {
    const bool address = key.starts_with("address ");
    const auto kept = counts_.find(key);
    const std::size_t most = address ? kMostPerAddress : kMostPerAccount;
    if (kept != counts_.end() && kept->second >= most) {
      return std::string(address ? "your address has" : "you have") + " " + std::to_string(most) +
             " seats kept at that node already: take them first";
    }
    if (!lapses_.would_allow(key)) {
      return std::string("seats kept for ") + (address ? "your address" : "you") +
             " were left untaken: try again in " +
             std::to_string(static_cast<long long>(lapses_.wait_seconds(key)) + 1) + " s";
    }
  }
  return std::nullopt;
}

std::string SeatReservations::keep(const SeatRequest& request, std::shared_ptr<GameRoom> room) {
  std::string code = random_hex(16);
  auto expiry = std::make_unique<boost::asio::steady_timer>(executor_, hold_);
  expiry->async_wait([this, code](boost::system::error_code ec) {
    if (!ec) expired(code);
  });
  if (room && request.kind != SeatRequest::Kind::kWatch) kept_seats_.insert(room->id());
  kept_[code] = Kept{Reservation{request, std::move(room), false}, std::move(expiry)};
  count(request, +1);
  return code;
}

Reservation* SeatReservations::find(const std::string& code) {
  const auto it = kept_.find(code);
  return it == kept_.end() ? nullptr : &it->second.reservation;
}

std::optional<Reservation> SeatReservations::take(const std::string& code) {
  const auto it = kept_.find(code);
  if (it == kept_.end()) return std::nullopt;
  return withdraw(it);
}

Reservation SeatReservations::withdraw(std::unordered_map<std::string, Kept>::iterator it) {
  Kept kept = std::move(it->second);
  kept_.erase(it);
  kept.expiry->cancel();
  count(kept.reservation.request, -1);
  if (kept.reservation.room && kept.reservation.request.kind != SeatRequest::Kind::kWatch) {
    kept_seats_.erase(kept.reservation.room->id());
  }
  return std::move(kept.reservation);
}

void SeatReservations::expired(const std::string& code) {
  const auto it = kept_.find(code);
  if (it == kept_.end()) return;
  Reservation lapsed = withdraw(it);
  // Untaken: held against the account and the address that asked.
  for (const std::string& key : keys_of(lapsed.request)) lapses_.allow(key);
  if (lapsed_) lapsed_(std::move(lapsed));
}

void SeatReservations::count(const SeatRequest& request, int change) {
  for (const std::string& key : keys_of(request)) {
    auto& count = counts_[key];
    count = change > 0 ? count + 1 : (count > 0 ? count - 1 : 0);
    if (count == 0) counts_.erase(key);
  }
}

}  // namespace ttt::server
