#include "lobby/challenge_book.hpp"

#include <algorithm>

#include "net/peer_address.hpp"

namespace ttt::server {
namespace {

void unlink(std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId who,
            std::uint64_t id) {
  const auto it = index.find(who);
  if (it == index.end()) return;
  it->second.erase(id);
  if (it->second.empty()) index.erase(it);
}

// The key of the cooldown between one challenger and one challenged account.
std::string pair_key(AccountId from, AccountId to) {
  return std::to_string(number(from)) + ">" + std::to_string(number(to));
}

}  // namespace

ChallengeBook::ChallengeBook(ChallengeLimits limits)
    : limits_(limits),
      made_(limits.per_minute / 60.0, limits.per_minute),
      address_(2 * limits.per_minute / 60.0, 2 * limits.per_minute),
      network_(2 * kNetworkShare * limits.per_minute / 60.0, 2 * kNetworkShare * limits.per_minute),
      pairs_(
          limits.cooldown.count() > 0 ? 1000.0 / static_cast<double>(limits.cooldown.count()) : 0.0,
          1.0) {}

std::optional<std::string> ChallengeBook::spend_allowance(AccountId from,
                                                          const std::string& address, AccountId to,
                                                          const std::string& to_name,
                                                          Clock::time_point now) {
  const bool rated = limits_.per_minute > 0;
  const bool cooled = limits_.cooldown.count() > 0;
  if (!rated && !cooled) return std::nullopt;
  const std::string account = std::to_string(number(from));
  const std::string pair = pair_key(from, to);
  const std::string network = network_key(address);
  // Every check first, then every spending: a refusal costs no allowance.
  double wait = 0;
  if (rated) {
    wait = std::max(wait, made_.wait_seconds(account, now));
    if (!address.empty()) {
      wait = std::max(wait, address_.wait_seconds(address, now));
      if (network != address) wait = std::max(wait, network_.wait_seconds(network, now));
    }
  }
  const double again = cooled ? pairs_.wait_seconds(pair, now) : 0.0;
  if (wait > 0 || again > 0) {
    const auto seconds = std::max(static_cast<long long>(std::max(wait, again) + 0.999), 1LL);
    return again >= wait ? "you challenged " + to_name + " a moment ago: try again in " +
                               std::to_string(seconds) + " s"
                         : "too many challenges: try again in " + std::to_string(seconds) + " s";
  }
  if (rated) {
    made_.allow(account, now);
    if (!address.empty()) {
      address_.allow(address, now);
      if (network != address) network_.allow(network, now);
    }
  }
  if (cooled) pairs_.allow(pair, now);
  return std::nullopt;
}

std::uint64_t ChallengeBook::add(PendingChallenge challenge) {
  const std::uint64_t id = next_id_++;
  by_from_[challenge.from].insert(id);
  by_to_[challenge.to].insert(id);
  pending_.emplace(id, std::move(challenge));
  return id;
}

PendingChallenge* ChallengeBook::find(std::uint64_t id) {
  const auto it = pending_.find(id);
  return it == pending_.end() ? nullptr : &it->second;
}

std::optional<PendingChallenge> ChallengeBook::take(std::uint64_t id) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return std::nullopt;
  PendingChallenge taken = std::move(it->second);
  pending_.erase(it);
  unlink(by_from_, taken.from, id);
  unlink(by_to_, taken.to, id);
  return taken;
}

std::vector<std::uint64_t> ChallengeBook::ids_of(
    const std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId who) {
  const auto it = index.find(who);
  if (it == index.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<std::uint64_t> ChallengeBook::made_by(SeatId who) const {
  return ids_of(by_from_, who);
}

std::vector<std::uint64_t> ChallengeBook::received_by(SeatId who) const {
  return ids_of(by_to_, who);
}

std::optional<std::uint64_t> ChallengeBook::latest_to(SeatId who) const {
  const auto it = by_to_.find(who);
  if (it == by_to_.end() || it->second.empty()) return std::nullopt;
  return *it->second.rbegin();
}

std::optional<std::uint64_t> ChallengeBook::between(SeatId from, SeatId to) const {
  const auto it = by_from_.find(from);
  if (it == by_from_.end()) return std::nullopt;
  for (const std::uint64_t id : it->second) {  // a few at most (kMaxChallengesEach)
    if (pending_.at(id).to == to) return id;
  }
  return std::nullopt;
}

std::size_t ChallengeBook::made_count(SeatId who) const {
  const auto it = by_from_.find(who);
  return it == by_from_.end() ? 0 : it->second.size();
}

void ChallengeBook::accepted(AccountId from, AccountId to) { pairs_.forget(pair_key(from, to)); }

}  // namespace ttt::server
