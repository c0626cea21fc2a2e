// ChallengeBook alone: the challenges standing, found by who made and who
// received them, and the allowances that keep a player from flooding others
// with challenges.
#include "lobby/challenge_book.hpp"

#include <gtest/gtest.h>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

PendingChallenge challenge(std::uint64_t from, std::uint64_t to) {
  PendingChallenge made;
  made.from = SeatId{from};
  made.to = SeatId{to};
  return made;
}

TEST(ChallengeBook, FindsAPlayersChallengesMadeAndReceivedOldestFirst) {
  ChallengeBook book;
  const auto first = book.add(challenge(1, 2));
  const auto second = book.add(challenge(1, 3));
  const auto third = book.add(challenge(3, 2));
  EXPECT_LT(first, second);
  EXPECT_EQ(book.made_by(SeatId{1}), (std::vector<std::uint64_t>{first, second}));
  EXPECT_EQ(book.received_by(SeatId{2}), (std::vector<std::uint64_t>{first, third}));
  EXPECT_EQ(book.latest_to(SeatId{2}), third);
  EXPECT_EQ(book.between(SeatId{1}, SeatId{3}), second);
  EXPECT_FALSE(book.between(SeatId{3}, SeatId{1}));
  EXPECT_EQ(book.made_count(SeatId{1}), 2u);
  EXPECT_EQ(book.size(), 3u);
}

TEST(ChallengeBook, ATakenChallengeLeavesEveryIndex) {
  ChallengeBook book;
  const auto id = book.add(challenge(1, 2));
  const auto taken = book.take(id);
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->from, SeatId{1});
  EXPECT_FALSE(book.take(id)) << "taken once only";
  EXPECT_EQ(book.find(id), nullptr);
  EXPECT_TRUE(book.made_by(SeatId{1}).empty());
  EXPECT_TRUE(book.received_by(SeatId{2}).empty());
  EXPECT_FALSE(book.latest_to(SeatId{2}));
  EXPECT_EQ(book.size(), 0u);
  EXPECT_NE(book.add(challenge(1, 2)), id) << "ids are never reused";
}

TEST(ChallengeBook, TheSamePlayerIsChallengedAgainOnlyAfterTheCooldown) {
  ChallengeBook book(ChallengeLimits{0, seconds(30)});
  const auto t0 = ChallengeBook::Clock::now();
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "192.0.2.1", AccountId{2}, "bob", t0));
  const auto again = book.spend_allowance(AccountId{1}, "192.0.2.1", AccountId{2}, "bob", t0);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, "you challenged bob a moment ago: try again in 30 s");
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "192.0.2.1", AccountId{3}, "carol", t0))
      << "another player may be challenged at once";
  EXPECT_FALSE(book.spend_allowance(AccountId{2}, "192.0.2.1", AccountId{1}, "alice", t0))
      << "and the challenged may challenge back";
  EXPECT_FALSE(
      book.spend_allowance(AccountId{1}, "192.0.2.1", AccountId{2}, "bob", t0 + seconds(30)));
}

TEST(ChallengeBook, AnAcceptedChallengeLeavesThePairFreeToPlayAgain) {
  ChallengeBook book(ChallengeLimits{0, seconds(30)});
  const auto t0 = ChallengeBook::Clock::now();
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "", AccountId{2}, "bob", t0));
  book.accepted(AccountId{1}, AccountId{2});
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "", AccountId{2}, "bob", t0))
      << "the cooldown is for challenges that end without a game";
  EXPECT_TRUE(book.spend_allowance(AccountId{1}, "", AccountId{2}, "bob", t0));
}

TEST(ChallengeBook, AnAccountsChallengesAMinuteAreCountedAndARefusalCostsNothing) {
  ChallengeBook book(ChallengeLimits{2, milliseconds(0)});
  const auto t0 = ChallengeBook::Clock::now();
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "", AccountId{2}, "b", t0));
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "", AccountId{3}, "c", t0));
  const auto refused = book.spend_allowance(AccountId{1}, "", AccountId{4}, "d", t0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, "too many challenges: try again in 30 s");
  // Refusals spent nothing: one token is back after half a minute.
  for (int i = 0; i < 5; ++i) book.spend_allowance(AccountId{1}, "", AccountId{4}, "d", t0);
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "", AccountId{4}, "d", t0 + seconds(30)));
}

TEST(ChallengeBook, OneAddressIsLimitedAcrossItsAccounts) {
  ChallengeBook book(ChallengeLimits{1, milliseconds(0)});  // an address: 2 a minute
  const auto t0 = ChallengeBook::Clock::now();
  EXPECT_FALSE(book.spend_allowance(AccountId{1}, "192.0.2.7", AccountId{9}, "z", t0));
  EXPECT_FALSE(book.spend_allowance(AccountId{2}, "192.0.2.7", AccountId{9}, "z", t0));
  EXPECT_TRUE(book.spend_allowance(AccountId{3}, "192.0.2.7", AccountId{9}, "z", t0))
      << "a third account of the address waits";
  EXPECT_FALSE(book.spend_allowance(AccountId{3}, "192.0.2.8", AccountId{9}, "z", t0))
      << "another address does not";
}

TEST(ChallengeBook, NoLimitsAllowEveryChallenge) {
  ChallengeBook book(ChallengeLimits{0, milliseconds(0)});
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(book.spend_allowance(AccountId{1}, "192.0.2.1", AccountId{2}, "b"));
  }
}

}  // namespace
}  // namespace ttt::server
