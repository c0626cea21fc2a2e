// Elo ratings with known values, and which results move ratings: not a
// game that ended before both players moved, not an established rating
// against a provisional account, less and less for the same pair again.
#include "game/rating.hpp"

#include <gtest/gtest.h>

#include "lobby/text_rules.hpp"
#include "store/stored_accounts.hpp"

namespace ttt::server {
namespace {

TEST(Rating, EqualPlayersExpectHalf) {
  EXPECT_DOUBLE_EQ(expected_score(1200, 1200), 0.5);
  EXPECT_NEAR(expected_score(1600, 1200), 0.909091, 1e-6);
  EXPECT_NEAR(expected_score(1200, 1600), 0.090909, 1e-6);
}

TEST(Rating, WinBetweenEqualsMovesSixteenPoints) {
  const RatingChange change = rate_game(1200, 1200, 1.0);
  EXPECT_DOUBLE_EQ(change.x, 1216);
  EXPECT_DOUBLE_EQ(change.o, 1184);
}

TEST(Rating, UpsetMovesMoreThanAnExpectedResult) {
  // 1400 vs 1200: X expects 0.7597; losing costs 32 × 0.7597 = 24.31.
  const RatingChange upset = rate_game(1400, 1200, 0.0);
  EXPECT_NEAR(upset.x, 1375.688, 1e-3);
  EXPECT_NEAR(upset.o, 1224.312, 1e-3);
  const RatingChange expected = rate_game(1400, 1200, 1.0);
  EXPECT_NEAR(expected.x, 1407.688, 1e-3);
}

TEST(Rating, DrawMovesTowardsEachOther) {
  const RatingChange draw = rate_game(1300, 1100, 0.5);
  EXPECT_LT(draw.x, 1300);
  EXPECT_GT(draw.o, 1100);
  EXPECT_DOUBLE_EQ(draw.x + draw.o, 2400);  // points are conserved
}

// An account store without a database, with two players and a clock.
class RatingRules : public ::testing::Test {
 protected:
  RatingRules() : accounts_(nullptr, name_key) {
    accounts_.set_clock([this] { return now_ms_; });
    alice_ = add("alice");
    bob_ = add("bob");
  }
  AccountId add(const std::string& name, std::int64_t rated_games = 0, double rating = 1200) {
    StoredPlayer p;
    p.name = name;
    p.rated_games = rated_games;
    p.rating = rating;
    return account_id(accounts_.create(p));
  }
  // x beats o in a rated game of `moves` moves, settled and stored.
  void x_wins(AccountId x, AccountId o, int moves = 5) {
    const auto s =
        accounts_.settle(x, o, GameResult{Player::X, wire::END_REASON_LINE}, true, moves);
    ASSERT_TRUE(s);
    accounts_.settled(*s, true);
  }
  double rating(AccountId id) { return accounts_.rating(id); }
  // An established account that has played kVariedOpponents others (fresh
  // accounts, which don't move its rating).
  AccountId varied(const std::string& name, double rating = 1200) {
    const AccountId id = add(name, kProvisionalGames, rating);
    for (int i = 0; i < kVariedOpponents; ++i) x_wins(id, add(name + "." + std::to_string(i)));
    return id;
  }

