// GameRoom without sockets: fake participants record what the room sends.
#include "game/game_room.hpp"
#include "game/bot_level_code.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <vector>

#include "executor_check.hpp"
#include "support/fake_participant.hpp"
#include "support/run_until.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {
namespace {

using ttt::testing::FakeParticipant;

// Remembers what the room told its owner and its journal. Journal writes
// complete at once, unless `hold` is set: then they wait in `pending` for the
// test to finish them, as a slow disk would. Ratings are all 1200 and
// nothing settles.
class RecordingDependencies : public RoomOwner, public GameJournal, public RatingBook {
 public:
  // RoomOwner
  void left_room(GameRoom&, SeatId player) override { left.push_back(player); }
  void room_changed(GameRoom&) override { ++changes; }
  void game_recorded(GameRoom&) override { ++recorded; }
  void room_closed(GameRoom&) override { closed = true; }
  void decided_while_away(AccountId account, wire::AwayResult result) override {
    away_results.emplace_back(account, std::move(result));
  }
  // GameJournal
  RecordId start(const GameStart&, Done done) override {
    complete(std::move(done));
    records = RecordId{number(records) + 1};
    return records;
  }
  void move(RecordId, const MoveEntry& entry, const std::optional<GameEnding>& end,
            Done done) override {
    moves.push_back(entry.move);
    clock_left.push_back(entry.clock_left);
    if (end) results.push_back(end->result);
    complete(std::move(done));
  }
  void end(RecordId, const GameEnding& ending, Done done) override {
    results.push_back(ending.result);
    complete(std::move(done));
  }
  // RatingBook
  double rating(AccountId) const override { return 1200.0; }
  std::optional<Settlement> settle(AccountId, AccountId, const GameResult&, bool, int) override {
    return settlement;
  }
  std::optional<Settlement> settlement;  // what settle answers
  void settled(const Settlement&, bool) override {}

  void complete(Done done) {
    if (hold) {
      pending.push_back(std::move(done));
    } else {
      done(true);
    }
  }
  // Finishes the oldest held write.
  void finish_one(bool ok) {
    auto done = std::move(pending.front());
    pending.erase(pending.begin());
    done(ok);
  }

  std::vector<SeatId> left;
  std::vector<std::pair<AccountId, wire::AwayResult>> away_results;
  int changes = 0;
  int recorded = 0;
  bool closed = false;
  std::vector<GameResult> results;
  std::vector<Move> moves;
  std::vector<std::chrono::milliseconds> clock_left;  // each move's, as recorded
  RecordId records{};
  bool hold = false;
  std::vector<Done> pending;
};

class GameRoomTest : public ::testing::Test {
 protected:
  std::shared_ptr<GameRoom> make_room(RoomSettings settings = {}) {
    settings.move_timeout = std::chrono::milliseconds(0);
    return std::make_shared<GameRoom>(GameId{1}, settings, io.get_executor(),
                                      RoomDependencies{observer, observer, observer});
  }
  PlayerRef ref(std::uint64_t id, const std::shared_ptr<FakeParticipant>& p, std::string name) {
    return PlayerRef{SeatId{id}, AccountId{id}, std::move(name), false, p, false, ""};
  }

  // Whether the last state `seen` by a player is of a game over.
  static bool over(const FakeParticipant& seen) {
    const wire::GameState* state = seen.last_state();
    if (state == nullptr) return false;
    return state->status() == wire::GAME_STATUS_X_WON ||
           state->status() == wire::GAME_STATUS_O_WON || state->status() == wire::GAME_STATUS_DRAW;
  }

