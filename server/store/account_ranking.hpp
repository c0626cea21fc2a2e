// AccountRanking: the accounts that have played, in the leaderboard's order
// (established ratings first, then rating, games played, name), kept as
// their figures change: the leaderboard reads its first entries and a
// profile its rank without walking every account (O(log n) a change or a
// rank, O(log n + limit) a leaderboard).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>

#include "ids.hpp"
#include "records.hpp"

namespace ttt::server {

class AccountRanking {
 public:
  // The account's place after its figures changed (or it was first seen);
  // an account with no games is not ranked.
  void update(const StoredPlayer& account);
  void erase(AccountId account);

  // The first `limit` accounts, best first.
  std::vector<AccountId> top(std::size_t limit) const;
  // 1 for the best; 0 for an account not ranked.
  std::size_t rank(AccountId account) const;
  std::size_t size() const noexcept { return tree_.size(); }

 private:
  // What orders two accounts: smaller is better.
  struct Place {
    bool provisional = false;
    double rating = 0;
    std::int64_t games_played = 0;
    std::string name;
    AccountId id{};
    bool operator<(const Place& other) const noexcept;
  };
  using Tree =
      __gnu_pbds::tree<Place, __gnu_pbds::null_type, std::less<Place>, __gnu_pbds::rb_tree_tag,
                       __gnu_pbds::tree_order_statistics_node_update>;

  Tree tree_;
  std::unordered_map<AccountId, Place> places_;  // each ranked account's place in tree_
};

}  // namespace ttt::server
