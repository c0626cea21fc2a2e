// AccountRanking against the leaderboard's order worked out by sorting every
// account, through many changes of figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "lobby/account_store.hpp"
#include "store/account_ranking.hpp"

namespace ttt::testing {
namespace {

using server::AccountId;
using server::AccountRanking;
using server::StoredPlayer;

// The leaderboard's order, spelled out: established first, then rating,
// games played, name.
bool ranks_above(const StoredPlayer& a, const StoredPlayer& b) {
  if (server::is_provisional(a) != server::is_provisional(b)) return !server::is_provisional(a);
  if (a.rating != b.rating) return a.rating > b.rating;
  if (a.games_played != b.games_played) return a.games_played > b.games_played;
  return a.name < b.name;
}

std::vector<AccountId> sorted_ids(const std::map<std::int64_t, StoredPlayer>& accounts) {
  std::vector<const StoredPlayer*> ranked;
  for (const auto& [id, p] : accounts) {
    if (p.games_played > 0) ranked.push_back(&p);
  }
  std::sort(ranked.begin(), ranked.end(),
            [](const StoredPlayer* a, const StoredPlayer* b) { return ranks_above(*a, *b); });
  std::vector<AccountId> ids;
  for (const StoredPlayer* p : ranked) ids.push_back(server::account_id(*p));
  return ids;
}

TEST(AccountRanking, FollowsEveryChangeAsASortOfAllAccountsWould) {
  std::mt19937 random(7);
  std::map<std::int64_t, StoredPlayer> accounts;
  AccountRanking ranking;
  for (std::int64_t id = 1; id <= 200; ++id) {
    StoredPlayer p;
    p.id = id;
    p.name = "p" + std::to_string(id);
    accounts[id] = p;
    ranking.update(p);
  }
  EXPECT_EQ(ranking.size(), 0u) << "nobody has played yet";
  for (int step = 0; step < 3000; ++step) {
    StoredPlayer& p = accounts[1 + static_cast<std::int64_t>(random() % 200)];
    // A game's result; ratings from a small set, so that ties are common.
    p.rating = 1100 + 25.0 * static_cast<double>(random() % 8);
    ++p.games_played;
    if (random() % 2 == 0) ++p.rated_games;
    ranking.update(p);
    if (step % 100 != 99) continue;
    const auto expected = sorted_ids(accounts);
    ASSERT_EQ(ranking.size(), expected.size());
    EXPECT_EQ(ranking.top(10),
              std::vector<AccountId>(
                  expected.begin(), expected.begin() + std::min<std::size_t>(10, expected.size())));
    EXPECT_EQ(ranking.top(1000), expected);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(ranking.rank(expected[i]), i + 1) << "step " << step;
    }
  }
  StoredPlayer& gone = accounts[5];
  ranking.erase(server::account_id(gone));
  EXPECT_EQ(ranking.rank(server::account_id(gone)), 0u);
  EXPECT_EQ(ranking.rank(AccountId{999}), 0u) << "an account never seen";
}

}  // namespace
}  // namespace ttt::testing
