// Spectators: the people watching one room, by seat id; the cap on them;
// the rate their chat shares; and the count everyone hears, throttled so
// that a storm of arrivals costs the players one small message per
// interval, never a full state per arrival. Runs on the room's executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "game/player_ref.hpp"
#include "limits/rate_limiter.hpp"

namespace ttt::server {

struct SpectatorLimits {
  std::size_t most = 100;                        // 0 = no cap
  std::chrono::milliseconds count_every{1'000};  // the count at most this often
  double chat_per_second = 1.0;                  // all spectators' chat together...
  double chat_burst = 5.0;                       // ...and the burst it allows
};

class Spectators {
 public:
  // announce(count) tells everyone in the room how many watch now.
  using Announce = std::function<void(std::uint32_t count)>;
  Spectators(boost::asio::any_io_executor executor, SpectatorLimits limits, Announce announce);

  bool full() const noexcept { return limits_.most != 0 && watching_.size() >= limits_.most; }
  std::size_t size() const noexcept { return watching_.size(); }
  // How many of them connect from address key `address`.
  std::size_t from(const std::string& address) const noexcept;
  // The spectator, or null.
  const PlayerRef* find(SeatId id) const;
  PlayerRef* find(SeatId id);
  const std::map<SeatId, PlayerRef>& all() const noexcept { return watching_; }

  // Adds the spectator (or replaces it: watching again) and returns it.
  const PlayerRef& add(PlayerRef player);
  // Takes the spectator out; nullopt if it was not watching.
  std::optional<PlayerRef> remove(SeatId id);
  // Takes every spectator out and announces nothing more (the room closes).
  std::map<SeatId, PlayerRef> close();

  // One line of spectators' chat, within their shared rate.
  bool may_chat() { return chat_.allow(); }
  // The number watching changed: announced now, or when the throttle allows.
  void changed();

 private:
  void announce_now();

  SpectatorLimits limits_;
  Announce announce_;
  std::map<SeatId, PlayerRef> watching_;
  RateLimiter chat_;
  boost::asio::steady_timer timer_;
  bool due_ = false;  // the timer is set to announce
  bool closed_ = false;
  std::uint32_t sent_ = 0;
  std::chrono::steady_clock::time_point sent_at_{};
};

}  // namespace ttt::server
