// The Gomocup protocol's text: cells both ways, BOARD lines, commands,
// a brain's answers of every kind, ABOUT's fields.
#include "engine/pbrain_protocol.hpp"

#include <gtest/gtest.h>

namespace ttt::client::pbrain {
namespace {

TEST(PbrainProtocol, ACellIsColumnCommaRow) {
  EXPECT_EQ(point_text(point_of(Move{7, 3})), "3,7");
  EXPECT_EQ(move_of(Point{3, 7}), (Move{7, 3}));
  EXPECT_EQ(parse_point("10,11"), (Point{10, 11}));
  EXPECT_EQ(parse_point(" 10 , 11 "), (Point{10, 11}));
  for (const char* bad : {"", "10", "10,", ",3", "a,b", "-1,2", "3,4,5", "99999,1", "1.5,2"}) {
    EXPECT_FALSE(parse_point(bad)) << bad;
  }
}

TEST(PbrainProtocol, BoardLinesHaveAFieldOf1To3) {
  const auto stone = parse_stone("4,5,2");
  ASSERT_TRUE(stone);
  EXPECT_EQ(stone->point, (Point{4, 5}));
  EXPECT_EQ(stone->field, 2);
  EXPECT_FALSE(parse_stone("4,5,0"));
  EXPECT_FALSE(parse_stone("4,5,4"));
  EXPECT_FALSE(parse_stone("4,5"));
}

TEST(PbrainProtocol, CommandsAreNamedInAnyCase) {
  const CommandLine turn = split_command("  turn 10,10\r");
  EXPECT_EQ(turn.name, "TURN");
  EXPECT_EQ(turn.args, "10,10");
  EXPECT_EQ(split_command("INFO timeout_turn 5000").args, "timeout_turn 5000");
  EXPECT_EQ(split_command("BEGIN").args, "");
}

TEST(PbrainProtocol, EveryKindOfAnswerIsRecognised) {
  EXPECT_EQ(parse_answer("7,8").kind, Answer::Kind::Move);
  EXPECT_EQ(parse_answer("7,8").point, (Point{7, 8}));
  EXPECT_EQ(parse_answer("ok").kind, Answer::Kind::Ok);
  const Answer error = parse_answer("ERROR unsupported size");
  EXPECT_EQ(error.kind, Answer::Kind::Error);
  EXPECT_EQ(error.text, "unsupported size");
  EXPECT_EQ(parse_answer("MESSAGE I see a four").kind, Answer::Kind::Message);
  EXPECT_EQ(parse_answer("DEBUG eval +12").kind, Answer::Kind::Debug);
  EXPECT_EQ(parse_answer("UNKNOWN RECTSTART").kind, Answer::Kind::Unknown);
  EXPECT_EQ(parse_answer("SUGGEST 3,4").kind, Answer::Kind::Suggest);
  EXPECT_EQ(parse_answer("SUGGEST 3,4").point, (Point{3, 4}));
  const Answer garbage = parse_answer("I think therefore I am");
  EXPECT_EQ(garbage.kind, Answer::Kind::Other);
  EXPECT_EQ(garbage.text, "I think therefore I am");
  EXPECT_EQ(parse_answer("SUGGEST nowhere").kind, Answer::Kind::Other);
  EXPECT_EQ(parse_answer("7;8").kind, Answer::Kind::Other);
}

TEST(PbrainProtocol, AboutIsReadAsKeyValuePairs) {
  const auto about = parse_about(
      R"(name="Yixin", version="2018", author="Kai Sun", country="China", ttt_win_length="yes")");
  EXPECT_EQ(about.at("name"), "Yixin");
  EXPECT_EQ(about.at("author"), "Kai Sun");
  EXPECT_EQ(about.at("ttt_win_length"), "yes");
  EXPECT_TRUE(parse_about("no fields here").empty());
  EXPECT_EQ(parse_about(R"(NAME="x", broken="unterminated)").at("name"), "x");
}

}  // namespace
}  // namespace ttt::client::pbrain
