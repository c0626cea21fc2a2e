// RoomOffers alone: a draw offer and a rematch request, taken up by the
// other side's own, declined, ended, or lapsing when a side is gone.
#include "game/room_offers.hpp"

#include <gtest/gtest.h>

namespace ttt::server {
namespace {

TEST(RoomOffers, AnOfferWaitsUntilTheOpponentOffersToo) {
  RoomOffers offers;
  EXPECT_FALSE(offers.offer_draw(Player::X));
  EXPECT_EQ(offers.draw_by(), wire::SIDE_X);
  EXPECT_FALSE(offers.offer_draw(Player::X)) << "one's own offer is not taken up by oneself";
  EXPECT_TRUE(offers.offer_draw(Player::O)) << "both offered: a draw agreed";
  EXPECT_EQ(offers.draw_by(), wire::SIDE_NONE);

  EXPECT_FALSE(offers.request_rematch(Player::O));
  EXPECT_EQ(offers.rematch_by(), wire::SIDE_O);
  EXPECT_TRUE(offers.request_rematch(Player::X));
  EXPECT_EQ(offers.rematch_by(), wire::SIDE_NONE);
}

TEST(RoomOffers, DeclinesTheOpponentsDrawOfferFirstThenItsRematchRequest) {
  RoomOffers offers;
  EXPECT_FALSE(offers.decline(Player::X)) << "nothing pending";
  offers.offer_draw(Player::O);
  offers.request_rematch(Player::O);
  EXPECT_FALSE(offers.decline(Player::O)) << "one's own offers are not declined";
  auto ended = offers.decline(Player::X);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->kind, wire::OFFER_KIND_DRAW);
  EXPECT_EQ(ended->by, wire::SIDE_O);
  EXPECT_EQ(ended->how, wire::OFFER_END_DECLINED);
  ended = offers.decline(Player::X);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->kind, wire::OFFER_KIND_REMATCH);
  EXPECT_EQ(offers.rematch_by(), wire::SIDE_NONE);
}

TEST(RoomOffers, EndsOnlyAnOfferThatIsPending) {
  RoomOffers offers;
  EXPECT_FALSE(offers.end(wire::OFFER_KIND_DRAW, wire::OFFER_END_MOVED));
  offers.offer_draw(Player::X);
  const auto ended = offers.end(wire::OFFER_KIND_DRAW, wire::OFFER_END_MOVED);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->by, wire::SIDE_X);
  EXPECT_EQ(ended->how, wire::OFFER_END_MOVED);
  EXPECT_EQ(offers.draw_by(), wire::SIDE_NONE);
}

TEST(RoomOffers, EveryOfferLapsesWhenASideIsGone) {
  RoomOffers offers;
  offers.offer_draw(Player::X);
  offers.request_rematch(Player::O);
  const auto ended = offers.lapse_without(Player::X);
  ASSERT_EQ(ended.size(), 2u);
  EXPECT_EQ(ended[0].kind, wire::OFFER_KIND_DRAW);
  EXPECT_EQ(ended[0].how, wire::OFFER_END_LEFT);
  EXPECT_EQ(ended[1].kind, wire::OFFER_KIND_REMATCH);
  EXPECT_EQ(ended[1].how, wire::OFFER_END_OPPONENT_LEFT);
  EXPECT_TRUE(offers.lapse_without(Player::O).empty());
}

TEST(RoomOffers, AGameOverDropsTheDrawOfferAndANewRoundEverything) {
  RoomOffers offers;
  offers.offer_draw(Player::X);
  offers.request_rematch(Player::X);
  offers.game_over();
  EXPECT_EQ(offers.draw_by(), wire::SIDE_NONE);
  EXPECT_EQ(offers.rematch_by(), wire::SIDE_X);
  offers.clear();
  EXPECT_EQ(offers.rematch_by(), wire::SIDE_NONE);
  offers.restore_draw(wire::SIDE_O);
  EXPECT_EQ(offers.draw_by(), wire::SIDE_O);
}

}  // namespace
}  // namespace ttt::server