  // The test calls the rooms from its own thread, which runs their executor
  // too (io.run_for()): it stands in for it.
  ExecutorStandIn on_executor_;
  boost::asio::io_context io;
  RecordingDependencies observer;
  std::shared_ptr<FakeParticipant> alice = std::make_shared<FakeParticipant>();
  std::shared_ptr<FakeParticipant> bob = std::make_shared<FakeParticipant>();
  std::shared_ptr<FakeParticipant> carol = std::make_shared<FakeParticipant>();
};

TEST(BotLevelCode, EveryLevelIsWrittenAndReadBackAndZeroIsNoBot) {
  for (Level level : {Level::Random, Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
    EXPECT_NE(bot_level_code(level), kNoBotLevel);
    EXPECT_EQ(level_of_code(bot_level_code(level)), level);
  }
  EXPECT_EQ(bot_level_code(Level::Random), 1) << "stored in databases: the numbers never change";
  EXPECT_EQ(bot_level_code(Level::Perfect), 5);
  EXPECT_EQ(level_of_code(99), Level::Perfect) << "a code out of range reads as the nearest";
  EXPECT_EQ(level_of_code(-3), Level::Random);
}

TEST_F(GameRoomTest, StartsWhenBothSeatsAreFilled) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 5);
  EXPECT_TRUE(room->waiting());
  ASSERT_EQ(alice->received.size(), 1u);
  EXPECT_EQ(alice->received[0].in_reply_to(), 5u);
  EXPECT_EQ(alice->received[0].joined().side(), wire::SIDE_X);
  room->seat(ref(2, bob, "bob"), wire::SIDE_X, 6);  // X is taken: bob gets O
  EXPECT_FALSE(room->waiting());
  EXPECT_TRUE(room->in_progress());
  EXPECT_EQ(bob->last_state()->status(), wire::GAME_STATUS_IN_PROGRESS);
  EXPECT_EQ(alice->last_state()->to_move(), wire::SIDE_X);
}

TEST_F(GameRoomTest, BroadcastsEveryMoveToPlayersAndSpectators) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->watch(ref(3, carol, "carol"), 0);
  room->move(SeatId{1}, 1, 1, 0);
  for (auto* p : {alice.get(), bob.get(), carol.get()}) {
    EXPECT_EQ(p->last_state()->cells(), "EEEEXEEEE");
    EXPECT_EQ(p->last_state()->spectators(), 1u);
  }
}

TEST_F(GameRoomTest, RefusalsGoOnlyToTheSender) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  const auto before = alice->received.size();
  room->move(SeatId{2}, 0, 0, 9);
  ASSERT_TRUE(bob->last_error());
  EXPECT_EQ(bob->last_error()->error().code(), wire::ERROR_CODE_NOT_YOUR_TURN);
  EXPECT_EQ(bob->received.back().in_reply_to(), 9u);
  EXPECT_EQ(alice->received.size(), before);
  room->watch(ref(3, carol, "carol"), 0);
  room->move(SeatId{3}, 0, 0, 0);
  EXPECT_EQ(carol->last_error()->error().code(), wire::ERROR_CODE_SPECTATOR);
}

TEST_F(GameRoomTest, WinIsAnnouncedWithTheLineAndReported) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  const int moves[][2] = {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 2}};
  for (int i = 0; i < 5; ++i) room->move(SeatId{i % 2 == 0 ? 1u : 2u}, moves[i][0], moves[i][1], 0);
  const auto s = *bob->last_state();
  EXPECT_EQ(s.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(s.winning_line().kind(), wire::LINE_KIND_DIAGONAL);
  ASSERT_EQ(observer.results.size(), 1u);
  EXPECT_EQ(observer.results[0].winner, Player::X);
}

TEST_F(GameRoomTest, TheFinalStateSaysWhyARatingMovedLess) {
  RoomSettings settings;
  settings.rated = true;
  auto room = make_room(settings);
  Settlement held;
  held.rated = true;
  held.x_note = held.o_note = wire::RATING_NOTE_REPEAT;
  held.repeat_game = 5;
  observer.settlement = held;
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  const int moves[][2] = {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 2}};
  for (int i = 0; i < 5; ++i) room->move(SeatId{i % 2 == 0 ? 1u : 2u}, moves[i][0], moves[i][1], 0);
  const auto s = *bob->last_state();
  ASSERT_EQ(s.status(), wire::GAME_STATUS_X_WON);
  for (const wire::PlayerInfo& p : {s.x(), s.o()}) {
    EXPECT_EQ(p.rating_note(), wire::RATING_NOTE_REPEAT);
    EXPECT_EQ(p.repeat_game(), 5u);
  }
}

