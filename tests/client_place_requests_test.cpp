// PlaceRequests: the place a reconnect lost is asked for again: an entry
// whose answer never came first, else the last place asked for; a game
// asked for again is not announced twice.
#include <gtest/gtest.h>

#include "console/place_requests.hpp"

namespace ttt::client {
namespace {

wire::ClientMessage quick_match() {
  wire::ClientMessage m;
  m.mutable_quick_match()->set_size(3);
  return m;
}

wire::ClientMessage join_game(std::uint64_t id) {
  wire::ClientMessage m;
  m.mutable_join_game()->set_game_id(id);
  return m;
}

wire::ClientMessage watch_game(std::uint64_t id) {
  wire::ClientMessage m;
  m.mutable_spectate()->set_game_id(id);
  return m;
}

TEST(PlaceRequests, AnUnansweredEntryIsAskedAgain) {
  PlaceRequests places;
  places.sent(CommandKind::Join, join_game(7), 3);
  const auto unanswered = places.take_unanswered({3});
  ASSERT_TRUE(unanswered.has_value());
  EXPECT_EQ(unanswered->join_game().game_id(), 7u);
  EXPECT_FALSE(places.take_unanswered({3}).has_value()) << "taken once";
  const auto again = places.to_ask_again(unanswered, false);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->has_join_game());
}

TEST(PlaceRequests, AnAnsweredEntryIsNotAskedAgain) {
  PlaceRequests places;
  places.sent(CommandKind::Join, join_game(7), 3);
  EXPECT_FALSE(places.take_unanswered({4, 5}).has_value());
  EXPECT_FALSE(places.to_ask_again(std::nullopt, true).has_value()) << "a join is no place kept";
}

TEST(PlaceRequests, TheLastPlaceIsAskedAgainWhenThePlayerHadOne) {
  PlaceRequests places;
  places.sent(CommandKind::Quick, quick_match(), 1);
  places.take_unanswered({});
  EXPECT_FALSE(places.to_ask_again(std::nullopt, false).has_value()) << "no place held";
  const auto again = places.to_ask_again(std::nullopt, true);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->has_quick_match());
  places.left();
  EXPECT_FALSE(places.to_ask_again(std::nullopt, true).has_value()) << "left: nothing to ask";
}

TEST(PlaceRequests, OtherCommandsAreNoPlace) {
  PlaceRequests places;
  wire::ClientMessage resign;
  resign.mutable_resign();
  places.sent(CommandKind::Resign, resign, 2);
  EXPECT_FALSE(places.take_unanswered({2}).has_value());
  EXPECT_FALSE(places.to_ask_again(std::nullopt, true).has_value());
}

TEST(PlaceRequests, AGameAskedForAgainIsNotAnnouncedTwice) {
  PlaceRequests places;
  places.asked_again(watch_game(9), 5);
  EXPECT_FALSE(places.rejoined(8));
  EXPECT_FALSE(places.rejoined(9)) << "asked once: the first Joined after it settles it";
  places.asked_again(watch_game(9), 6);
  EXPECT_TRUE(places.rejoined(9));
  const auto unanswered = places.take_unanswered({6});
  ASSERT_TRUE(unanswered.has_value()) << "asked again, it is an entry like any";
  EXPECT_TRUE(unanswered->has_spectate());
}

}  // namespace
}  // namespace ttt::client
