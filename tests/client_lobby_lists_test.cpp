// LobbyLists: /list and /who a page at a time, with which part of the list
// a page is and how to get the next.
#include <gtest/gtest.h>

#include "client_support/command_parse.hpp"
#include "client_support/console_parts.hpp"
#include "console/lobby_lists.hpp"

namespace ttt::client {
namespace {

using ttt::testing::FakeSender;
using ttt::testing::has;
using ttt::testing::parsed;
using ttt::testing::Screen;

wire::PlayerList players_page(int first, int count, std::uint32_t total, std::string next) {
  wire::PlayerList page;
  for (int i = 0; i < count; ++i) {
    wire::PlayerPresence* p = page.add_players();
    p->set_name("player" + std::to_string(first + i));
  }
  page.set_total(total);
  page.set_next_after(std::move(next));
  return page;
}

class LobbyListsTest : public ::testing::Test {
 protected:
  Screen screen_;
  Pager pager_{screen_.terminal()};
  FakeSender sender_;
  WatchLinks links_{"ttt.example", 7777, true};
  LobbyLists lists_{screen_.terminal(), pager_, sender_, links_};
};

TEST_F(LobbyListsTest, WhoPagesFollowTheFilter) {
  EXPECT_TRUE(lists_.execute(parsed("/who ali")));
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_EQ(sender_.sent[0].message.list_players().name(), "ali");
  EXPECT_TRUE(sender_.sent[0].awaited);

  lists_.on_player_list(players_page(1, 2, 3, "player2"));
  EXPECT_TRUE(has(screen_.take(), "Players 1-2 of 3: /who next for more."));
  EXPECT_TRUE(lists_.execute(parsed("/who next")));
  ASSERT_EQ(sender_.sent.size(), 2u);
  EXPECT_EQ(sender_.sent[1].message.list_players().name(), "ali");
  EXPECT_EQ(sender_.sent[1].message.list_players().after(), "player2");

  lists_.on_player_list(players_page(3, 1, 3, ""));
  EXPECT_TRUE(has(screen_.take(), "Players 3-3 of 3."));
  EXPECT_TRUE(lists_.execute(parsed("/who next")));
  EXPECT_TRUE(has(screen_.take(), "There is no next page: /who shows the players online"));
  EXPECT_EQ(sender_.sent.size(), 2u);
}

TEST_F(LobbyListsTest, AWhoThatFitsOnePageHasNoFooter) {
  lists_.execute(parsed("/who"));
  lists_.on_player_list(players_page(1, 2, 2, ""));
  const std::string shown = screen_.take();
  EXPECT_TRUE(has(shown, "player1")) << shown;
  EXPECT_FALSE(has(shown, "Players 1-2")) << shown;
}

TEST_F(LobbyListsTest, AListTypedWhileAPageIsOnItsWayWaitsForIt) {
  EXPECT_TRUE(lists_.execute(parsed("/list")));
  EXPECT_TRUE(lists_.execute(parsed("/list 4")));
  EXPECT_EQ(sender_.sent.size(), 1u) << "the second waits for the first page";
  wire::GameList page;
  page.add_games()->set_game_id(1);
  page.set_total(1);
  lists_.on_game_list(page);
  ASSERT_EQ(sender_.sent.size(), 2u);
  EXPECT_EQ(sender_.sent[1].message.list_games().size(), 4);
}

TEST_F(LobbyListsTest, APageOfGamesSaysWhereABrowserWatchesThem) {
  wire::Welcome welcome;
  welcome.set_web_client(true);
  welcome.set_web_url("https://play.example");
  links_.welcomed(welcome);
  lists_.execute(parsed("/list"));
  wire::GameList page;
  page.add_games()->set_game_id(1);
  page.set_total(1);
  lists_.on_game_list(page);
  EXPECT_TRUE(has(screen_.take(), "In a browser: https://play.example/game/ID\n"));
}

TEST_F(LobbyListsTest, OtherCommandsAreNotTheLists) {
  EXPECT_FALSE(lists_.execute(parsed("/me")));
  EXPECT_TRUE(sender_.sent.empty());
}

}  // namespace
}  // namespace ttt::client
