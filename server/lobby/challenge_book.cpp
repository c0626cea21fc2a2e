#include "lobby/challenge_book.hpp"

namespace ttt::server {
namespace {

void unlink(std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId player,
            std::uint64_t id) {
  const auto it = index.find(player);
  if (it == index.end()) return;
  it->second.erase(id);
  if (it->second.empty()) index.erase(it);
}

}  // namespace

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
    const std::unordered_map<SeatId, std::set<std::uint64_t>>& index, SeatId player) {
  const auto it = index.find(player);
  if (it == index.end()) return {};
  return {it->second.begin(), it->second.end()};
}

std::vector<std::uint64_t> ChallengeBook::made_by(SeatId player) const {
  return ids_of(by_from_, player);
}

std::vector<std::uint64_t> ChallengeBook::received_by(SeatId player) const {
  return ids_of(by_to_, player);
}

std::optional<std::uint64_t> ChallengeBook::latest_to(SeatId player) const {
  const auto it = by_to_.find(player);
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

std::size_t ChallengeBook::made_count(SeatId player) const {
  const auto it = by_from_.find(player);
  return it == by_from_.end() ? 0 : it->second.size();
}

}  // namespace ttt::server
