// The game list: pages that stay consistent while games come and go, every
// filter, private games shown to their own players only, and a page that
// stays small however many games there are.
#include "lobby/game_directory.hpp"

#include <gtest/gtest.h>

#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

Listing game(std::uint64_t id, int size, const std::string& x, const std::string& o = "",
             wire::GameStatus status = wire::GAME_STATUS_WAITING, bool rated = true,
             bool is_private = false, std::array<AccountId, 2> players = {}) {
  Listing l;
  l.summary.set_game_id(id);
  l.summary.set_size(size);
  l.summary.set_win_length(size);
  l.summary.set_x_name(x);
  l.summary.set_o_name(o);
  l.summary.set_status(status);
  l.summary.set_rated(rated);
  l.summary.set_is_private(is_private);
  l.players = players;
  return l;
}

std::vector<std::uint64_t> ids(const ListPage& page) {
  std::vector<std::uint64_t> out;
  for (const auto& g : page.games) out.push_back(g.game_id());
  return out;
}

TEST(GameDirectory, PagesFollowOneAnotherAndCountEveryMatch) {
  LocalGameDirectory directory;
  for (std::uint64_t id = 1; id <= 7; ++id)
    directory.publish(game(id, 3, "p" + std::to_string(id)));
  ListQuery query;
  query.page_size = 3;
  const ListPage first = directory.list(query);
  EXPECT_EQ(ids(first), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(first.total, 7u);
  EXPECT_EQ(number(first.next_after), 3u);
  // A game that ends between pages moves nothing: the next page starts after 3.
  directory.withdraw(GameId{2});
  query.after = first.next_after;
  const ListPage second = directory.list(query);
  EXPECT_EQ(ids(second), (std::vector<std::uint64_t>{4, 5, 6}));
  EXPECT_EQ(second.total, 6u);
  query.after = second.next_after;
  const ListPage last = directory.list(query);
  EXPECT_EQ(ids(last), (std::vector<std::uint64_t>{7}));
  EXPECT_EQ(number(last.next_after), 0u) << "the last page says so";
}

TEST(GameDirectory, FiltersBySizeRatedOpenAndName) {
  LocalGameDirectory directory;
  directory.publish(game(1, 3, "Alice"));
  directory.publish(game(2, 4, "bob", "", wire::GAME_STATUS_WAITING, false));
  directory.publish(game(3, 3, "carol", "ALICEBOT", wire::GAME_STATUS_IN_PROGRESS));
  directory.publish(game(4, 15, "dave", "erin", wire::GAME_STATUS_X_WON, false));
  ListQuery q;
  q.size = 3;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{1, 3}));
  q = {};
  q.win_length = 15;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{4}));
  q = {};
  q.rated = wire::RATED_NO;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{2, 4}));
  q.rated = wire::RATED_YES;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{1, 3}));
  q = {};
  q.open_only = true;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{1, 2}));
  q = {};
  q.name = "alice";  // ASCII case ignored, anywhere in either name
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_EQ(directory.list(q).total, 2u);
}