TEST_F(GameRoomTest, AGameOfKInARowIsWonByARunAndTheStateSaysSo) {
  RoomSettings settings;
  settings.size = 15;
  settings.win_length = 5;
  auto room = make_room(settings);
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  EXPECT_EQ(alice->last_state()->win_length(), 5);
  EXPECT_EQ(room->summary().win_length(), 5);
  // X: row 7 (from 0), columns 3..7; O answers on row 0.
  for (int i = 0; i < 5; ++i) {
    room->move(SeatId{1}, 7, 3 + i, 0);
    if (i < 4) room->move(SeatId{2}, 0, i, 0);
  }
  const auto s = *bob->last_state();
  EXPECT_EQ(s.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(s.end_reason(), wire::END_REASON_LINE);
  EXPECT_EQ(s.winning_line().kind(), wire::LINE_KIND_ROW);
  EXPECT_EQ(s.winning_line().index(), 7);
  EXPECT_EQ(s.winning_line().start().row(), 7);
  EXPECT_EQ(s.winning_line().start().col(), 3);
  EXPECT_EQ(s.winning_line().length(), 5);
  EXPECT_EQ(line_name(*wire::line_of(s.winning_line())), "row 8 from d8 to h8");
}

TEST_F(GameRoomTest, AWholeLineGameSaysItsWinLengthIsItsSize) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  EXPECT_EQ(alice->last_state()->win_length(), 3);
  EXPECT_EQ(alice->last_state()->winning_line().length(), 0);
}

TEST_F(GameRoomTest, AwayPlayerForfeitsWhenTheGraceRunsOut) {
  RoomSettings settings;
  settings.reconnect_grace = std::chrono::milliseconds(10);
  auto room = make_room(settings);
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->away(SeatId{2});
  EXPECT_FALSE(alice->last_state()->o().connected());
  ASSERT_TRUE(testing::run_until(io, [this] { return over(*alice); }));
  EXPECT_EQ(alice->last_state()->status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(alice->last_state()->end_reason(), wire::END_REASON_DISCONNECT);
  EXPECT_EQ(observer.left, std::vector<SeatId>{SeatId{2}});
}

TEST_F(GameRoomTest, ComingBackInTimeKeepsTheSeat) {
  RoomSettings settings;
  settings.reconnect_grace = std::chrono::milliseconds(50);
  auto room = make_room(settings);
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->away(SeatId{2});
  auto bob_again = std::make_shared<FakeParticipant>();
  room->back(ref(2, bob_again, "bob"));
  io.run_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(room->in_progress());
  ASSERT_FALSE(bob_again->received.empty());
  EXPECT_EQ(bob_again->received.front().joined().side(), wire::SIDE_O);
}

TEST_F(GameRoomTest, NothingIsSentAboutAMoveUntilTheJournalHasIt) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  observer.hold = true;
  const auto alice_before = alice->received.size();
  const auto bob_before = bob->received.size();
  room->move(SeatId{1}, 1, 1, 0);
  EXPECT_EQ(alice->received.size(), alice_before);
  EXPECT_EQ(bob->received.size(), bob_before);
  // Bob can't answer a move he hasn't seen.
  room->move(SeatId{2}, 0, 0, 7);
  EXPECT_EQ(bob->received.size(), bob_before);
  observer.finish_one(true);
  EXPECT_EQ(bob->received[bob_before].state().cells(), "EEEEXEEEE");
  EXPECT_EQ(bob->last_error()->error().code(), wire::ERROR_CODE_NOT_YOUR_TURN);
  EXPECT_EQ(observer.moves, (std::vector<Move>{Move{1, 1}}));
}

TEST_F(GameRoomTest, AMoveTheJournalRefusesIsTakenBack) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  observer.hold = true;
  room->move(SeatId{1}, 2, 2, 0);
  observer.finish_one(false);
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_STORAGE);
  EXPECT_EQ(bob->last_state()->cells(), "EEEEEEEEE");
  EXPECT_EQ(bob->last_state()->to_move(), wire::SIDE_X);
  observer.hold = false;
  room->move(SeatId{1}, 0, 0, 0);  // X may move again
  EXPECT_EQ(bob->last_state()->cells(), "XEEEEEEEE");
}

TEST_F(GameRoomTest, LastPlayerLeavingClosesTheRoom) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->watch(ref(3, carol, "carol"), 0);
  room->leave(SeatId{1}, 4);
  EXPECT_TRUE(observer.closed);
  EXPECT_TRUE(carol->received.back().has_left());
  EXPECT_TRUE(alice->received.back().has_left());
  EXPECT_EQ(alice->received.back().in_reply_to(), 4u);
}

