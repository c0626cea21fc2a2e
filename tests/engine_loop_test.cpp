// ttt-engine's loop in-process: each command's answer, refusals of bad
// commands, the time a move may take, the win length extension.
#include "engine/engine_loop.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "ai_run_positions.hpp"
#include "engine/pbrain_protocol.hpp"
#include "ttt/rules.hpp"

namespace ttt::client {
namespace {

class EngineLoopTest : public ::testing::Test {
 protected:
  static EngineLoopOptions options() {
    EngineLoopOptions o;
    o.ai.level = Level::Hard;
    o.ai.budget = std::chrono::milliseconds(1000);
    o.ai.seed = 7;
    return o;
  }
  // The lines the engine answers to these commands.
  std::vector<std::string> talk(std::initializer_list<std::string_view> lines) {
    return talk(std::vector<std::string_view>(lines));
  }
  std::vector<std::string> talk(const std::vector<std::string_view>& lines) {
    out_.str("");
    for (std::string_view line : lines) loop_.handle(line);
    std::vector<std::string> answers;
    std::istringstream in(out_.str());
    for (std::string line; std::getline(in, line);) answers.push_back(line);
    return answers;
  }
  // The move of a one-line answer, or nullopt.
  static std::optional<pbrain::Point> move_in(const std::vector<std::string>& answers) {
    if (answers.size() != 1) return std::nullopt;
    return pbrain::parse_point(answers[0]);
  }

