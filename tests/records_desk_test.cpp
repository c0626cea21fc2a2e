// RecordsDesk alone: the leaderboard, profiles, histories and replays as the
// account store answers them; a server without records says so; a read
// that fails or finds nothing is an error naming what; a private game is not
// found by its room; a player gone before a read finishes is told nothing.
#include "lobby/records_desk.hpp"

#include <gtest/gtest.h>

#include "support/memory_accounts.hpp"
#include "support/recorded_replies.hpp"

namespace ttt::server {
namespace {

using testing::MemoryAccounts;
using testing::RecordedReplies;

GameRecord finished_game(std::int64_t id, std::int64_t room, bool is_private = false) {
  GameRecord game;
  game.id = id;
  game.room_id = room;
  game.x_name = "alice";
  game.o_name = "bob";
  game.status = "x_won";
  game.reason = "line";
  game.is_private = is_private;
  game.moves = {{0, 0, 10, 0}, {1, 1, 20, 0}, {0, 1, 30, 0}, {2, 2, 40, 0}, {0, 2, 50, 0}};
  return game;
}

class RecordsDeskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoredPlayer alice;
    alice.name = "alice";
    alice.rating = 1612;
    alice.games_played = 3;
    alice.wins = 2;
    alice.losses = 1;
    accounts_.create(alice);
    accounts_.keeps = true;
  }
  const wire::ServerMessage& last() {
    EXPECT_FALSE(conn().received.empty());
    static const wire::ServerMessage none;
    return conn().received.empty() ? none : conn().received.back();
  }
  testing::FakeParticipant& conn() { return replies_.conn(1); }
  wire::ErrorCode last_error() {
    const wire::ServerMessage* error = conn().last_error();
    return error == nullptr ? wire::ERROR_CODE_UNSPECIFIED : error->error().code();
  }

  MemoryAccounts accounts_;
  RecordedReplies replies_;
  LobbyPlayer& player_ = replies_.add(1, "alice");
  RecordsDesk desk_{accounts_, replies_};
};

TEST_F(RecordsDeskTest, TheLeaderboardListsTheBestWithinALimit) {
  accounts_.top = {*accounts_.get(AccountId{1})};
  wire::GetLeaderboard request;
  desk_.leaderboard(player_, request, 3);
  ASSERT_TRUE(last().has_leaderboard());
  EXPECT_EQ(last().in_reply_to(), 3u);
  ASSERT_EQ(last().leaderboard().entries_size(), 1);
  EXPECT_EQ(last().leaderboard().entries(0).name(), "alice");
  EXPECT_EQ(last().leaderboard().entries(0).wins(), 2u);
  request.set_limit(100'000);
  desk_.leaderboard(player_, request, 4);
  EXPECT_EQ(accounts_.leaderboard_limits, (std::vector<std::size_t>{10, 100}))
      << "10 when none is asked, at most 100";
}

TEST_F(RecordsDeskTest, AProfileIsTheAskersOwnOrTheNamedPlayers) {
  accounts_.place = Standing{4, 20};
  wire::GetProfile request;
  desk_.profile(player_, request, 5);
  ASSERT_TRUE(last().has_profile());
  EXPECT_EQ(last().profile().name(), "alice");
  EXPECT_EQ(last().profile().rank(), 4u);
  EXPECT_EQ(last().profile().ranked(), 20u);
  request.set_name("ALICE");
  desk_.profile(player_, request, 6);
  EXPECT_EQ(last().profile().name(), "alice") << "a name is found by its key";
  request.set_name("nobody");
  desk_.profile(player_, request, 7);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_RECORD);
  EXPECT_EQ(conn().last_error()->error().text(), "no player is called 'nobody'");
}

TEST_F(RecordsDeskTest, WithoutRecordsHistoryAndReplaySayTheServerKeepsNone) {
  accounts_.keeps = false;
  desk_.history(player_, wire::GetHistory{}, 1);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_DATABASE);
  conn().received.clear();
  wire::GetReplay replay;
  replay.set_record_id(1);
  desk_.replay(player_, replay, 2);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_DATABASE);
  EXPECT_TRUE(accounts_.history_asked.empty());
}