TEST_F(GameRoomTest, DeclineEndsTheOpponentsDrawOfferForEveryone) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->watch(ref(3, carol, "carol"), 0);
  room->decline(SeatId{2}, 5);
  EXPECT_EQ(bob->last_error()->error().code(), wire::ERROR_CODE_NOTHING_TO_ACCEPT);
  room->offer_draw(SeatId{1}, 0);
  room->decline(SeatId{1}, 6);  // one's own offer is not declined
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_NOTHING_TO_ACCEPT);
  room->decline(SeatId{2}, 7);
  for (const auto& who : {alice, bob, carol}) {
    ASSERT_EQ(who->offers_ended().size(), 1u);
    const wire::OfferEnded ended = who->offers_ended()[0];
    EXPECT_EQ(ended.kind(), wire::OFFER_KIND_DRAW);
    EXPECT_EQ(ended.how(), wire::OFFER_END_DECLINED);
    EXPECT_EQ(ended.by(), wire::SIDE_X);
    EXPECT_EQ(ended.by_name(), "alice");
    EXPECT_EQ(who->last_state()->draw_offered_by(), wire::SIDE_NONE);
  }
  EXPECT_TRUE(room->in_progress());
}

TEST_F(GameRoomTest, ADrawOfferLapsesWithTheNextMove) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->offer_draw(SeatId{2}, 0);
  room->move(SeatId{1}, 1, 1, 0);
  for (const auto& who : {alice, bob}) {
    ASSERT_EQ(who->offers_ended().size(), 1u);
    EXPECT_EQ(who->offers_ended()[0].how(), wire::OFFER_END_MOVED);
    EXPECT_EQ(who->offers_ended()[0].by_name(), "bob");
  }
  room->move(SeatId{2}, 0, 0, 0);  // nothing pending: nothing lapses
  EXPECT_EQ(alice->offers_ended().size(), 1u);
}

TEST_F(GameRoomTest, ARematchRequestLapsesWhenItsAskerLeaves) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->resign(SeatId{2}, 0);
  room->rematch(SeatId{2}, 0);
  EXPECT_EQ(alice->last_state()->rematch_requested_by(), wire::SIDE_O);
  room->leave(SeatId{2}, 0);
  ASSERT_EQ(alice->offers_ended().size(), 1u);
  EXPECT_EQ(alice->offers_ended()[0].kind(), wire::OFFER_KIND_REMATCH);
  EXPECT_EQ(alice->offers_ended()[0].how(), wire::OFFER_END_LEFT);
}

TEST_F(GameRoomTest, SpectatorsAreToldWhichPlayersLeft) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->watch(ref(3, carol, "carol"), 0);
  room->leave(SeatId{1}, 0);
  room->leave(SeatId{2}, 0);
  ASSERT_TRUE(carol->received.back().has_left());
  const wire::Left& left = carol->received.back().left();
  EXPECT_EQ(left.reason(), wire::LEFT_REASON_PLAYERS_LEFT);
  EXPECT_EQ(std::vector<std::string>(left.players().begin(), left.players().end()),
            (std::vector<std::string>{"alice", "bob"}));
  EXPECT_EQ(alice->received.back().left().reason(), wire::LEFT_REASON_ASKED);
}

TEST_F(GameRoomTest, SeatedPlayersAreAskedForAHeartbeatUntilTheyLeave) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  EXPECT_TRUE(alice->heartbeat);
  room->watch(ref(3, carol, "carol"), 0);
  EXPECT_FALSE(carol->heartbeat);
  room->leave(SeatId{1}, 0);
  EXPECT_FALSE(alice->heartbeat);
}