  std::ostringstream out_;
  EngineLoop loop_{options(), out_};
};

TEST_F(EngineLoopTest, PlaysAGameThroughStartBeginAndTurn) {
  EXPECT_EQ(talk({"START 15"}), std::vector<std::string>{"OK"});
  EXPECT_EQ(talk({"INFO timeout_turn 100", "INFO timeout_match 0", "INFO time_left 2147483647"}),
            std::vector<std::string>{});
  const auto first = move_in(talk({"BEGIN"}));
  ASSERT_TRUE(first);
  const auto reply = talk({std::string("TURN ") + (first->x == 0 ? "1,1" : "0,0")});
  const auto answer = move_in(reply);
  ASSERT_TRUE(answer) << (reply.empty() ? "" : reply[0]);
  EXPECT_NE(*answer, *first);
}

TEST_F(EngineLoopTest, AnswersBoardWithAMoveForTheSideToMove) {
  talk({"START 9"});
  const auto answers = talk({"BOARD", "4,4,2", "3,3,1", "5,5,2", "DONE"});
  const auto move = move_in(answers);
  ASSERT_TRUE(move) << (answers.empty() ? "" : answers[0]);
  for (const pbrain::Point taken : {pbrain::Point{4, 4}, {3, 3}, {5, 5}}) EXPECT_NE(*move, taken);
}

TEST_F(EngineLoopTest, FiveInARowWinsByDefault) {
  talk({"START 15"});
  // The opponent has five on row 7 (and moved last): the game is over.
  EXPECT_EQ(talk({"BOARD", "3,7,2", "0,0,1", "4,7,2", "0,2,1", "5,7,2", "0,4,1", "6,7,2", "0,6,1",
                  "7,7,2", "DONE"}),
            std::vector<std::string>{"ERROR the game on this board is over"});
  // Four of them is a game still going.
  const auto move = move_in(talk(
      {"BOARD", "3,7,2", "0,0,1", "4,7,2", "0,2,1", "5,7,2", "0,4,1", "6,7,2", "0,6,1", "DONE"}));
  EXPECT_TRUE(move);
}

TEST_F(EngineLoopTest, PlaysTheProtocolsTwentyByTwentyBoard) {
  EXPECT_EQ(talk({"START 20"}), std::vector<std::string>{"OK"});
  // Its four along the last column, x = 19: the five is at 19,15.
  const auto five = move_in(talk({"BOARD", "0,0,2", "19,16,1", "0,1,2", "19,17,1", "0,2,2",
                                  "19,18,1", "5,5,2", "19,19,1", "DONE"}));
  ASSERT_TRUE(five);
  EXPECT_EQ(*five, (pbrain::Point{19, 15}));
  EXPECT_EQ(talk({"RESTART"}), std::vector<std::string>{"OK"});
  // The corner 19,19 is a cell of the board; the answer is another cell.
  const auto reply = move_in(talk({"TURN 19,19"}));
  ASSERT_TRUE(reply);
  EXPECT_NE(*reply, (pbrain::Point{19, 19}));
  EXPECT_LT(reply->x, 20);
  EXPECT_LT(reply->y, 20);
  EXPECT_EQ(talk({"TURN 20,0"}),
            std::vector<std::string>{"ERROR TURN 20,0 is off the 20x20 board"});
}

TEST_F(EngineLoopTest, RefusesWhatItCannotPlay) {
  EXPECT_EQ(talk({"BEGIN"}), std::vector<std::string>{"ERROR BEGIN before START"});
  EXPECT_EQ(talk({"START 21"}),
            std::vector<std::string>{"ERROR ttt-engine plays boards of 3 to 20, not '21'"});
  EXPECT_EQ(talk({"RECTSTART 15,10"}),
            std::vector<std::string>{
                "ERROR ttt-engine plays square boards of 3 to 20 only, not '15,10'"});
  EXPECT_EQ(talk({"RECTSTART 15,15"}), std::vector<std::string>{"OK"});
  EXPECT_EQ(talk({"TURN 15,0"}),
            std::vector<std::string>{"ERROR TURN 15,0 is off the 15x15 board"});
  EXPECT_EQ(talk({"TURN x"}), std::vector<std::string>{"ERROR TURN needs a cell x,y, not 'x'"});
  EXPECT_EQ(talk({"BOARD", "1,1,1", "1,1,2", "DONE"}),
            std::vector<std::string>{"ERROR BOARD: 1,1 is listed twice"});
  EXPECT_EQ(talk({"BOARD", "1,1,1", "2,2,1", "DONE"})[0].rfind("ERROR this position can't", 0), 0u);
  EXPECT_EQ(talk({"SWAP2BOARD", "7,7", "8,8", "DONE"}),
            std::vector<std::string>{"UNKNOWN ttt-engine does not know SWAP2BOARD"})
      << "one UNKNOWN for the command and its lines";
  EXPECT_EQ(talk({"FROB 1"}), std::vector<std::string>{"UNKNOWN ttt-engine does not know FROB"});
}

TEST_F(EngineLoopTest, QuotesAManagersTextBackHarmlessly) {
  EXPECT_EQ(
      talk({"START \x1b[2J\xe2\x80\xae"}),
      std::vector<std::string>{"ERROR ttt-engine plays boards of 3 to 20, not '^[[2J<U+202E>'"});
  EXPECT_EQ(talk({"\x1b[2J"}), std::vector<std::string>{"UNKNOWN ttt-engine does not know ^[[2J"});
  talk({"START 9"});
  EXPECT_EQ(talk({"TURN 1,\x07"}),
            std::vector<std::string>{"ERROR TURN needs a cell x,y, not '1,^G'"});
}

TEST_F(EngineLoopTest, TakebackAndPlayChangeTheBoard) {
  talk({"START 9"});
  const auto first = move_in(talk({"BEGIN"}));
  ASSERT_TRUE(first);
  EXPECT_EQ(talk({"TAKEBACK " + pbrain::point_text(*first)}), std::vector<std::string>{"OK"});
  EXPECT_EQ(talk({"TAKEBACK 0,0"}),
            std::vector<std::string>{"ERROR TAKEBACK 0,0: that cell is empty"});
  EXPECT_EQ(talk({"PLAY 2,3"}), std::vector<std::string>{"2,3"});
  EXPECT_EQ(talk({"TURN 2,3"}), std::vector<std::string>{"ERROR TURN 2,3: that cell is taken"});
}

TEST_F(EngineLoopTest, AboutNamesTheEngineAndItsWinLengthExtension) {
  const auto about = pbrain::parse_about(talk({"ABOUT"}).at(0));
  EXPECT_EQ(about.at("name"), "ttt-engine");
  EXPECT_EQ(about.at(std::string(pbrain::kWinLengthKey)), "yes");
}

TEST_F(EngineLoopTest, PlaysTheWinLengthItIsTold) {
  // On 5x5 the default is the whole line: three in a row is a game going on.
  talk({"START 5"});
  const std::initializer_list<std::string_view> three = {"BOARD", "1,1,2", "4,4,1", "2,1,2",
                                                         "4,0,1", "3,1,2", "DONE"};
  EXPECT_TRUE(move_in(talk(three)));
  talk({"INFO ttt_win_length 3"});
  EXPECT_EQ(talk(three), std::vector<std::string>{"ERROR the game on this board is over"});
  talk({"START 5", "INFO ttt_win_length 9"});
  EXPECT_EQ(talk({"BEGIN"}), std::vector<std::string>{
                                 "ERROR no 5x5 board is won by 9 in a row (INFO ttt_win_length)"});
}

TEST_F(EngineLoopTest, TheTimeForAMoveComesFromTheInfoItIsGiven) {
  talk({"START 15"});
  EXPECT_EQ(loop_.move_budget().count(), 1000 - 50) << "--budget when nothing is said";
  talk({"INFO timeout_turn 5000"});
  EXPECT_EQ(loop_.move_budget().count(), 5000 - 250);
  talk({"INFO time_left 56000"});  // 225 empty cells: 1/56 of what is left
  EXPECT_EQ(loop_.move_budget().count(), 1000 - 50);
  talk({"INFO timeout_turn 300"});
  EXPECT_EQ(loop_.move_budget().count(), 300 - 25);
  talk({"INFO timeout_turn 0", "INFO time_left 2147483647"});
  EXPECT_EQ(loop_.move_budget().count(), 0) << "0: as fast as possible";
}

TEST_F(EngineLoopTest, SaysOnceThatItPlaysRenjuAndCaroAsFreestyle) {
  for (const char* rule : {"INFO rule 4", "INFO rule 8", "INFO rule 5"}) {
    talk({"START 15", rule, "INFO timeout_turn 50"});
    const auto answers = talk({"BEGIN"});
    ASSERT_EQ(answers.size(), 2u) << rule;
    EXPECT_EQ(answers[0].rfind("MESSAGE ttt-engine plays freestyle", 0), 0u) << answers[0];
    EXPECT_EQ(talk({"TURN 0,0"}).size(), 1u) << rule;
  }
}

// Under the standard rule (INFO rule 1) an overline does not win: a board with
// six in a row is a game going on, and the engine does not play into an
// overline to "win" (it blocks the opponent's real five instead).
TEST_F(EngineLoopTest, PlaysTheStandardRuleWhereAnOverlineDoesNotWin) {
  talk({"START 15", "INFO rule 1", "INFO timeout_turn 200"});
  // Its own (1) row 0: six stones; the opponent's (2) row 5: four, open at 4,5.
  std::vector<std::string_view> lines = {"BOARD"};
  std::vector<std::string> stones;
  for (int x = 0; x < 6; ++x) stones.push_back(std::to_string(x) + ",0,1");
  for (int x = 0; x < 4; ++x) stones.push_back(std::to_string(x) + ",5,2");
  for (int x = 10; x < 13; ++x) stones.push_back(std::to_string(x) + ",10,2");
  for (const std::string& stone : stones) lines.push_back(stone);
  lines.push_back("DONE");
  const auto answers = talk(lines);
  ASSERT_EQ(answers.size(), 1u) << answers[0];
  EXPECT_EQ(answers[0], "4,5") << "the block of the opponent's five";
  // Freestyle: the same board is over (six in a row won).
  talk({"START 15", "INFO rule 0"});
  EXPECT_EQ(talk(lines), std::vector<std::string>{"ERROR the game on this board is over"});
}

// ttt-engine plays five in a row with the k < N engine: given a position with
// a VCF of 7 fours and the five (15 plies) by BOARD, it answers each block of
// its four with the next four and makes five. The engine answers as soon as
// its threat search finds the win; that search gets a share of the turn's
// time, so the turn is long (10 s) for a slow machine (a sanitizer build
// under load), not a target.
TEST(EngineLoopVcf, TttEngineConvertsAFifteenPlyVcf) {
  EngineLoopOptions options;
  options.ai.level = Level::Perfect;
  options.ai.seed = 3;
  const Board start = internal::ai::from_rows(internal::ai::kLongVcfs[0], 5);
  std::ostringstream out;
  EngineLoop loop(options, out);
  // The last answer of the engine, as a move on `board` (X: the engine).
  const auto answered = [&out](Board& board) -> std::optional<Move> {
    std::istringstream lines(out.str());
    std::string last;
    for (std::string line; std::getline(lines, line);) last = line;
    out.str("");
    const auto point = pbrain::parse_point(last);
    if (!point) return std::nullopt;
    const Move move = pbrain::move_of(*point);
    if (!is_valid_move(board, move.row, move.col, Player::X)) return std::nullopt;
    board.place(move.row * board.size() + move.col, Player::X);
    return move;
  };
  loop.handle("START 15");
  loop.handle("INFO timeout_turn 10000");
  loop.handle("BOARD");
  for (int cell = 0; cell < start.size() * start.size(); ++cell) {
    const Cell c = start.at_index(cell);
    if (c == Cell::Empty) continue;
    loop.handle(pbrain::point_text(pbrain::point_of({cell / 15, cell % 15})) +
                (c == Cell::X ? ",1" : ",2"));
  }
  loop.handle("DONE");
  Board board = start;
  for (int attack = 1; attack <= 8; ++attack) {
    const auto move = answered(board);
    ASSERT_TRUE(move) << "attack " << attack;
    if (winner(board)) {
      EXPECT_EQ(*winner(board), Player::X);
      EXPECT_EQ(attack, 8) << "the shortest VCF is 7 fours and the five";
      return;
    }
    // Every attack but the last is a four: the one cell that stops it.
    int block = -1;
    for (int cell = 0; cell < 225; ++cell) {
      if (board.at_index(cell) != Cell::Empty) continue;
      Board five = board;
      five.place(cell, Player::X);
      if (winner(five)) block = cell;
    }
    ASSERT_GE(block, 0) << "attack " << attack << " at row " << move->row << ", column "
                        << move->col << " is no four";
    board.place(block, Player::O);
    loop.handle("TURN " + pbrain::point_text(pbrain::point_of({block / 15, block % 15})));
  }
  FAIL() << "no five after 8 attacks";
}

TEST_F(EngineLoopTest, EndStopsIt) {
  talk({"END"});
  EXPECT_TRUE(loop_.ended());
  EXPECT_EQ(talk({"ABOUT"}), std::vector<std::string>{});
}

}  // namespace
}  // namespace ttt::client