  StoredAccounts accounts_;
  std::int64_t now_ms_ = 1'700'000'000'000;
  AccountId alice_{}, bob_{};
};

TEST_F(RatingRules, AGameEndedBeforeBothPlayersMovedTwiceChangesNoRating) {
  // One move each and a resignation (the rating farm's game) says nothing.
  for (int moves : {0, 1, 2, 3}) {
    const auto s = accounts_.settle(
        alice_, bob_, GameResult{Player::O, wire::END_REASON_RESIGNATION}, true, moves);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->rated);
    EXPECT_EQ(s->x.rating_change, 0);
    EXPECT_EQ(s->o.rating_change, 0);
    accounts_.settled(*s, true);
  }
  EXPECT_EQ(rating(alice_), 1200);
  EXPECT_EQ(rating(bob_), 1200);
  EXPECT_EQ(accounts_.get(bob_)->wins, 4) << "the result still counts as a game won";
  EXPECT_EQ(accounts_.get(bob_)->rated_games, 0);
  x_wins(alice_, bob_, 4);  // both moved twice: rated
  EXPECT_EQ(rating(alice_), 1216);
  EXPECT_EQ(accounts_.get(alice_)->rated_games, 1);
}

TEST_F(RatingRules, ASettlementSaysWhyARatingMovedLess) {
  const auto first =
      accounts_.settle(alice_, bob_, GameResult{Player::X, wire::END_REASON_LINE}, true, 5);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->x_note, wire::RATING_NOTE_NONE);
  accounts_.settled(*first, true);
  for (int nth = 2; nth <= 5; ++nth) {
    const auto again =
        accounts_.settle(alice_, bob_, GameResult{Player::X, wire::END_REASON_LINE}, true, 5);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->x_note, wire::RATING_NOTE_REPEAT);
    EXPECT_EQ(again->o_note, wire::RATING_NOTE_REPEAT);
    EXPECT_EQ(again->repeat_game, nth);
    accounts_.settled(*again, true);
  }
  const auto short_game =
      accounts_.settle(alice_, bob_, GameResult{Player::O, wire::END_REASON_RESIGNATION}, true, 1);
  ASSERT_TRUE(short_game);
  EXPECT_EQ(short_game->x_note, wire::RATING_NOTE_TOO_SHORT);
  const AccountId champion = add("champion", kProvisionalGames, 1500);
  const AccountId fresh = add("fresh");
  const auto newcomer =
      accounts_.settle(champion, fresh, GameResult{Player::X, wire::END_REASON_LINE}, true, 5);
  ASSERT_TRUE(newcomer);
  EXPECT_EQ(newcomer->x_note, wire::RATING_NOTE_PROVISIONAL_OPPONENT) << "the champion's held";
  EXPECT_EQ(newcomer->o_note, wire::RATING_NOTE_NONE) << "the newcomer's moves";
}

TEST_F(RatingRules, AnEstablishedRatingIsNotMovedByAProvisionalAccount) {
  const AccountId champion = add("champion", kProvisionalGames, 1500);
  const AccountId fresh = add("fresh");
  EXPECT_TRUE(is_provisional(*accounts_.get(fresh)));
  EXPECT_FALSE(is_provisional(*accounts_.get(champion)));
  x_wins(champion, fresh);
  EXPECT_EQ(rating(champion), 1500) << "beating a newcomer proves nothing";
  EXPECT_LT(rating(fresh), 1200) << "the newcomer's own rating moves";
  x_wins(fresh, champion);
  EXPECT_EQ(rating(champion), 1500) << "nor does losing to one";
}

