// OtherPlayers: challenges received with a bell (a muted player's declined
// unseen, its end unsaid), /decline of a challenge after the game's own
// offers, /block and /unblock answered after what was asked, /mute.
#include <gtest/gtest.h>

#include "client_support/command_parse.hpp"
#include "client_support/console_parts.hpp"
#include "console/other_players.hpp"

namespace ttt::client {
namespace {

using ttt::testing::FakeSender;
using ttt::testing::game_in_progress;
using ttt::testing::has;
using ttt::testing::parsed;
using ttt::testing::Screen;

wire::ServerMessage challenge_from(const std::string& name, std::uint64_t id) {
  wire::ServerMessage m;
  m.mutable_challenge_offer()->set_challenge_id(id);
  m.mutable_challenge_offer()->set_from(name);
  m.mutable_challenge_offer()->mutable_settings()->set_size(3);
  return m;
}

wire::ServerMessage challenge_ended(std::uint64_t id, const std::string& from) {
  wire::ServerMessage m;
  m.mutable_challenge_ended()->set_challenge_id(id);
  m.mutable_challenge_ended()->set_challenger(from);
  m.mutable_challenge_ended()->set_challenged("alice");
  m.mutable_challenge_ended()->set_how(wire::CHALLENGE_END_EXPIRED);
  return m;
}

wire::ServerMessage block_list(std::uint32_t in_reply_to, std::vector<std::string> names) {
  wire::ServerMessage m;
  m.set_in_reply_to(in_reply_to);
  wire::BlockList* list = m.mutable_block_list();
  for (auto& name : names) list->add_names(std::move(name));
  return m;
}

class OtherPlayersTest : public ::testing::Test {
 protected:
  OtherPlayersTest() { players_.set_own_name("alice"); }

  Screen screen_{true, {24, 200}};  // wide: no line is wrapped
  FakeSender sender_;
  OtherPlayers players_{screen_.terminal(), sender_};
};

TEST_F(OtherPlayersTest, AChallengeIsSaidWithABell) {
  EXPECT_TRUE(players_.on_message(challenge_from("bob", 4)));
  const std::string said = screen_.take();
  EXPECT_TRUE(has(said, "\a"));
  EXPECT_TRUE(has(said, "bob")) << said;
  EXPECT_TRUE(has(said, "/accept or /decline")) << said;
  EXPECT_TRUE(players_.on_message(challenge_ended(4, "bob")));
  EXPECT_TRUE(has(screen_.take(), "bob's challenge expired."));
}

TEST_F(OtherPlayersTest, AMutedPlayersChallengeIsDeclinedUnseen) {
  EXPECT_TRUE(players_.execute(parsed("/mute Bob"), nullptr));
  EXPECT_TRUE(has(screen_.take(),
                  "Muted Bob: their chat is hidden and their challenges declined "
                  "unseen, until /unmute Bob."));
  EXPECT_TRUE(players_.muted("bob")) << "names compare as the server's do";
  EXPECT_TRUE(players_.on_message(challenge_from("bob", 5)));
  EXPECT_EQ(screen_.take(), "");
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_TRUE(sender_.sent[0].quiet);
  EXPECT_EQ(sender_.sent[0].message.answer_challenge().challenge_id(), 5u);
  EXPECT_FALSE(sender_.sent[0].message.answer_challenge().accept());
  EXPECT_TRUE(players_.on_message(challenge_ended(5, "bob")));
  EXPECT_EQ(screen_.take(), "") << "its end is not said either";
}

TEST_F(OtherPlayersTest, MuteListsAndUnmuteAnswers) {
  players_.execute(parsed("/mute"), nullptr);
  EXPECT_TRUE(has(screen_.take(), "Nobody is muted."));
  players_.execute(parsed("/mute bob"), nullptr);
  players_.execute(parsed("/mute carol"), nullptr);
  players_.execute(parsed("/mute BOB"), nullptr);
  screen_.take();
  players_.execute(parsed("/mute"), nullptr);
  EXPECT_TRUE(has(screen_.take(), "Muted: bob; carol."));
  players_.execute(parsed("/unmute bob"), nullptr);
  EXPECT_TRUE(has(screen_.take(), "You hear bob again."));
  players_.execute(parsed("/unmute bob"), nullptr);
  EXPECT_TRUE(has(screen_.take(), "bob was not muted."));
  EXPECT_TRUE(sender_.sent.empty()) << "mutes are this client's own";
}

TEST_F(OtherPlayersTest, DeclineAnswersTheGamesOfferFirst) {
  EXPECT_FALSE(players_.execute(parsed("/decline"), nullptr)) << "no challenge: the game's";
  players_.on_message(challenge_from("bob", 6));
  wire::GameState offered = game_in_progress();
  offered.set_draw_offered_by(wire::SIDE_O);
  EXPECT_FALSE(players_.execute(parsed("/decline"), &offered)) << "the draw offer comes first";
  const wire::GameState plain = game_in_progress();
  EXPECT_TRUE(players_.execute(parsed("/decline"), &plain));
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_FALSE(sender_.sent[0].message.answer_challenge().accept());
  EXPECT_TRUE(players_.execute(parsed("/decline 9"), &offered)) << "a challenge named by id";
  EXPECT_EQ(sender_.sent[1].message.answer_challenge().challenge_id(), 9u);
}

TEST_F(OtherPlayersTest, BlockAnswersAreWordedAfterWhatWasAsked) {
  EXPECT_TRUE(players_.execute(parsed("/block bob"), nullptr));
  ASSERT_EQ(sender_.sent.size(), 1u);
  EXPECT_TRUE(sender_.sent[0].message.block().blocked());
  EXPECT_TRUE(players_.on_message(block_list(1, {"bob", "carol"})));
  EXPECT_TRUE(has(screen_.take(),
                  "bob is blocked: no challenges or chat from bob (blocked: bob, "
                  "carol)."));
  players_.execute(parsed("/unblock bob"), nullptr);
  EXPECT_FALSE(sender_.sent[1].message.block().blocked());
  players_.on_message(block_list(2, {"carol"}));
  EXPECT_TRUE(has(screen_.take(), "bob is not blocked (blocked: carol)."));
  players_.execute(parsed("/block"), nullptr);
  players_.on_message(block_list(3, {}));
  EXPECT_TRUE(has(screen_.take(), "Nobody is blocked."));
}

TEST_F(OtherPlayersTest, OtherMessagesAndCommandsAreNotTheirs) {
  wire::ServerMessage chat;
  chat.mutable_chat()->set_from("bob");
  EXPECT_FALSE(players_.on_message(chat));
  EXPECT_FALSE(players_.execute(parsed("/who"), nullptr));
}

}  // namespace
}  // namespace ttt::client
