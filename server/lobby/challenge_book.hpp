// ChallengeBook: the challenges waiting for an answer, by id (oldest first),
// and by who made and who received them, so that a player's own are found
// without walking anyone else's; and how often each player, address and
// network may challenge. Runs on the logic executor.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "ids.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// One challenge waiting for its answer.
struct PendingChallenge {
  SeatId from{};
  SeatId to{};
  wire::Challenge settings;  // name: the challenged player's; size and win length resolved
  std::chrono::steady_clock::time_point expires{};
  std::shared_ptr<boost::asio::steady_timer> expiry;
};

// How often challenges may be made.
struct ChallengeLimits {
  // Challenges one player may make a minute (its address twice that, an
  // IPv6 /48 kNetworkShare times that); 0 = no limit.
  double per_minute = 10;
  // How long before a player may challenge the same player again after a
  // challenge that ended without a game (see accepted()); 0 = at once.
  std::chrono::milliseconds cooldown{30'000};
};

class ChallengeBook {
 public:
  using Clock = KeyedRateLimiter::Clock;

  // Challenges of one player that may stand at once.
  static constexpr std::size_t kMostStanding = 3;

  explicit ChallengeBook(ChallengeLimits limits = {});

  // Files a challenge under a new id (ids grow).
  std::uint64_t add(PendingChallenge challenge);
  // The challenge, or null.
  PendingChallenge* find(std::uint64_t id);
  // Takes the challenge out of the book; nullopt if it is not there.
  std::optional<PendingChallenge> take(std::uint64_t id);

  // The ids of the challenges `player` made, or received, oldest first.
  std::vector<std::uint64_t> made_by(SeatId who) const;
  std::vector<std::uint64_t> received_by(SeatId who) const;
  // The latest challenge to `player`, if any.
  std::optional<std::uint64_t> latest_to(SeatId who) const;
  // The challenge `from` made to `to`, if one stands.
  std::optional<std::uint64_t> between(SeatId from, SeatId to) const;
  std::size_t made_count(SeatId who) const;

  // Whether account `from`, connected from address key `address`, may
  // challenge account `to` (called `to_name`) now: within its own, its
  // address's and its network's rates, and not `to` again within the
  // cooldown. Nullopt, with one of each allowance spent, if it may; the
  // refusal's text (with the wait) if not, and nothing spent.
  std::optional<std::string> spend_allowance(AccountId from, const std::string& address,
                                             AccountId to, const std::string& to_name,
                                             Clock::time_point now = Clock::now());
  // A challenge of `from` to `to` was accepted: the cooldown is for
  // challenges that end without a game, so the pair may play again at once.
  void accepted(AccountId from, AccountId to);

  std::size_t size() const noexcept { return pending_.size(); }

 private:
  static std::vector<std::uint64_t> ids_of(
      const std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId who);

  std::map<std::uint64_t, PendingChallenge> pending_;
  std::unordered_map<SeatId, std::set<std::uint64_t>> by_from_;
  std::unordered_map<SeatId, std::set<std::uint64_t>> by_to_;
  std::uint64_t next_id_ = 1;

  ChallengeLimits limits_;
  KeyedRateLimiter made_;     // per account
  KeyedRateLimiter address_;  // per address key
  KeyedRateLimiter network_;  // per IPv6 /48
  KeyedRateLimiter pairs_;    // one account to the same other
};

}  // namespace ttt::server