// The rating farm: fresh accounts, each from an address of its own, become
// established by playing rated games against one partner, then each loses
// to the champion. They had few different opponents: the champion gains
// little. The same champion beating established accounts that played many
// others gains as usual.
TEST_F(RatingRules, AFarmOfAccountsThatPlayedFewOthersMovesAChampionLittle) {
  const AccountId champion = varied("champion", 1500);
  ASSERT_EQ(rating(champion), 1500) << "provisional opponents never moved it";
  constexpr int kFarm = 20;
  std::vector<AccountId> farm;
  for (int pair = 0; pair < kFarm / 2; ++pair) {
    const AccountId a = add("farm" + std::to_string(2 * pair));
    const AccountId b = add("farm" + std::to_string(2 * pair + 1));
    // Established after kProvisionalGames rated games, all against each other.
    for (int game = 0; game < kProvisionalGames; ++game) {
      x_wins(game % 2 == 0 ? a : b, game % 2 == 0 ? b : a);
      now_ms_ += 60'000;
    }
    farm.insert(farm.end(), {a, b});
  }
  for (AccountId account : farm) {
    ASSERT_FALSE(is_provisional(*accounts_.get(account)));
    ASSERT_EQ(accounts_.get(account)->opponents.size(), 1u);
  }
  for (AccountId account : farm) {
    const auto s = accounts_.settle(champion, account,
                                    GameResult{Player::X, wire::END_REASON_RESIGNATION}, true, 4);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->x_note, wire::RATING_NOTE_FEW_OPPONENTS);
    EXPECT_EQ(s->x_variety, 1) << "the account had played one other";
    EXPECT_EQ(s->o_note, wire::RATING_NOTE_NONE) << "the champion is varied";
    accounts_.settled(*s, true);
  }
  // In full, 20 wins of a 1500 against 1200s would add about 85.
  EXPECT_LT(rating(champion) - 1500, 12.0) << "20 farmed wins move the champion little";
  EXPECT_GT(rating(champion), 1500) << "but they are results";

  // The normal case: established accounts that played many others.
  const AccountId rival = varied("rival", 1500);
  for (int i = 0; i < 3; ++i) {
    const AccountId other = varied("other" + std::to_string(i));
    const double full_gain = kEloK * (1 - expected_score(rating(rival), rating(other)));
    const auto s =
        accounts_.settle(rival, other, GameResult{Player::X, wire::END_REASON_LINE}, true, 5);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->x_note, wire::RATING_NOTE_NONE);
    EXPECT_NEAR(s->x.rating_change, full_gain, 1e-9) << "a varied account counts in full";
    EXPECT_NEAR(s->o.rating_change, -full_gain, 1e-9);
    accounts_.settled(*s, true);
  }
}

TEST_F(RatingRules, FewOpponentsWeighByTenthsAndAddUpOnceEach) {
  EXPECT_EQ(variety_weight(0), 0.0);
  EXPECT_DOUBLE_EQ(variety_weight(3), 0.3);
  EXPECT_EQ(variety_weight(kVariedOpponents), 1.0);
  EXPECT_EQ(variety_weight(50), 1.0);
  // Opponents count once each, and no more than kVariedOpponents are kept.
  x_wins(alice_, bob_);
  x_wins(alice_, bob_);
  EXPECT_EQ(accounts_.get(alice_)->opponents, std::vector<std::int64_t>{accounts_.get(bob_)->id});
  for (int i = 0; i < 2 * kVariedOpponents; ++i) x_wins(alice_, add("o" + std::to_string(i)));
  EXPECT_EQ(std::ssize(accounts_.get(alice_)->opponents), kVariedOpponents);
  // A game that did not count (too short) adds no opponent.
  const AccountId carol = add("carol");
  const auto s =
      accounts_.settle(carol, bob_, GameResult{Player::X, wire::END_REASON_LINE}, true, 2);
  accounts_.settled(*s, true);
  EXPECT_TRUE(accounts_.get(carol)->opponents.empty());
  // Another node's figures add their opponents to those known here.
  StoredPlayer theirs = *accounts_.get(carol);
  theirs.games_played = 5;
  theirs.opponents = {accounts_.get(alice_)->id, accounts_.get(bob_)->id};
  accounts_.take_figures(theirs);
  EXPECT_EQ(accounts_.get(carol)->opponents.size(), 2u);
}

