// SeatReservations alone: places kept under a code, taken once, withdrawn
// when their time runs out, and counted per account and per address so one
// client can't keep a game's seats from everyone else.
#include "lobby/seat_reservations.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "game/game_room.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using testing::UnusedRoomDependencies;

SeatRequest join(std::uint64_t account, const std::string& address, GameId game = GameId{7}) {
  SeatRequest request;
  request.kind = SeatRequest::Kind::kJoin;
  request.game = game;
  request.account = AccountId{account};
  request.address = address;
  return request;
}

class SeatReservationsTest : public ::testing::Test {
 protected:
  SeatReservations& reservations(milliseconds hold = milliseconds(60'000)) {
    kept_ = std::make_unique<SeatReservations>(
        io_.get_executor(), hold, [this](Reservation r) { lapsed_.push_back(std::move(r)); });
    return *kept_;
  }
  std::shared_ptr<GameRoom> room(GameId id) {
    return std::make_shared<GameRoom>(id, RoomSettings{}, io_.get_executor(),
                                      RoomDependencies{deps_, deps_, deps_});
  }

  boost::asio::io_context io_;
  UnusedRoomDependencies deps_;
  std::vector<Reservation> lapsed_;
  std::unique_ptr<SeatReservations> kept_;
};

TEST_F(SeatReservationsTest, APlaceIsTakenOnceByItsCode) {
  auto& book = reservations();
  const std::string code = book.keep(join(1, "192.0.2.1"), nullptr);
  EXPECT_EQ(code.size(), 16u);
  ASSERT_NE(book.find(code), nullptr);
  EXPECT_EQ(book.find(code)->request.account, AccountId{1});
  const auto taken = book.take(code);
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->request.game, GameId{7});
  EXPECT_FALSE(book.take(code));
  EXPECT_EQ(book.find("not a code"), nullptr);
  EXPECT_EQ(book.size(), 0u);
}

TEST_F(SeatReservationsTest, AnAccountKeepsTwoPlacesAndAnAddressEight) {
  auto& book = reservations();
  EXPECT_FALSE(book.refusal(join(1, "192.0.2.1")));
  const std::string first = book.keep(join(1, "192.0.2.1"), nullptr);
  book.keep(join(1, "192.0.2.1"), nullptr);
  const auto refused = book.refusal(join(1, "192.0.2.1"));
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, "you have 2 seats kept at that node already: take them first");
  book.take(first);
  EXPECT_FALSE(book.refusal(join(1, "192.0.2.1"))) << "a place taken counts no more";
  for (std::uint64_t account = 2; account <= 8; ++account) {
    book.keep(join(account, "192.0.2.9"), nullptr);
  }
  EXPECT_FALSE(book.refusal(join(9, "192.0.2.9")));
  book.keep(join(9, "192.0.2.9"), nullptr);
  const auto address = book.refusal(join(10, "192.0.2.9"));
  ASSERT_TRUE(address);
  EXPECT_EQ(*address, "your address has 8 seats kept at that node already: take them first");
  EXPECT_FALSE(book.refusal(join(10, "192.0.2.10")));
}

TEST_F(SeatReservationsTest, AFreeSeatKeptIsKeptFromOthersUntilTaken) {
  auto& book = reservations();
  auto game = room(GameId{7});
  const std::string watch = [&] {
    SeatRequest request = join(1, "");
    request.kind = SeatRequest::Kind::kWatch;
    return book.keep(request, game);
  }();
  EXPECT_FALSE(book.seat_kept(GameId{7})) << "a spectator's place keeps no seat";
  const std::string seat = book.keep(join(2, ""), game);
  EXPECT_TRUE(book.seat_kept(GameId{7}));
  book.take(watch);
  EXPECT_TRUE(book.seat_kept(GameId{7})) << "the spectator's arrival leaves the seat kept";
  book.take(seat);
  EXPECT_FALSE(book.seat_kept(GameId{7}));
  book.keep(join(3, ""), game);
  book.game_gone(GameId{7});
  EXPECT_FALSE(book.seat_kept(GameId{7}));
}

TEST_F(SeatReservationsTest, AnUntakenPlaceLapsesAndTwoLapsesHoldTheAccountBack) {
  auto& book = reservations(milliseconds(1));
  book.keep(join(1, "192.0.2.1"), nullptr);
  book.keep(join(1, "192.0.2.1"), nullptr);
  io_.run();  // until both have lapsed: nothing else waits
  ASSERT_EQ(lapsed_.size(), 2u);
  EXPECT_EQ(lapsed_[0].request.account, AccountId{1});
  EXPECT_EQ(book.size(), 0u);
  const auto refused = book.refusal(join(1, "192.0.2.2"));
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->starts_with("seats kept for you were left untaken: try again in "))
      << *refused;
  const auto address = book.refusal(join(2, "192.0.2.1"));
  ASSERT_TRUE(address);
  EXPECT_TRUE(address->starts_with("seats kept for your address were left untaken")) << *address;
  EXPECT_FALSE(book.refusal(join(2, "192.0.2.2")));
}

TEST_F(SeatReservationsTest, ATakenPlaceNeverLapses) {
  auto& book = reservations(milliseconds(1));
  const std::string code = book.keep(join(1, ""), nullptr);
  ASSERT_TRUE(book.take(code));
  io_.run();
  EXPECT_TRUE(lapsed_.empty());
  EXPECT_FALSE(book.refusal(join(1, "")));
}

}  // namespace
}  // namespace ttt::server
