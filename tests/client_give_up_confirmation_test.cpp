// GiveUpConfirmation: on a terminal, /resign and /leave in a game in
// progress ask first; y carries them out, anything else plays on.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/give_up_confirmation.hpp"

namespace ttt::client {
namespace {

using testing::game_in_progress;
using testing::has;
using testing::joined;
using testing::Screen;

Command command(CommandKind kind) {
  Command c;
  c.kind = kind;
  return c;
}

class GiveUpConfirmationTest : public ::testing::Test {
 protected:
  GiveUpConfirmationTest() {
    game_.set_player(1);
    game_.join(joined(game_in_progress(), wire::SIDE_X), std::chrono::steady_clock::now());
  }

  Screen screen_{true, {24, 200}};  // wide: no line is wrapped
  CurrentGame game_;
  GiveUpConfirmation give_up_{screen_.terminal(), game_};
};

TEST_F(GiveUpConfirmationTest, ResigningAsksFirstAndYesCarriesItOut) {
  EXPECT_TRUE(give_up_.ask(command(CommandKind::Resign)));
  EXPECT_TRUE(has(screen_.take(),
                  "Resign game 4 against bob? Type y to confirm, anything else "
                  "to play on."));
  EXPECT_TRUE(give_up_.waiting());
  const auto confirmed = give_up_.answer(" Y ");
  ASSERT_TRUE(confirmed.has_value());
  EXPECT_EQ(confirmed->kind, CommandKind::Resign);
  EXPECT_FALSE(give_up_.waiting());
}

TEST_F(GiveUpConfirmationTest, LeavingSaysItResignsAndAnythingElsePlaysOn) {
  EXPECT_TRUE(give_up_.ask(command(CommandKind::Leave)));
  EXPECT_TRUE(has(screen_.take(), "Leave game 4 against bob? That resigns it."));
  EXPECT_FALSE(give_up_.answer("/draw").has_value());
  EXPECT_TRUE(has(screen_.take(), "Playing on."));
  EXPECT_FALSE(give_up_.waiting());
}

TEST_F(GiveUpConfirmationTest, OnlyAGameInProgressOnATerminalAsks) {
  EXPECT_FALSE(give_up_.ask(command(CommandKind::Draw))) << "not giving up";

  Screen script;  // line mode: nobody to ask
  GiveUpConfirmation scripted(script.terminal(), game_);
  EXPECT_FALSE(scripted.ask(command(CommandKind::Resign)));

  wire::GameState over = game_in_progress("XXXOOEEEE", wire::SIDE_O);
  over.set_status(wire::GAME_STATUS_X_WON);
  game_.update(over, std::chrono::steady_clock::now());
  EXPECT_FALSE(give_up_.ask(command(CommandKind::Leave))) << "nothing to lose";
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(GiveUpConfirmationTest, LeavingTheGameDropsTheQuestion) {
  give_up_.ask(command(CommandKind::Resign));
  give_up_.drop();
  EXPECT_FALSE(give_up_.waiting());
}

}  // namespace
}  // namespace ttt::client
