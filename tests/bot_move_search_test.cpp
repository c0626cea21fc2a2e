// MoveSearch: a bot's move is searched off the I/O executor, one search at a
// time, and sent only if the game still stands where the search started; a
// failing brain resigns, an illegal move is not sent, a move the server
// could not save is searched and sent again.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <deque>

#include "bot/move_search.hpp"
#include "client_support/game_states.hpp"

namespace ttt::client {
namespace {

using ttt::testing::after_move;
using ttt::testing::game_in_progress;

// A brain that answers from a script: a move (row, col) or a failure.
class ScriptedBrain : public Brain {
 public:
  BrainMove choose(const Turn& turn) override {
    turns.push_back(turn);
    if (script.empty()) return BrainMove{std::nullopt, "nothing scripted"};
    BrainMove next = script.front();
    script.pop_front();
    return next;
  }
  bool plays(int, int, std::string&) override { return true; }
  std::string name() const override { return "scripted"; }

  std::deque<BrainMove> script;
  std::vector<Turn> turns;
};

BrainMove move_at(int row, int col) { return BrainMove{Move{row, col}, ""}; }

// The bot as a search sees it: alice (player 1, X) in game 4.
class FakeBot : public MoveSearch::Owner {
 public:
  const wire::GameState* game() const override { return game_ ? &*game_ : nullptr; }
  wire::Side side() const override { return wire::SIDE_X; }
  bool finishing() const override { return finishing_; }
  bool connected() const override { return connected_; }
  std::uint32_t send_move(wire::ClientMessage move) override {
    if (!connected_) return 0;
    moves.push_back(move.make_move());
    return static_cast<std::uint32_t>(moves.size());
  }
  void error(const std::string& what) override { errors.push_back(what); }
  void brain_failed(const std::string& why, bool current) override {
    failures.push_back(why + (current ? " (current)" : ""));
  }

  std::optional<wire::GameState> game_;
  bool finishing_ = false;
  bool connected_ = true;
  std::vector<wire::MakeMove> moves;
  std::vector<std::string> errors;
  std::vector<std::string> failures;
};

class MoveSearchTest : public ::testing::Test {
 protected:
  MoveSearchTest() { options_.storage_retry = std::chrono::milliseconds(0); }

  // The bot's turn in state: searched, and the search's answer handled.
  void turn(const wire::GameState& state) {
    bot_.game_ = state;
    search_.think(state);
    io_.run();
    io_.restart();
  }

  boost::asio::io_context io_;
  BotOptions options_;
  FakeBot bot_;
  std::shared_ptr<ScriptedBrain> brain_ = std::make_shared<ScriptedBrain>();
  // Searches run on the same io_context here: posted, not run inline.
  MoveSearch search_{bot_, io_.get_executor(), io_.get_executor(), brain_, "bot", options_};
};

TEST_F(MoveSearchTest, TheBrainsMoveIsSent) {
  brain_->script = {move_at(1, 1)};
  turn(game_in_progress());
  ASSERT_EQ(bot_.moves.size(), 1u);
  EXPECT_EQ(bot_.moves[0].game_id(), 4u);
  EXPECT_EQ(bot_.moves[0].row(), 1);
  EXPECT_EQ(bot_.moves[0].col(), 1);
  ASSERT_EQ(brain_->turns.size(), 1u);
  EXPECT_EQ(brain_->turns[0].me, Player::X);
}

TEST_F(MoveSearchTest, APositionIsMovedInOnce) {
  brain_->script = {move_at(1, 1), move_at(0, 0)};
  turn(game_in_progress());
  turn(game_in_progress());  // the same state again (a repeated GameState)
  EXPECT_EQ(bot_.moves.size(), 1u);
  EXPECT_EQ(brain_->turns.size(), 1u);
}

TEST_F(MoveSearchTest, AStaleMoveIsNotSentAndTheNewPositionIsSearched) {
  brain_->script = {move_at(1, 1), move_at(2, 2)};
  const wire::GameState first = after_move(after_move(game_in_progress(), 4), 0);
  bot_.game_ = game_in_progress();
  search_.think(game_in_progress());
  search_.think(first);  // one search at a time: this waits for the first
  bot_.game_ = first;    // the game moved on before the search came back
  io_.run();
  ASSERT_EQ(brain_->turns.size(), 2u) << "the new position was searched when the first ended";
  ASSERT_EQ(bot_.moves.size(), 1u) << "only the move for the position that stands";
  EXPECT_EQ(bot_.moves[0].row(), 2);
  EXPECT_EQ(bot_.moves[0].col(), 2);
}

TEST_F(MoveSearchTest, AFailingBrainIsReportedForTheCurrentGame) {
  brain_->script = {BrainMove{std::nullopt, "the engine crashed"}};
  turn(game_in_progress());
  ASSERT_EQ(bot_.failures.size(), 1u);
  EXPECT_EQ(bot_.failures[0], "the engine crashed (current)");
  EXPECT_TRUE(bot_.moves.empty());
}

TEST_F(MoveSearchTest, AnIllegalMoveIsNotSent) {
  brain_->script = {move_at(1, 1)};
  turn(after_move(after_move(game_in_progress(), 4), 0));  // b2 is taken
  EXPECT_TRUE(bot_.moves.empty());
  ASSERT_EQ(bot_.errors.size(), 1u);
  EXPECT_EQ(bot_.errors[0], "the engine chose an illegal move b2; not sent");
}

TEST_F(MoveSearchTest, NothingIsSentWhileFinishingOrDisconnected) {
  brain_->script = {move_at(1, 1), move_at(1, 1)};
  bot_.connected_ = false;
  turn(game_in_progress());
  EXPECT_TRUE(bot_.moves.empty());
  bot_.connected_ = true;
  bot_.finishing_ = true;
  search_.reset();
  turn(game_in_progress());
  EXPECT_TRUE(bot_.moves.empty());
}

TEST_F(MoveSearchTest, AMoveTheServerCouldNotSaveIsSearchedAndSentAgain) {
  brain_->script = {move_at(1, 1), move_at(0, 0)};
  turn(game_in_progress());
  ASSERT_EQ(bot_.moves.size(), 1u);
  search_.retry_later();  // STORAGE: the server took it back
  io_.run();
  ASSERT_EQ(bot_.moves.size(), 2u);
  EXPECT_EQ(bot_.moves[1].row(), 0);
}

TEST_F(MoveSearchTest, TheTimeForAMoveFollowsTheFischerClock) {
  options_.ai.budget = std::chrono::milliseconds(60'000);
  brain_->script = {move_at(1, 1)};
  wire::GameState state = game_in_progress();
  state.mutable_clock()->set_initial_ms(60'000);
  state.mutable_clock()->set_increment_ms(2'000);
  state.set_x_clock_ms(40'000);
  turn(state);
  ASSERT_EQ(brain_->turns.size(), 1u);
  EXPECT_EQ(brain_->turns[0].time, std::chrono::milliseconds(40'000 / 20 + 1'000));
}

TEST_F(MoveSearchTest, ASearchThatEndsAfterItIsGoneDoesNothing) {
  brain_->script = {move_at(1, 1)};
  {
    MoveSearch gone(bot_, io_.get_executor(), io_.get_executor(), brain_, "bot", options_);
    bot_.game_ = game_in_progress();
    gone.think(game_in_progress());
  }
  io_.run();
  EXPECT_TRUE(bot_.moves.empty());
}

}  // namespace
}  // namespace ttt::client