TEST_F(GameRoomTest, AnAwayPlayersSeatShowsTheTimeLeft) {
  RoomSettings settings;
  settings.reconnect_grace = std::chrono::milliseconds(30'000);
  auto room = make_room(settings);
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->away(SeatId{2});
  const wire::PlayerInfo o = alice->last_state()->o();
  EXPECT_FALSE(o.connected());
  EXPECT_GT(o.away_ms_left(), 0u);
  EXPECT_LE(o.away_ms_left(), 30'000u);
  EXPECT_EQ(alice->last_state()->x().away_ms_left(), 0u);
}

TEST_F(GameRoomTest, ASessionMovedElsewhereIsNoComeback) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  auto bob_elsewhere = std::make_shared<FakeParticipant>();
  room->back(ref(2, bob_elsewhere, "bob"));  // taken over: never away
  EXPECT_FALSE(alice->got_opponent_status());
  EXPECT_EQ(bob_elsewhere->received.front().joined().side(), wire::SIDE_O);
  EXPECT_TRUE(bob_elsewhere->heartbeat);
}

TEST_F(GameRoomTest, AClockRunningOutWhileAwayIsADisconnect) {
  RoomSettings settings;
  settings.move_timeout = std::chrono::milliseconds(20);
  settings.reconnect_grace = std::chrono::milliseconds(60'000);
  auto room = std::make_shared<GameRoom>(GameId{1}, settings, io.get_executor(),
                                         RoomDependencies{observer, observer, observer});
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  room->away(SeatId{1});  // X is to move, and away
  ASSERT_TRUE(testing::run_until(io, [this] { return over(*bob); }));
  EXPECT_EQ(bob->last_state()->status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(bob->last_state()->end_reason(), wire::END_REASON_DISCONNECT);
  // The result waits for alice's return.
  ASSERT_EQ(observer.away_results.size(), 1u);
  EXPECT_EQ(observer.away_results[0].first, AccountId{1});
  EXPECT_EQ(observer.away_results[0].second.side(), wire::SIDE_X);
  EXPECT_EQ(observer.away_results[0].second.status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(observer.away_results[0].second.opponent(), "bob");
}

TEST_F(GameRoomTest, AClockRunningOutWhilePresentIsATimeout) {
  RoomSettings settings;
  settings.move_timeout = std::chrono::milliseconds(20);
  auto room = std::make_shared<GameRoom>(GameId{1}, settings, io.get_executor(),
                                         RoomDependencies{observer, observer, observer});
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  ASSERT_TRUE(testing::run_until(io, [this] { return over(*bob); }));
  EXPECT_EQ(bob->last_state()->end_reason(), wire::END_REASON_TIMEOUT);
  EXPECT_TRUE(observer.away_results.empty());
}

TEST_F(GameRoomTest, ALeaverHearsTheEndEvenIfTheRoomClosesBeforeTheJournalAnswers) {
  auto room = make_room();
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(PlayerRef{SeatId{9}, AccountId{9}, "bot (easy)", true, bob, false, ""}, wire::SIDE_O,
             0);
  observer.hold = true;
  room->leave(SeatId{1}, 4);  // the last human leaves: the room closes
  EXPECT_TRUE(observer.closed);
  room.reset();  // the owner dropped it
  while (!observer.pending.empty()) observer.finish_one(true);
  ASSERT_FALSE(alice->received.empty());
  EXPECT_TRUE(alice->received.back().has_left());
  EXPECT_EQ(alice->received.back().in_reply_to(), 4u);
}

}  // namespace
}  // namespace ttt::server

namespace ttt::server {
namespace {

using std::chrono::milliseconds;

TEST(ChessClock, ChargesTheMoverAndAddsTheIncrement) {
  ChessClock clock(milliseconds(60'000), milliseconds(2'000));
  ASSERT_TRUE(clock.enabled());
  const auto t0 = ChessClock::Clock::time_point{} + std::chrono::hours(1);
  clock.run(Player::X, t0);
  EXPECT_EQ(clock.left(Player::X, t0 + milliseconds(1'500)), milliseconds(58'500));
  EXPECT_EQ(clock.left(Player::O, t0 + milliseconds(1'500)), milliseconds(60'000));
  EXPECT_EQ(clock.press(t0 + milliseconds(5'000)), milliseconds(57'000)) << "55 s + 2 s";
  EXPECT_FALSE(clock.running());
  clock.run(Player::O, t0 + milliseconds(5'000));
  EXPECT_EQ(clock.left(Player::O, t0 + milliseconds(65'000)), milliseconds(0)) << "never below 0";
  clock.stop(t0 + milliseconds(6'000));
  EXPECT_EQ(clock.left(Player::O, t0 + milliseconds(99'000)), milliseconds(59'000)) << "stopped";
  clock.reset();
  EXPECT_EQ(clock.left(Player::X, t0), milliseconds(60'000));
  EXPECT_FALSE(ChessClock().enabled());
}

class ClockRoomTest : public GameRoomTest {
 protected:
  std::shared_ptr<GameRoom> clock_room(std::uint32_t initial_ms, std::uint32_t increment_ms) {
    RoomSettings settings;
    settings.clock.set_initial_ms(initial_ms);
    settings.clock.set_increment_ms(increment_ms);
    return make_room(settings);
  }
};

TEST_F(ClockRoomTest, EachMoveChargesItsMoverAndEarnsTheIncrement) {
  auto room = clock_room(60'000, 2'000);
  room->seat(ref(1, alice, "alice"), wire::SIDE_X, 0);
  room->seat(ref(2, bob, "bob"), wire::SIDE_O, 0);
  auto s = *bob->last_state();
  EXPECT_EQ(s.clock().initial_ms(), 60'000u);
  EXPECT_EQ(s.clock().increment_ms(), 2'000u);
  EXPECT_LE(s.x_clock_ms(), 60'000u);
  EXPECT_GT(s.x_clock_ms(), 50'000u);
  EXPECT_EQ(s.move_time_left_ms(), 0u) << "a clock, not a move timeout";
  room->move(SeatId{1}, 1, 1, 0);
  s = *bob->last_state();
  EXPECT_GT(s.x_clock_ms(), 60'000u) << "X earned the increment";
  EXPECT_LE(s.x_clock_ms(), 62'000u);
  EXPECT_LE(s.o_clock_ms(), 60'000u);
  EXPECT_GT(s.o_clock_ms(), 50'000u);
  ASSERT_EQ(observer.clock_left.size(), 1u);
  EXPECT_EQ(observer.clock_left[0].count(), s.x_clock_ms()) << "the journal keeps X's time";
  EXPECT_EQ(room->summary().clock().initial_ms(), 60'000u) << "the list shows the clock";
}

TEST_F(ClockRoomTest, AFlagFallLosesTheGame) {
  auto room = clock_room(60'000, 0);
  // After a restart: X played b2, O has 40 ms left and is to move.
  room->restore(ref(1, alice, "alice"), ref(2, bob, "bob"), 1, RecordId{1}, {{1, 1}},
                std::chrono::milliseconds(30'000), {milliseconds(59'000), milliseconds(40)});
  room->back(ref(1, alice, "alice"));
  room->back(ref(2, bob, "bob"));
  ASSERT_TRUE(testing::run_until(io, [this] { return over(*alice); }));
  const auto s = *alice->last_state();
  EXPECT_EQ(s.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(s.end_reason(), wire::END_REASON_TIMEOUT);
  EXPECT_EQ(s.o_clock_ms(), 0u);
  EXPECT_EQ(s.x_clock_ms(), 59'000u) << "X's clock stood";
}

TEST_F(ClockRoomTest, AFlagFallAgainstAnOpponentWhoCanNoLongerWinIsADraw) {
  auto room = clock_room(60'000, 0);
  // X O X / X O O / O X _ with X to move: O can no longer complete a line.
  const std::vector<Move> moves = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}};
  room->restore(ref(1, alice, "alice"), ref(2, bob, "bob"), 1, RecordId{1}, moves,
                std::chrono::milliseconds(30'000), {milliseconds(30), milliseconds(59'000)});
  room->back(ref(1, alice, "alice"));
  room->back(ref(2, bob, "bob"));
  ASSERT_TRUE(testing::run_until(io, [this] { return over(*alice); }));
  const auto s = *bob->last_state();
  EXPECT_EQ(s.status(), wire::GAME_STATUS_DRAW);
  EXPECT_EQ(s.end_reason(), wire::END_REASON_TIMEOUT_NO_WIN);
}

TEST_F(ClockRoomTest, ARestoredClockRunsOnFromWhatWasStoredNotFromTheRestart) {
  auto room = clock_room(180'000, 0);
  room->restore(ref(1, alice, "alice"), ref(2, bob, "bob"), 1, RecordId{1}, {{1, 1}},
                std::chrono::milliseconds(30'000), {milliseconds(170'000), milliseconds(90'000)});
  room->back(ref(2, bob, "bob"));
  const auto s = *bob->last_state();
  EXPECT_EQ(s.x_clock_ms(), 170'000u);
  EXPECT_LE(s.o_clock_ms(), 90'000u);
  EXPECT_GT(s.o_clock_ms(), 89'000u) << "the time the server was down is not charged";
}

}  // namespace
}  // namespace ttt::server
