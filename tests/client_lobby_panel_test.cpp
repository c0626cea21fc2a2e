// LobbyPanel: a full-screen terminal's lists are asked for every few
// seconds, one pair at a time, and handed over together.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/lobby_panel.hpp"

namespace ttt::client {
namespace {

using ttt::testing::FakeSender;

// A terminal that keeps the lobby's lists, as the full screen does.
class PanelTerminal : public Terminal {
 public:
  PanelTerminal() : Terminal(false, false, [](std::string_view) {}) {}
  bool shows_lobby() const override { return true; }
  void show_lobby(const wire::GameList& games, const wire::PlayerList& players) override {
    ++shown;
    games_shown = games.games_size();
    players_shown = players.players_size();
  }
  int shown = 0;
  int games_shown = 0;
  int players_shown = 0;
};

wire::ServerMessage reply(std::uint32_t to, bool games) {
  wire::ServerMessage m;
  m.set_in_reply_to(to);
  if (games) {
    m.mutable_game_list()->add_games()->set_game_id(3);
  } else {
    m.mutable_player_list()->add_players()->set_name("bob");
    m.mutable_player_list()->add_players()->set_name("carol");
  }
  return m;
}

TEST(LobbyPanel, BothListsAreAskedForAndHandedOverTogether) {
  PanelTerminal terminal;
  FakeSender sender;
  LobbyPanel panel(terminal, sender);
  const auto t0 = std::chrono::steady_clock::now();
  panel.refresh(t0);
  ASSERT_EQ(sender.sent.size(), 2u);
  EXPECT_TRUE(sender.sent[0].quiet && sender.sent[1].quiet) << "the player asked for nothing";
  EXPECT_EQ(sender.sent[0].message.list_games().page_size(), 20u);
  EXPECT_EQ(sender.sent[1].message.list_players().page_size(), 20u);

  EXPECT_TRUE(panel.take(reply(1, true)));
  EXPECT_EQ(terminal.shown, 0) << "the players' list is not in yet";
  EXPECT_TRUE(panel.take(reply(2, false)));
  EXPECT_EQ(terminal.shown, 1);
  EXPECT_EQ(terminal.games_shown, 1);
  EXPECT_EQ(terminal.players_shown, 2);
}

TEST(LobbyPanel, ItAsksAgainOnlyWhenTheAnswersAreInAndTimeHasPassed) {
  PanelTerminal terminal;
  FakeSender sender;
  LobbyPanel panel(terminal, sender);
  const auto t0 = std::chrono::steady_clock::now();
  panel.refresh(t0);
  panel.refresh(t0 + LobbyPanel::kEvery * 2);
  EXPECT_EQ(sender.sent.size(), 2u) << "the answers are not in";
  panel.take(reply(1, true));
  panel.take(reply(2, false));
  panel.refresh(t0 + std::chrono::seconds(1));
  EXPECT_EQ(sender.sent.size(), 2u) << "too soon";
  panel.refresh(t0 + LobbyPanel::kEvery);
  EXPECT_EQ(sender.sent.size(), 4u);
}

TEST(LobbyPanel, OtherMessagesAreNotThePanels) {
  PanelTerminal terminal;
  FakeSender sender;
  LobbyPanel panel(terminal, sender);
  EXPECT_FALSE(panel.take(reply(0, true))) << "an event";
  panel.refresh(std::chrono::steady_clock::now());
  EXPECT_FALSE(panel.take(reply(7, true))) << "another request's answer";
}

}  // namespace
}  // namespace ttt::client