TEST_F(RatingRules, RepeatedResultsBetweenTheSamePairCountLessThenNothing) {
  std::vector<double> gains;
  for (int game = 0; game < 6; ++game) {
    const double before = rating(alice_);
    x_wins(alice_, bob_);
    gains.push_back(rating(alice_) - before);
    now_ms_ += 60'000;
  }
  EXPECT_NEAR(gains[0], 16.0, 1e-9);
  EXPECT_GT(gains[0], gains[1] * 1.5);  // half of what the ratings would give
  EXPECT_GT(gains[1], gains[2] * 1.5);
  EXPECT_GT(gains[2], gains[3] * 1.5);
  EXPECT_EQ(gains[4], 0.0) << "the fifth within a day counts for nothing";
  EXPECT_EQ(gains[5], 0.0);
  // Another opponent counts in full; and a day later, so does bob again.
  const AccountId carol = add("carol");
  const double before = rating(alice_);
  x_wins(alice_, carol);
  EXPECT_GT(rating(alice_) - before, 10.0);
  now_ms_ += kRepeatWindowMs;
  const double later = rating(alice_);
  x_wins(alice_, bob_);
  EXPECT_GT(rating(alice_) - later, 1.0);
}

TEST_F(RatingRules, ProvisionalAccountsComeAfterEstablishedOnesOnTheLeaderboard) {
  const AccountId champion = add("champion", kProvisionalGames, 1300);
  x_wins(champion, bob_);                             // played, so listed
  const AccountId climber = add("climber", 3, 1400);  // a newcomer rated higher
  x_wins(climber, add("victim"));
  ASSERT_GT(rating(climber), 1300);
  const auto board = accounts_.leaderboard(10);
  ASSERT_FALSE(board.empty());
  EXPECT_EQ(board.front().name, "champion");
}

TEST_F(RatingRules, ResultsAreToldAsFiguresAndAnotherNodesFiguresAreTakenWithoutSecrets) {
  std::vector<StoredPlayer> told;
  accounts_.on_figures([&told](const StoredPlayer& p) { told.push_back(p); });
  x_wins(alice_, bob_);
  ASSERT_EQ(told.size(), 2u) << "both players' figures, once the result is committed";
  EXPECT_EQ(told[0].name, "alice");
  EXPECT_EQ(told[0].wins, 1);
  EXPECT_EQ(told[0].rating, rating(alice_));
  EXPECT_EQ(told[1].losses, 1);
  EXPECT_EQ(told[1].opponents, std::vector<std::int64_t>{told[0].id}) << "shared with the result";
  // Another node's result for bob: taken as it is, his secret kept.
  StoredPlayer bob = *accounts_.get(bob_);
  const std::string secret = bob.secret_hash;
  bob.rating = 1100;
  bob.games_played = 7;
  bob.losses = 7;
  bob.secret_hash = "from elsewhere";
  accounts_.take_figures(bob);
  EXPECT_EQ(rating(bob_), 1100);
  EXPECT_EQ(accounts_.get(bob_)->games_played, 7);
  EXPECT_EQ(accounts_.get(bob_)->secret_hash, secret);
  // Figures older than those known here (fewer games) are not taken.
  bob.rating = 1300;
  bob.games_played = 6;
  accounts_.take_figures(bob);
  EXPECT_EQ(rating(bob_), 1100);
  EXPECT_EQ(accounts_.get(bob_)->games_played, 7);
  // An account made at another node: known by name here, without a secret.
  StoredPlayer dave;
  dave.id = 99;
  dave.name = "dave";
  dave.games_played = 1;
  dave.wins = 1;
  dave.salt = "salt";
  dave.secret_hash = "hash";
  accounts_.take_figures(dave);
  const StoredPlayer* known = accounts_.find(name_key("dave"));
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->wins, 1);
  EXPECT_TRUE(known->secret_hash.empty()) << "read from the records when dave arrives";
  EXPECT_EQ(accounts_.leaderboard(10).size(), 3u);
  // Another account under a name this node knows as someone else's: not taken.
  StoredPlayer impostor;
  impostor.id = 100;
  impostor.name = "alice";
  accounts_.take_figures(impostor);
  EXPECT_EQ(accounts_.get(AccountId{100}), nullptr);
  EXPECT_EQ(account_id(*accounts_.find(name_key("alice"))), alice_);
}

}  // namespace
}  // namespace ttt::server
