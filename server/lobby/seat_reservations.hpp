// SeatReservations: the places this node keeps for players another node
// sends here (a seat of a game, a place among its spectators, or a place to
// challenge from), each under a code the player brings in its Hello, for a
// while; how many each account and address has kept; and those left
// untaken, held against them. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ids.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "lobby/cluster.hpp"

namespace ttt::server {

class GameRoom;

// A place kept for a player another node sends here.
struct Reservation {
  SeatRequest request;
  std::shared_ptr<GameRoom> room;  // null: a place to challenge from
  bool arriving = false;           // a client that says it is the player is being checked
};

class SeatReservations {
 public:
  // Places kept at once for one account and for one address.
  static constexpr std::size_t kMostPerAccount = 2;
  static constexpr std::size_t kMostPerAddress = 8;

  // A place is kept for `hold`; then it is withdrawn and `lapsed` is called
  // with it (on `executor`).
  using Lapsed = std::function<void(Reservation)>;
  SeatReservations(boost::asio::any_io_executor executor, std::chrono::milliseconds hold,
                   Lapsed lapsed);
  ~SeatReservations();
  SeatReservations(const SeatReservations&) = delete;
  SeatReservations& operator=(const SeatReservations&) = delete;

  // Why no place may be kept for the request now (its account or address
  // keeps as many as it may, or left two untaken lately: then one a
  // minute), or nullopt.
  std::optional<std::string> refusal(const SeatRequest& request) const;
  // Keeps a place (in `room`, or none) and returns its code.
  std::string keep(const SeatRequest& request, std::shared_ptr<GameRoom> room);
  // The place kept under `code`, or null.
  Reservation* find(const std::string& code);
  // Takes the place out (its player arrived); nullopt if none is kept.
  std::optional<Reservation> take(const std::string& code);
  // Whether a free seat of game `game` is kept for someone.
  bool seat_kept(GameId game) const { return kept_seats_.contains(game); }
  // The game is gone: no seat of it counts as kept (its places lapse unused).
  void game_gone(GameId game) { kept_seats_.erase(game); }
  std::size_t size() const noexcept { return kept_.size(); }

 private:
  struct Kept {
    Reservation reservation;
    std::unique_ptr<boost::asio::steady_timer> expiry;
  };
  // "account N" and, with an address, "address A".
  static std::vector<std::string> keys_of(const SeatRequest& request);
  void count(const SeatRequest& request, int change);
  // Out of every table; its timer stopped.
  Reservation withdraw(std::unordered_map<std::string, Kept>::iterator it);
  void expired(const std::string& code);

  boost::asio::any_io_executor executor_;
  std::chrono::milliseconds hold_;
  Lapsed lapsed_;
  std::unordered_map<std::string, Kept> kept_;           // by code
  std::unordered_map<std::string, std::size_t> counts_;  // by key_of
  KeyedRateLimiter lapses_{1.0 / 60, 2};                 // untaken, by key_of
  std::unordered_set<GameId> kept_seats_;                // games with a free seat kept
};

}  // namespace ttt::server