// A game published again (a player joins, the game starts, ends, is rated
// or not) is listed once, with what it is now, under the filters it passes
// now, whether or not the change moves it between indexes.
TEST(GameDirectory, AGamePublishedAgainIsListedOnceAsItIsNow) {
  LocalGameDirectory directory;
  directory.publish(game(1, 3, "alice"));
  directory.publish(game(2, 3, "bob"));
  ListQuery open;
  open.open_only = true;
  ListQuery rated;
  rated.rated = wire::RATED_YES;
  ListQuery unrated;
  unrated.rated = wire::RATED_NO;
  directory.publish(game(1, 3, "alice", "carol"));  // still waiting: the same indexes
  EXPECT_EQ(ids(directory.list(open)), (std::vector<std::uint64_t>{1, 2}));
  ASSERT_TRUE(directory.find(GameId{1}));
  EXPECT_EQ(directory.find(GameId{1})->summary.o_name(), "carol");
  EXPECT_EQ(directory.list(ListQuery{}).games[0].o_name(), "carol") << "the page reads it too";
  directory.publish(game(1, 3, "alice", "carol", wire::GAME_STATUS_IN_PROGRESS));
  EXPECT_EQ(ids(directory.list(open)), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(ids(directory.list(ListQuery{})), (std::vector<std::uint64_t>{1, 2}));
  directory.publish(game(1, 3, "alice", "carol", wire::GAME_STATUS_X_WON));
  EXPECT_EQ(ids(directory.list(rated)), (std::vector<std::uint64_t>{1, 2}));
  directory.publish(game(1, 3, "alice", "carol", wire::GAME_STATUS_X_WON, false));
  EXPECT_EQ(ids(directory.list(rated)), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(ids(directory.list(unrated)), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(directory.list(ListQuery{}).total, 2u);
  // A private game: listed to whoever is seated in it now.
  const AccountId dave{14}, erin{15}, fred{16};
  directory.publish(game(3, 3, "dave", "", wire::GAME_STATUS_WAITING, true, true, {dave, {}}));
  ListQuery as_erin;
  as_erin.viewer = erin;
  EXPECT_EQ(ids(directory.list(as_erin)), (std::vector<std::uint64_t>{1, 2}));
  directory.publish(
      game(3, 3, "dave", "erin", wire::GAME_STATUS_IN_PROGRESS, true, true, {dave, erin}));
  EXPECT_EQ(ids(directory.list(as_erin)), (std::vector<std::uint64_t>{1, 2, 3}));
  directory.publish(
      game(3, 3, "dave", "fred", wire::GAME_STATUS_IN_PROGRESS, true, true, {dave, fred}));
  EXPECT_EQ(ids(directory.list(as_erin)), (std::vector<std::uint64_t>{1, 2}));
  directory.withdraw(GameId{1});
  EXPECT_EQ(ids(directory.list(unrated)), (std::vector<std::uint64_t>{}));
  EXPECT_EQ(directory.size(), 2u);
}

TEST(GameDirectory, APrivateGameIsListedToItsPlayersOnly) {
  LocalGameDirectory directory;
  const AccountId alice{11}, bob{12}, eve{13};
  directory.publish(
      game(1, 3, "alice", "bob", wire::GAME_STATUS_IN_PROGRESS, true, true, {alice, bob}));
  directory.publish(game(2, 3, "carol"));
  ListQuery q;
  q.viewer = eve;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(directory.list(q).total, 1u) << "not even counted for others";
  q.viewer = bob;
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{1, 2}));
  q.viewer = AccountId{};
  EXPECT_EQ(ids(directory.list(q)), (std::vector<std::uint64_t>{2}));
}

TEST(GameDirectory, APrivateGameIsFoundByItsInviteKeyAndNothingByAnEmptyOne) {
  LocalGameDirectory directory;
  Listing secret = game(1, 3, "alice", "", wire::GAME_STATUS_WAITING, true, true);
  secret.invite_key = "k1";
  directory.publish(secret);
  directory.publish(game(2, 3, "carol"));  // public: no key
  ASSERT_TRUE(directory.find_by_invite("k1").has_value());
  EXPECT_EQ(directory.find_by_invite("k1")->summary.game_id(), 1u);
  EXPECT_FALSE(directory.find_by_invite("k2").has_value());
  EXPECT_FALSE(directory.find_by_invite("").has_value()) << "a public game has no key to match";
  directory.withdraw(GameId{1});
  EXPECT_FALSE(directory.find_by_invite("k1").has_value());
}

TEST(GameDirectory, AFullPageOfLongestNamesIsAFewKilobytes) {
  // The longest names there are (32 bytes of 4-byte characters), 100 to a
  // page (the server's cap): what a page can weigh, whatever other players do.
  LocalGameDirectory directory;
  std::string longest;
  for (int i = 0; i < 8; ++i) longest += "\xF0\x9F\x98\x80";
  for (std::uint64_t id = 1; id <= 5000; ++id) {
    directory.publish(
        game(id * 1'000'000'007ull, 15, longest, longest, wire::GAME_STATUS_IN_PROGRESS));
  }
  ListQuery q;
  q.page_size = 100;
  const ListPage page = directory.list(q);
  wire::ServerMessage message;
  message.set_in_reply_to(~0u);
  for (const auto& g : page.games) *message.mutable_game_list()->add_games() = g;
  message.mutable_game_list()->set_total(static_cast<std::uint32_t>(page.total));
  message.mutable_game_list()->set_next_after(number(page.next_after));
  const std::size_t bytes = wire::encode_frame(message).size();
  EXPECT_EQ(page.games.size(), 100u);
  EXPECT_LT(bytes, 16u * 1024) << "a page must stay far below any send queue";
}

TEST(GameDirectory, AFilteredPageComesFromItsIndexWithTheViewersPrivateGamesMerged) {
  LocalGameDirectory directory;
  const AccountId me{7};
  // Ten thousand 3x3 games, and a few others scattered among them.
  for (std::uint64_t id = 1; id <= 10'000; ++id) {
    const bool odd_one = id % 2500 == 0;
    directory.publish(game(id, odd_one ? 15 : 3, "p" + std::to_string(id)));
  }
  directory.publish(game(10'001, 15, "mine", "", wire::GAME_STATUS_WAITING, true, true, {me, {}}));
  ListQuery query;
  query.size = 15;
  query.page_size = 3;
  query.viewer = me;
  const ListPage first = directory.list(query);
  EXPECT_EQ(ids(first), (std::vector<std::uint64_t>{2500, 5000, 7500}));
  EXPECT_EQ(first.total, 5u) << "four public 15x15 games and the viewer's own private one";
  query.after = first.next_after;
  const ListPage second = directory.list(query);
  EXPECT_EQ(ids(second), (std::vector<std::uint64_t>{10'000, 10'001}));
  EXPECT_EQ(number(second.next_after), 0u);
  // A game that starts leaves the open ones' index; one that ends, every index.
  directory.publish(game(2500, 15, "p2500", "q", wire::GAME_STATUS_IN_PROGRESS));
  directory.withdraw(GameId{5000});
  query.after = GameId{};
  query.open_only = true;
  EXPECT_EQ(ids(directory.list(query)), (std::vector<std::uint64_t>{7500, 10'000, 10'001}));
  query.viewer = AccountId{8};
  EXPECT_EQ(directory.list(query).total, 2u) << "another viewer sees no private game";
}

TEST(GameDirectory, ANameFilterLooksAtABoundedNumberOfGamesAPage) {
  LocalGameDirectory directory;
  const std::uint64_t games = 3 * LocalGameDirectory::kNameScan;
  for (std::uint64_t id = 1; id <= games; ++id)
    directory.publish(game(id, 3, "p" + std::to_string(id)));
  directory.publish(game(games + 1, 3, "needle"));
  ListQuery query;
  query.name = "needle";
  query.page_size = 10;
  std::vector<std::uint64_t> found;
  int pages = 0;
  do {
    const ListPage page = directory.list(query);
    for (const std::uint64_t id : ids(page)) found.push_back(id);
    query.after = page.next_after;
    ++pages;
  } while (query.after != GameId{} && pages < 10);
  EXPECT_EQ(found, (std::vector<std::uint64_t>{games + 1}));
  EXPECT_EQ(pages, 4) << "a page looks at kNameScan games, then says where to go on";
}

}  // namespace
}  // namespace ttt::server
