// ChallengeBook: the challenges waiting for an answer, by id (oldest first),
// and by who made and who received them, so that a player's own are found
// without walking anyone else's. Runs on the logic executor.
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

class ChallengeBook {
 public:
  // Files a challenge under a new id (ids grow).
  std::uint64_t add(PendingChallenge challenge);
  // The challenge, or null.
  PendingChallenge* find(std::uint64_t id);
  // Takes the challenge out of the book; nullopt if it is not there.
  std::optional<PendingChallenge> take(std::uint64_t id);

  // The ids of the challenges `player` made, or received, oldest first.
  std::vector<std::uint64_t> made_by(SeatId player) const;
  std::vector<std::uint64_t> received_by(SeatId player) const;
  // The latest challenge to `player`, if any.
  std::optional<std::uint64_t> latest_to(SeatId player) const;
  // The challenge `from` made to `to`, if one stands.
  std::optional<std::uint64_t> between(SeatId from, SeatId to) const;
  std::size_t made_count(SeatId player) const;

  std::size_t size() const noexcept { return pending_.size(); }

 private:
  static std::vector<std::uint64_t> ids_of(
      const std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId player);

  std::map<std::uint64_t, PendingChallenge> pending_;
  std::unordered_map<SeatId, std::set<std::uint64_t>> by_from_;
  std::unordered_map<SeatId, std::set<std::uint64_t>> by_to_;
  std::uint64_t next_id_ = 1;
};

}  // namespace ttt::server
