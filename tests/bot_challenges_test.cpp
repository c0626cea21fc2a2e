// BotChallenges: a bot that takes challenges takes those of the names it
// was given (any case) while it is free; its own challenge's end without a
// game ends its run, said once.
#include <gtest/gtest.h>

#include <sstream>

#include "bot/bot_challenges.hpp"

namespace ttt::client {
namespace {

wire::ChallengeOffer offer_from(const std::string& name) {
  wire::ChallengeOffer offer;
  offer.set_challenge_id(7);
  offer.set_from(name);
  return offer;
}

TEST(BotChallenges, ItTakesOnlyTheNamesGivenAndOnlyWhenFree) {
  BotOptions options;
  options.mode = BotMode::AcceptChallenges;
  options.accept_from = {"alice", "Carol"};
  std::ostringstream err;
  const BotChallenges challenges("bot", options, err);
  wire::ClientMessage answer = challenges.answer(offer_from("ALICE"), true);
  EXPECT_EQ(answer.answer_challenge().challenge_id(), 7u);
  EXPECT_TRUE(answer.answer_challenge().accept());
  EXPECT_TRUE(challenges.answer(offer_from("carol"), true).answer_challenge().accept());
  EXPECT_FALSE(challenges.answer(offer_from("bob"), true).answer_challenge().accept());
  EXPECT_FALSE(challenges.answer(offer_from("alice"), false).answer_challenge().accept())
      << "in a game";
  options.accept_from.clear();
  EXPECT_TRUE(challenges.answer(offer_from("bob"), true).answer_challenge().accept()) << "anyone's";
  EXPECT_EQ(err.str(), "");
}

TEST(BotChallenges, OtherBotsDeclineThemAll) {
  BotOptions options;
  options.mode = BotMode::QuickMatch;
  std::ostringstream err;
  const BotChallenges challenges("bot", options, err);
  EXPECT_FALSE(challenges.answer(offer_from("alice"), true).answer_challenge().accept());
}

TEST(BotChallenges, ItsOwnChallengeEndingWithoutAGameEndsTheRun) {
  BotOptions options;
  options.mode = BotMode::Challenge;
  options.opponent = "alice";
  std::ostringstream err;
  const BotChallenges challenges("bot-1", options, err);
  wire::ChallengeEnded ended;
  ended.set_challenged("Alice");
  ended.set_how(wire::CHALLENGE_END_DECLINED);
  EXPECT_FALSE(challenges.ends_run(ended, false)) << "in a game: a late end";
  EXPECT_EQ(err.str(), "");
  EXPECT_TRUE(challenges.ends_run(ended, true));
  EXPECT_EQ(err.str(), "ttt-bot: bot-1: the challenge to Alice declined\n");
  ended.set_challenged("bob");
  EXPECT_FALSE(challenges.ends_run(ended, true)) << "not its challenge";
}

TEST(BotChallenges, NamesCompareWithoutCase) {
  EXPECT_TRUE(same_name("Alice", "aLICE"));
  EXPECT_FALSE(same_name("alice", "alice2"));
  EXPECT_FALSE(same_name("alice", "alicf"));
}

}  // namespace
}  // namespace ttt::client
