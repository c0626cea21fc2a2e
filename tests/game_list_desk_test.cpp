// GameListDesk alone: ListGames answered with one page of the directory, at
// the length asked within the server's bounds, filtered as asked, private
// games shown to their own players only; a list cut off from the other
// nodes and a too long name are refused with what was wrong.
#include "lobby/game_list_desk.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <string>
#include <vector>

#include "executor_check.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "support/recorded_replies.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using testing::RecordedReplies;
using testing::UnusedRoomDependencies;

// A directory whose other nodes can't be reached now.
class CutOffDirectory final : public GameDirectory {
 public:
  void publish(const Listing&) override {}
  void withdraw(GameId) override {}
  ListPage list(const ListQuery&) const override { return {}; }
  std::size_t size() const override { return 0; }
  std::optional<Listing> find(GameId) const override { return std::nullopt; }
  std::optional<Listing> find_by_invite(const std::string&) const override { return std::nullopt; }
  bool complete() const override { return false; }
};

Listing listing(std::uint64_t id, int size, bool is_private = false,
                AccountId player = AccountId{}) {
  Listing out;
  out.summary.set_game_id(id);
  out.summary.set_size(size);
  out.summary.set_win_length(size);
  out.summary.set_is_private(is_private);
  out.summary.set_status(wire::GAME_STATUS_WAITING);
  out.players[0] = player;
  return out;
}

class GameListDeskTest : public ::testing::Test {
 protected:
  wire::GameList list(const wire::ListGames& request) {
    auto& conn = replies_.conn(1);
    conn.received.clear();
    desk_.list(player_, request, 7);
    EXPECT_EQ(conn.received.size(), 1u);
    return conn.received.empty() ? wire::GameList{} : conn.received.back().game_list();
  }
  static std::vector<std::uint64_t> ids(const wire::GameList& list) {
    std::vector<std::uint64_t> out;
    for (const auto& game : list.games()) out.push_back(game.game_id());
    return out;
  }

  LocalGameDirectory directory_;
  RecordedReplies replies_;
  LobbyPlayer& player_ = replies_.add(1, "alice");
  GameListDesk desk_{directory_, replies_, ListPaging{2, 3}};
};

TEST_F(GameListDeskTest, APageHasTheDefaultLengthOrTheOneAskedWithinTheMost) {
  for (std::uint64_t id = 1; id <= 5; ++id) directory_.publish(listing(id, 3));
  const auto first = list(wire::ListGames{});
  EXPECT_EQ(ids(first), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(first.page_size(), 2u);
  EXPECT_EQ(first.total(), 5u);
  EXPECT_EQ(first.next_after(), 2u);
  wire::ListGames more;
  more.set_after(first.next_after());
  more.set_page_size(1000);
  const auto second = list(more);
  EXPECT_EQ(ids(second), (std::vector<std::uint64_t>{3, 4, 5}));
  EXPECT_EQ(second.page_size(), 3u) << "at most page_max";
  EXPECT_EQ(second.next_after(), 0u);
}

TEST_F(GameListDeskTest, FiltersAreTheRequestsAndPrivateGamesOnlyTheirPlayers) {
  directory_.publish(listing(1, 3));
  directory_.publish(listing(2, 15));
  directory_.publish(listing(3, 15, true, AccountId{1}));
  directory_.publish(listing(4, 15, true, AccountId{2}));
  wire::ListGames request;
  request.set_size(15);
  request.set_page_size(3);
  EXPECT_EQ(ids(list(request)), (std::vector<std::uint64_t>{2, 3}))
      << "alice's own private game, not another's";
}

TEST_F(GameListDeskTest, AListCutOffFromTheOtherNodesIsRefusedNotShownHalf) {
  CutOffDirectory cut_off;
  GameListDesk desk(cut_off, replies_, ListPaging{});
  desk.list(player_, wire::ListGames{}, 3);
  const wire::ServerMessage* error = replies_.conn(1).last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_CLUSTER_UNAVAILABLE);
  EXPECT_EQ(error->in_reply_to(), 3u);
}

TEST_F(GameListDeskTest, ATooLongNameToLookForIsABadRequest) {
  wire::ListGames request;
  request.set_name(std::string(kMaxNameBytes + 1, 'x'));
  desk_.list(player_, request, 4);
  const wire::ServerMessage* error = replies_.conn(1).last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_BAD_REQUEST);
}

TEST_F(GameListDeskTest, ARoomIsListedWithItsSeatsAndTheKeyOfItsCodeNotTheCode) {
  const ExecutorStandIn on_logic;  // as the server's logic thread (the sanitizer build checks)
  boost::asio::io_context io;
  UnusedRoomDependencies unused;
  RoomSettings settings;
  settings.is_private = true;
  settings.invite_code = "ABCD-EFGH-JKMN";
  GameRoom room(GameId{9}, settings, io.get_executor(), RoomDependencies{unused, unused, unused});
  const Listing listed = GameListDesk::listing_of(room);
  EXPECT_EQ(listed.summary.game_id(), 9u);
  EXPECT_TRUE(listed.summary.is_private());
  EXPECT_EQ(listed.invite_key, invite_key("abcdefghjkmn"));
  EXPECT_EQ(listed.invite_key.find("ABCD"), std::string::npos);
  EXPECT_TRUE(listed.node.empty());
}

TEST(ListPaging, ZeroAsksForTheDefaultAndNoPageIsEmptyOrPastTheMost) {
  const ListPaging paging{50, 100};
  EXPECT_EQ(paging.length(0), 50u);
  EXPECT_EQ(paging.length(1), 1u);
  EXPECT_EQ(paging.length(100), 100u);
  EXPECT_EQ(paging.length(4'000'000'000u), 100u);
  EXPECT_EQ((ListPaging{50, 0}).length(7), 1u) << "a page max of 0 still gives one";
}

}  // namespace
}  // namespace ttt::server
