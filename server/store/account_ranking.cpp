#include "store/account_ranking.hpp"

#include "lobby/account_store.hpp"

namespace ttt::server {

bool AccountRanking::Place::operator<(const Place& other) const noexcept {
  if (provisional != other.provisional) return !provisional;
  if (rating != other.rating) return rating > other.rating;
  if (games_played != other.games_played) return games_played > other.games_played;
  if (name != other.name) return name < other.name;
  return id < other.id;
}

void AccountRanking::update(const StoredPlayer& account) {
  const AccountId id = account_id(account);
  erase(id);
  if (account.games_played == 0) return;
  Place place{is_provisional(account), account.rating, account.games_played, account.name, id};
  tree_.insert(place);
  places_.emplace(id, std::move(place));
}

void AccountRanking::erase(AccountId account) {
  const auto it = places_.find(account);
  if (it == places_.end()) return;
  tree_.erase(it->second);
  places_.erase(it);
}

std::vector<AccountId> AccountRanking::top(std::size_t limit) const {
  std::vector<AccountId> ids;
  for (auto it = tree_.begin(); it != tree_.end() && ids.size() < limit; ++it) {
    ids.push_back(it->id);
  }
  return ids;
}

std::size_t AccountRanking::rank(AccountId account) const {
  const auto it = places_.find(account);
  return it == places_.end() ? 0 : tree_.order_of_key(it->second) + 1;
}

}  // namespace ttt::server