TEST_F(RecordsDeskTest, AHistoryListsTheGamesOrSaysItCouldNotBeRead) {
  accounts_.games = std::vector<GameRecord>{finished_game(9, 4)};
  desk_.history(player_, wire::GetHistory{}, 1);
  ASSERT_TRUE(last().has_history());
  EXPECT_EQ(last().history().name(), "alice");
  ASSERT_EQ(last().history().games_size(), 1);
  EXPECT_EQ(last().history().games(0).record_id(), 9u);
  EXPECT_EQ(last().history().games(0).game_id(), 4u);
  EXPECT_EQ(last().history().games(0).move_count(), 5u);
  EXPECT_EQ(accounts_.history_asked.back().second, 10);
  accounts_.games.reset();
  desk_.history(player_, wire::GetHistory{}, 2);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_STORAGE);
  wire::GetHistory named;
  named.set_name("nobody");
  desk_.history(player_, named, 3);
  EXPECT_EQ(conn().last_error()->error().text(), "no player is called 'nobody'");
}

TEST_F(RecordsDeskTest, AReplayHasEveryMoveOfAFinishedGame) {
  accounts_.finished[RecordId{9}] = finished_game(9, 4);
  wire::GetReplay request;
  request.set_record_id(9);
  desk_.replay(player_, request, 1);
  ASSERT_TRUE(last().has_replay());
  const auto& game = last().replay().game();
  ASSERT_EQ(game.moves_size(), 5);
  EXPECT_EQ(game.moves(4).col(), 2u);
  EXPECT_EQ(game.moves(4).at_ms(), 50u);
  EXPECT_TRUE(game.has_winning_line()) << "x took the top row";
  request.set_record_id(10);
  desk_.replay(player_, request, 2);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_RECORD);
  EXPECT_EQ(conn().last_error()->error().text(), "no finished game has record 10");
  accounts_.read_fails = true;
  desk_.replay(player_, request, 3);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_STORAGE);
}

TEST_F(RecordsDeskTest, AGameInProgressHasNoReplayYet) {
  GameRecord playing = finished_game(9, 4);
  playing.status = "in_progress";
  accounts_.finished[RecordId{9}] = playing;
  wire::GetReplay request;
  request.set_record_id(9);
  desk_.replay(player_, request, 1);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_RECORD);
}

TEST_F(RecordsDeskTest, ARoomsLastRoundIsFoundByItsGameIdUnlessPrivate) {
  accounts_.finished[RecordId{9}] = finished_game(9, 4);
  accounts_.finished[RecordId{11}] = finished_game(11, 5, true);
  wire::GetReplay request;
  request.set_game_id(4);
  desk_.replay(player_, request, 1);
  ASSERT_TRUE(last().has_replay());
  EXPECT_EQ(last().replay().game().record_id(), 9u);
  request.set_game_id(5);
  desk_.replay(player_, request, 2);
  EXPECT_EQ(last_error(), wire::ERROR_CODE_NO_RECORD);
  EXPECT_EQ(conn().last_error()->error().text(), "game 5 has no finished round on record");
  // By its record id, a private game's replay is there for whoever has it.
  request.set_game_id(0);
  request.set_record_id(11);
  desk_.replay(player_, request, 3);
  EXPECT_TRUE(last().has_replay());
}

TEST_F(RecordsDeskTest, APlayerGoneBeforeTheReadFinishesIsToldNothing) {
  accounts_.answer_later = true;
  accounts_.games = std::vector<GameRecord>{};
  accounts_.finished[RecordId{9}] = finished_game(9, 4);
  wire::GetReplay replay;
  replay.set_record_id(9);
  desk_.history(player_, wire::GetHistory{}, 1);
  desk_.replay(player_, replay, 2);
  auto held = replies_.conn(1);  // a copy: what it had before
  replies_.drop(1);
  accounts_.run_later();
  EXPECT_TRUE(held.received.empty());
  EXPECT_TRUE(replies_.conn(1).received.empty());
}

}  // namespace
}  // namespace ttt::server
