// Playing a friend in the console client, without a server: clocks as typed (M+S)
// and shown, the commands for players and challenges and the requests they
// send, and the words for /who, challenges and blocks (with hostile names).
#include <gtest/gtest.h>

#include "client_support/command_parse.hpp"
#include "console/command.hpp"
#include "console/command_request.hpp"
#include "console/game_text.hpp"
#include "console/players_text.hpp"
#include "view/clock_text.hpp"

namespace ttt::client {
namespace {

using testing::parsed;
using testing::refusal;

TEST(ClockText, ParsesMinutesPlusSeconds) {
  std::string error;
  EXPECT_EQ(parse_clock("3+2", error), (ClockSpec{180'000, 2'000}));
  EXPECT_EQ(parse_clock("1+0", error), (ClockSpec{60'000, 0}));
  EXPECT_EQ(parse_clock("0.5+1", error), (ClockSpec{30'000, 1'000}));
  EXPECT_EQ(parse_clock("180+60", error), (ClockSpec{10'800'000, 60'000}));
  for (const char* bad : {"9x", "3", "+2", "3+", "3+-1", "-3+2", "0+5", "181+0", "3+61", "1.25+0",
                          "a+b", "3 +2", "99999999999+1"}) {
    error.clear();
    EXPECT_FALSE(parse_clock(bad, error)) << bad;
    EXPECT_NE(error.find("A clock is M+S"), std::string::npos) << bad << ": " << error;
  }
}

TEST(ClockText, NamesAndFaces) {
  EXPECT_EQ(clock_name({180'000, 2'000}), "3+2");
  EXPECT_EQ(clock_name({30'000, 0}), "0.5+0");
  EXPECT_EQ(clock_name({90'000, 10'000}), "1.5+10");
  EXPECT_EQ(clock_face(125'000), "2:05");
  EXPECT_EQ(clock_face(60'000), "1:00");
  EXPECT_EQ(clock_face(10'000), "0:10");
  EXPECT_EQ(clock_face(9'450), "0:09.4");
  EXPECT_EQ(clock_face(0), "0:00.0");
  EXPECT_EQ(clock_face(3'723'000), "1:02:03");
}

TEST(PlayerCommands, ClocksOnCreateQuickAndChallenge) {
  Command create = parsed("/create 3 clock 3+2 private");
  ASSERT_TRUE(create.clock);
  EXPECT_EQ(create.clock->initial_ms, 180'000u);
  EXPECT_TRUE(create.is_private);
  Command quick = parsed("/quick 15 k 5 clock 1+1");
  EXPECT_EQ(quick.size, 15);
  EXPECT_EQ(quick.win_length, 5);
  ASSERT_TRUE(quick.clock);
  EXPECT_EQ(quick.clock->increment_ms, 1'000u);
  EXPECT_FALSE(parsed("/quick 3").clock);
  EXPECT_NE(refusal("/quick 3 clock 9x").find("A clock is M+S"), std::string::npos);
  EXPECT_NE(refusal("/quick 3 clock").find("clock needs M+S"), std::string::npos);
  EXPECT_NE(refusal("/quick 3 private").find("Usage: /quick"), std::string::npos);
  EXPECT_NE(refusal("/create 3 clock 3").find("A clock is M+S"), std::string::npos);
}

TEST(PlayerCommands, ChallengeAcceptDeclineAndTheRest) {
  Command c = parsed("/challenge bob 15 k 5 clock 3+2 unrated");
  EXPECT_EQ(c.kind, CommandKind::Challenge);
  EXPECT_EQ(c.text, "bob");
  EXPECT_EQ(c.size, 15);
  EXPECT_EQ(c.win_length, 5);
  ASSERT_TRUE(c.clock);
  EXPECT_EQ(c.rated, false);
  EXPECT_EQ(parsed("/challenge bob").size, 3);
  EXPECT_NE(refusal("/challenge").find("Usage: /challenge NAME"), std::string::npos);
  EXPECT_NE(refusal("/challenge bob 25").find("board size"), std::string::npos);
  EXPECT_NE(refusal("/challenge bob 3 private").find("Usage: /challenge"), std::string::npos);
  EXPECT_EQ(parsed("/accept").challenge_id, 0u);
  EXPECT_EQ(parsed("/accept 4").challenge_id, 4u);
  EXPECT_EQ(parsed("/decline").kind, CommandKind::Decline);
  EXPECT_EQ(parsed("/decline 7").challenge_id, 7u);
  EXPECT_NE(refusal("/accept x").find("A challenge id is a number"), std::string::npos);
  EXPECT_TRUE(parsed("/challenges on").on);
  EXPECT_FALSE(parsed("/challenges off").on);
  refusal("/challenges maybe");
  EXPECT_EQ(parsed("/block bob").text, "bob");
  EXPECT_EQ(parsed("/block").text, "");
  EXPECT_EQ(parsed("/unblock bob").kind, CommandKind::Unblock);
  refusal("/unblock");
  EXPECT_EQ(parsed("/who").kind, CommandKind::Who);
  EXPECT_EQ(parsed("/who ali").text, "ali");
  EXPECT_TRUE(parsed("/who next").next_page);
  const std::string help = help_text();
  for (const char* name : {"/who", "/challenge", "/accept", "/decline", "/challenges", "/block",
                           "/unblock", "clock M+S"}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

TEST(PlayerCommands, EachSendsItsRequest) {
  auto request = request_for(parsed("/challenge bob 4 clock 1+1 rated"));
  ASSERT_TRUE(request && request->has_challenge());
  EXPECT_EQ(request->challenge().name(), "bob");
  EXPECT_EQ(request->challenge().size(), 4);
  EXPECT_EQ(request->challenge().clock().initial_ms(), 60'000u);
  EXPECT_EQ(request->challenge().rated(), wire::RATED_YES);
  request = request_for(parsed("/accept 3"));
  ASSERT_TRUE(request && request->has_answer_challenge());
  EXPECT_EQ(request->answer_challenge().challenge_id(), 3u);
  EXPECT_TRUE(request->answer_challenge().accept());
  request = request_for(parsed("/decline 3"));
  ASSERT_TRUE(request && request->has_answer_challenge());
  EXPECT_FALSE(request->answer_challenge().accept());
  request = request_for(parsed("/decline"));
  ASSERT_TRUE(request && request->has_decline()) << "the opponent's offer, by default";
  request = request_for(parsed("/challenges off"));
  ASSERT_TRUE(request && request->has_challenge_settings());
  EXPECT_TRUE(request->challenge_settings().refuse_all());
  request = request_for(parsed("/unblock bob"));
  ASSERT_TRUE(request && request->has_block());
  EXPECT_FALSE(request->block().blocked());
  request = request_for(parsed("/quick 3 clock 3+2"));
  ASSERT_TRUE(request && request->has_quick_match());
  EXPECT_EQ(request->quick_match().clock().increment_ms(), 2'000u);
  request = request_for(parsed("/create 3 clock 3+2"));
  EXPECT_EQ(request->create_game().clock().initial_ms(), 180'000u);
  request = request_for(parsed("/who al"));
  ASSERT_TRUE(request && request->has_list_players());
  EXPECT_EQ(request->list_players().name(), "al");
}

wire::PlayerPresence presence(const std::string& name, wire::Activity activity) {
  wire::PlayerPresence p;
  p.set_name(name);
  p.set_rating(1216.4);
  p.set_activity(activity);
  p.set_size(3);
  p.set_win_length(3);
  return p;
}

TEST(PlayersText, WhoShowsEachPlayerAndWhatItDoes) {
  wire::PlayerList list;
  *list.add_players() = presence("alice", wire::ACTIVITY_IDLE);
  auto playing = presence("bob", wire::ACTIVITY_PLAYING);
  playing.set_game_id(3);
  playing.set_opponent("carol");
  playing.mutable_clock()->set_initial_ms(180'000);
  playing.mutable_clock()->set_increment_ms(2'000);
  *list.add_players() = playing;
  auto bot = presence("robo", wire::ACTIVITY_QUEUED);
  bot.set_is_bot(true);
  *list.add_players() = bot;
  auto away = presence("\x1b[31mdave", wire::ACTIVITY_WATCHING);
  away.set_away(true);
  away.set_opponent("bob vs carol");
  *list.add_players() = away;
  auto waiting = presence("erin", wire::ACTIVITY_WAITING);  // a private game: no id
  waiting.set_size(15);
  waiting.set_win_length(5);
  *list.add_players() = waiting;
  EXPECT_EQ(player_list_text(list),
            "name                rating  doing\n"
            "alice                 1216  in the lobby\n"
            "bob                   1216  playing game 3 against carol (3x3, clock 3+2)\n"
            "robo (bot)            1216  waiting in quick match for a 3x3 game\n"
            "^[[31mdave [away]     1216  watching a private game (bob vs carol)\n"
            "erin                  1216  waiting for an opponent in a private game (15x15, 5 in "
            "a row)");
  EXPECT_EQ(player_list_text(wire::PlayerList()), "Nobody else is online.");
}

TEST(PlayersText, ChallengesInWords) {
  wire::ChallengeOffer offer;
  offer.set_challenge_id(4);
  offer.set_from("bob\x1b]0;x\x07");
  offer.set_from_rating(1216);
  offer.mutable_settings()->set_size(3);
  offer.mutable_settings()->set_win_length(3);
  offer.mutable_settings()->mutable_clock()->set_initial_ms(180'000);
  offer.mutable_settings()->mutable_clock()->set_increment_ms(2'000);
  offer.set_expires_in_ms(59'800);
  EXPECT_EQ(challenge_offer_text(offer),
            "bob^[]0;x^G (1216) challenges you to a 3x3, clock 3+2 game: /accept or /decline "
            "(challenge 4, for 60 s).");
  wire::ChallengeSent sent;
  sent.set_challenge_id(4);
  sent.mutable_settings()->set_name("carol");
  sent.mutable_settings()->set_size(15);
  sent.mutable_settings()->set_win_length(5);
  sent.mutable_settings()->set_rated(wire::RATED_NO);
  sent.set_expires_in_ms(60'000);
  EXPECT_EQ(challenge_sent_text(sent),
            "You challenged carol to a 15x15, 5 in a row, unrated game (challenge 4); it stands "
            "60 s.");
  wire::ChallengeEnded ended;
  ended.set_challenge_id(4);
  ended.set_challenger("alice");
  ended.set_challenged("bob");
  ended.set_how(wire::CHALLENGE_END_DECLINED);
  EXPECT_EQ(challenge_ended_text(ended, "alice"), "bob declined your challenge.");
  EXPECT_EQ(challenge_ended_text(ended, "bob"), "You declined alice's challenge.");
  ended.set_how(wire::CHALLENGE_END_EXPIRED);
  EXPECT_EQ(challenge_ended_text(ended, "alice"),
            "Your challenge to bob expired: no answer within its time.");
  EXPECT_EQ(challenge_ended_text(ended, "bob"), "alice's challenge expired.");
  ended.set_how(wire::CHALLENGE_END_UNAVAILABLE);
  EXPECT_EQ(challenge_ended_text(ended, "alice"),
            "Your challenge to bob ended: bob went offline or into another game.");
  ended.set_how(wire::CHALLENGE_END_WITHDRAWN);
  EXPECT_EQ(challenge_ended_text(ended, "bob"),
            "alice's challenge ended: alice went offline or into another game.");
  wire::BlockList blocks;
  EXPECT_EQ(block_list_text(blocks), "Nobody is blocked.");
  blocks.add_names("bob");
  blocks.add_names("carol");
  EXPECT_EQ(block_list_text(blocks), "Blocked (no challenges or chat from them): bob, carol.");
}

TEST(PlayersText, AGameWithAClockShowsItAndBothTimes) {
  wire::GameState s;
  s.set_game_id(2);
  s.set_size(3);
  s.set_win_length(3);
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(wire::SIDE_X);
  s.set_round(1);
  s.mutable_clock()->set_initial_ms(180'000);
  s.mutable_clock()->set_increment_ms(2'000);
  s.set_x_clock_ms(178'400);
  s.set_o_clock_ms(180'000);
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_x()->set_connected(true);
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  s.mutable_o()->set_connected(true);
  EXPECT_EQ(players_line(s), "Game 2, 3x3, clock 3+2, unrated: alice (X) vs bob (O)");
  EXPECT_EQ(turn_line(s, wire::SIDE_X), "Your turn (X): type a cell like b2 (X 2:58, O 3:00).");
  EXPECT_EQ(clocks_text(s), "X 2:58, O 3:00");
}

}  // namespace
}  // namespace ttt::client
