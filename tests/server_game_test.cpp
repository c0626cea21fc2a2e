// The lobby server end to end over real loopback sockets: games to a win and
// a draw, every refusal, spectators, private games, quick match, reconnects,
// clocks, bots, rematches, chat and many games at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <vector>

#include "support/test_client.hpp"
#include "support/test_server.hpp"
#include "ttt/rules.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::testing {
namespace {

using wire::ServerMessage;

bool in_progress(const wire::GameState& s) { return s.status() == wire::GAME_STATUS_IN_PROGRESS; }

// Two connected players in one started game: x created it, o joined.
struct Table {
  std::unique_ptr<TestClient> x;
  std::unique_ptr<TestClient> o;
  std::uint64_t game_id = 0;
  std::string x_token;
  std::string o_token;
  std::uint32_t moves = 0;  // moves played so far
};

Table start_game(std::uint16_t port, int size = 3, const std::string& x_name = "alice",
                 const std::string& o_name = "bob") {
  Table t;
  t.x = std::make_unique<TestClient>(port);
  t.o = std::make_unique<TestClient>(port);
  t.x_token = t.x->hello(x_name).resume_token();
  t.o_token = t.o->hello(o_name).resume_token();
  t.x->create(size);
  const wire::Joined created = t.x->expect_joined();
  EXPECT_EQ(created.side(), wire::SIDE_X);
  EXPECT_EQ(created.state().status(), wire::GAME_STATUS_WAITING);
  t.game_id = created.state().game_id();
  t.o->join(t.game_id);
  EXPECT_EQ(t.o->expect_joined().side(), wire::SIDE_O);
  t.x->expect_state(in_progress, "the game to start");
  t.o->expect_state(in_progress, "the game to start");
  return t;
}

// Plays the moves alternately from X and checks both players see each one.
wire::GameState play(Table& t, std::initializer_list<std::pair<int, int>> moves) {
  wire::GameState last;
  for (auto [row, col] : moves) {
    TestClient& mover = t.moves % 2 == 0 ? *t.x : *t.o;
    mover.move(row, col);
    const std::uint32_t count = ++t.moves;
    for (TestClient* c : {t.x.get(), t.o.get()}) {
      last = c->expect_state([count](const wire::GameState& s) { return s.move_count() == count; },
                             "move " + std::to_string(count));
    }
  }
  return last;
}

TEST(ServerGame, FullGameToAWin) {
  TestServer server;
  Table t = start_game(server.port());
  const wire::GameState end = play(t, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}});
  EXPECT_EQ(end.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_LINE);
  EXPECT_EQ(end.winning_line().kind(), wire::LINE_KIND_ROW);
  EXPECT_EQ(end.winning_line().index(), 0);
  EXPECT_EQ(end.cells(), "XXXOOEEEE");
  EXPECT_EQ(end.x().name(), "alice");
  EXPECT_EQ(end.o().name(), "bob");
}

TEST(ServerGame, FullGameToADraw) {
  TestServer server;
  Table t = start_game(server.port());
  const wire::GameState end =
      play(t, {{0, 0}, {1, 1}, {0, 1}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}, {2, 2}});
  EXPECT_EQ(end.status(), wire::GAME_STATUS_DRAW);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_BOARD_FULL);
  EXPECT_EQ(end.cells(), "XXOOOXXOX");
}

TEST(ServerGame, LargerBoardNeedsTheWholeLine) {
  TestServer server;
  Table t = start_game(server.port(), 4);
  const wire::GameState mid = play(t, {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}});
  EXPECT_EQ(mid.status(), wire::GAME_STATUS_IN_PROGRESS);
  const wire::GameState end = play(t, {{0, 3}});
  EXPECT_EQ(end.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(end.cells(), "XXXXOOOEEEEEEEEE");
}

TEST(ServerGame, RefusesEveryBadMoveWithItsReason) {
  TestServer server;
  Table t = start_game(server.port());
  t.o->move(0, 0);
  EXPECT_EQ(t.o->expect_error(wire::ERROR_CODE_NOT_YOUR_TURN).text(), "it is not your turn");
  t.x->move(3, 0);
  t.x->expect_error(wire::ERROR_CODE_OUT_OF_RANGE);
  t.x->move(-1, 2);
  t.x->expect_error(wire::ERROR_CODE_OUT_OF_RANGE);
  t.x->move(1, 1);
  t.o->expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "X's move");
  t.o->move(1, 1);
  EXPECT_EQ(t.o->expect_error(wire::ERROR_CODE_OCCUPIED).text(), "that cell is already taken");
  t.o->move(0, 0, t.game_id + 100);
  t.o->expect_error(wire::ERROR_CODE_UNKNOWN_GAME);

  // A spectator can't move; a stranger is in no game; another game's player
  // is not a player of this one.
  TestClient carol(server.port());
  carol.hello("carol");
  carol.spectate(t.game_id);
  carol.expect_joined();
  carol.move(0, 0);
  carol.expect_error(wire::ERROR_CODE_SPECTATOR);
  carol.simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  carol.expect_error(wire::ERROR_CODE_SPECTATOR);
  TestClient dave(server.port());
  dave.hello("dave");
  dave.move(0, 0);
  dave.expect_error(wire::ERROR_CODE_NOT_IN_GAME);
  dave.create(3);
  dave.expect_joined();
  dave.move(0, 0);
  dave.expect_error(wire::ERROR_CODE_GAME_NOT_STARTED);
  dave.move(0, 0, t.game_id);
  dave.expect_error(wire::ERROR_CODE_NOT_IN_GAME);

  // A finished game refuses every move.
  t.o->simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  t.x->expect_state(is_over, "the resignation");
  t.x->move(0, 0);
  t.x->expect_error(wire::ERROR_CODE_GAME_OVER);
  // Nothing a refusal touched changed the board.
  t.o->simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  const auto list = t.o->expect([](const ServerMessage& m) { return m.has_game_list(); }, "list");
  ASSERT_GE(list.game_list().games_size(), 1);
}

TEST(ServerGame, SpectatorsSeeEveryMove) {
  TestServer server;
  Table t = start_game(server.port());
  TestClient carol(server.port());
  carol.hello("carol");
  carol.spectate(t.game_id);
  const wire::Joined joined = carol.expect_joined();
  EXPECT_EQ(joined.side(), wire::SIDE_SPECTATOR);
  EXPECT_TRUE(joined.invite_code().empty());
  const std::vector<std::pair<int, int>> moves = {{1, 1}, {0, 0}, {1, 0}, {0, 1}, {2, 0}};
  std::uint32_t count = 0;
  for (auto [row, col] : moves) {
    (count % 2 == 0 ? *t.x : *t.o).move(row, col);
    ++count;
    const auto s = carol.expect_state(
        [count](const wire::GameState& st) { return st.move_count() == count; }, "a move");
    EXPECT_EQ(s.last_move().row(), row);
    EXPECT_EQ(s.last_move().col(), col);
    EXPECT_EQ(s.spectators(), 1u);
  }
  t.o->move(0, 2);
  const auto end = carol.expect_state(is_over, "the end");
  EXPECT_EQ(end.status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(end.winning_line().kind(), wire::LINE_KIND_ROW);
  EXPECT_EQ(end.winning_line().index(), 0);
}

TEST(ServerGame, PrivateGameNeedsItsInviteCode) {
  TestServer server;
  TestClient alice(server.port());
  TestClient bob(server.port());
  alice.hello("alice");
  bob.hello("bob");
  alice.create(3, /*is_private=*/true);
  const wire::Joined created = alice.expect_joined();
  const std::string code = created.invite_code();
  ASSERT_EQ(code.size(), 14u) << code;  // 12 characters, 60 bits, in groups of four
  EXPECT_TRUE(created.state().is_private());

  bob.join(created.state().game_id());
  bob.expect_error(wire::ERROR_CODE_WRONG_INVITE_CODE);
  bob.join(created.state().game_id(), "WRONG1");
  bob.expect_error(wire::ERROR_CODE_WRONG_INVITE_CODE);
  bob.spectate(created.state().game_id());
  bob.expect_error(wire::ERROR_CODE_WRONG_INVITE_CODE);
  bob.join(0, "NOPE");
  bob.expect_error(wire::ERROR_CODE_WRONG_INVITE_CODE);

  // Others don't see a private game in the list; its players do.
  bob.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  const auto list = bob.expect([](const ServerMessage& m) { return m.has_game_list(); }, "list");
  EXPECT_EQ(list.game_list().games_size(), 0);
  alice.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  const auto own = alice.expect([](const ServerMessage& m) { return m.has_game_list(); }, "list");
  ASSERT_EQ(own.game_list().games_size(), 1);
  EXPECT_TRUE(own.game_list().games(0).is_private());

  std::string typed = code;  // as typed by hand: lower case, no dashes
  std::erase(typed, '-');
  for (char& c : typed) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bob.join(0, typed);  // the code alone finds the game
  EXPECT_EQ(bob.expect_joined().side(), wire::SIDE_O);
  alice.expect_state(in_progress, "the game to start");
}

TEST(ServerGame, ListShowsGamesWithPlayersAndStatus) {
  TestServer server;
  Table t = start_game(server.port(), 5);
  TestClient carol(server.port());
  carol.hello("carol");
  carol.simple([](wire::ClientMessage& m) { m.mutable_list_games(); });
  const auto list = carol.expect([](const ServerMessage& m) { return m.has_game_list(); }, "list");
  ASSERT_EQ(list.game_list().games_size(), 1);
  const auto& g = list.game_list().games(0);
  EXPECT_EQ(g.game_id(), t.game_id);
  EXPECT_EQ(g.size(), 5);
  EXPECT_EQ(g.x_name(), "alice");
  EXPECT_EQ(g.o_name(), "bob");
  EXPECT_EQ(g.status(), wire::GAME_STATUS_IN_PROGRESS);
  EXPECT_FALSE(g.is_private());
}

TEST(ServerGame, JoiningAFullGameIsRefused) {
  TestServer server;
  Table t = start_game(server.port());
  TestClient carol(server.port());
  carol.hello("carol");
  carol.join(t.game_id);
  carol.expect_error(wire::ERROR_CODE_GAME_FULL);
  t.x->create(3);
  t.x->expect_error(wire::ERROR_CODE_ALREADY_IN_GAME);
}

TEST(ServerGame, BadSizesAreRefused) {
  TestServer server;
  TestClient alice(server.port());
  alice.hello("alice");
  for (int size : {0, 2, 20, -3, 1000000}) {
    alice.create(size);
    alice.expect_error(wire::ERROR_CODE_BAD_REQUEST);
    alice.quick(size);
    alice.expect_error(wire::ERROR_CODE_BAD_REQUEST);
  }
}

TEST(ServerGame, QuickMatchPairsTwoPlayersOfTheSameSize) {
  TestServer server;
  TestClient alice(server.port());
  TestClient bob(server.port());
  TestClient carol(server.port());
  alice.hello("alice");
  bob.hello("bob");
  carol.hello("carol");
  alice.quick(4);
  alice.expect([](const ServerMessage& m) { return m.has_queued(); }, "Queued");
  carol.quick(3);  // another size: no match
  carol.expect([](const ServerMessage& m) { return m.has_queued(); }, "Queued");
  bob.quick(4);
  const wire::Joined b = bob.expect_joined();
  const wire::Joined a = alice.expect_joined();
  EXPECT_EQ(a.state().game_id(), b.state().game_id());
  EXPECT_EQ(a.side(), wire::SIDE_X);
  EXPECT_EQ(b.side(), wire::SIDE_O);
  EXPECT_EQ(b.state().size(), 4);
  EXPECT_EQ(server.stats().queued, 1u);
  carol.simple([](wire::ClientMessage& m) { m.mutable_leave(); });
  carol.expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
  EXPECT_EQ(server.stats().queued, 0u);
}

TEST(ServerGame, QuickMatchBotStepsInAfterTheFallbackWait) {
  auto config = test_config();
  config.lobby.bot_fallback = std::chrono::milliseconds(100);
  config.lobby.fallback_level = Level::Random;
  TestServer server(config);
  TestClient alice(server.port());
  alice.hello("alice");
  alice.quick(3);
  alice.expect([](const ServerMessage& m) { return m.has_queued(); }, "Queued");
  const wire::Joined joined = alice.expect_joined();
  EXPECT_EQ(joined.side(), wire::SIDE_X);
  const auto started = alice.expect_state(in_progress, "the bot game");
  EXPECT_TRUE(started.o().is_bot());
}

TEST(ServerGame, ReconnectWithTheTokenRestoresTheSeatAndState) {
  TestServer server;
  Table t = start_game(server.port());
  play(t, {{1, 1}, {0, 0}});
  t.x.reset();  // alice's connection drops
  const auto away =
      t.o->expect([](const ServerMessage& m) { return m.has_opponent(); }, "opponent away");
  EXPECT_FALSE(away.opponent().connected());
  EXPECT_GT(away.opponent().grace_ms(), 0u);

  t.x = std::make_unique<TestClient>(server.port());
  const wire::Welcome welcome = t.x->hello("", t.x_token);
  EXPECT_TRUE(welcome.resumed());
  EXPECT_EQ(welcome.name(), "alice");
  const wire::Joined joined = t.x->expect_joined();
  EXPECT_EQ(joined.side(), wire::SIDE_X);
  EXPECT_EQ(joined.state().cells(), "OEEEXEEEE");
  EXPECT_EQ(joined.state().to_move(), wire::SIDE_X);
  const auto back =
      t.o->expect([](const ServerMessage& m) { return m.has_opponent(); }, "opponent back");
  EXPECT_TRUE(back.opponent().connected());
  // The game goes on.
  t.x->move(2, 2);
  t.o->expect_state([](const wire::GameState& s) { return s.move_count() == 3; }, "move 3");
}

TEST(ServerGame, UnknownResumeTokenIsRefused) {
  TestServer server;
  TestClient alice(server.port());
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_resume_token("not-a-token");
  alice.send(m);
  EXPECT_TRUE(alice.expect_error(wire::ERROR_CODE_BAD_RESUME_TOKEN).fatal());
  EXPECT_TRUE(alice.wait_closed());
}

TEST(ServerGame, ASecondConnectionWithTheTokenReplacesTheFirst) {
  TestServer server;
  Table t = start_game(server.port());
  TestClient again(server.port());
  EXPECT_TRUE(again.hello("", t.x_token).resumed());
  again.expect_joined();
  t.x->expect_error(wire::ERROR_CODE_REPLACED);
  EXPECT_TRUE(t.x->wait_closed());
  again.move(0, 0);
  t.o->expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "the move");
}

TEST(ServerGame, GracePeriodExpiringForfeitsTheGame) {
  auto config = test_config();
  config.lobby.reconnect_grace = std::chrono::milliseconds(150);
  TestServer server(config);
  Table t = start_game(server.port());
  play(t, {{1, 1}});
  t.o.reset();
  const auto end = t.x->expect_state(is_over, "the forfeit");
  EXPECT_EQ(end.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_DISCONNECT);
  // After the forfeit, alice hears that bob is gone for good (the "away"
  // notice came before the end and was skipped above).
  const auto gone =
      t.x->expect([](const ServerMessage& m) { return m.has_opponent(); }, "opponent left");
  EXPECT_EQ(gone.opponent().game_id(), t.game_id);
  EXPECT_TRUE(gone.opponent().left());
  EXPECT_FALSE(gone.opponent().connected());
  // The token is gone with the seat.
  TestClient late(server.port());
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_resume_token(t.o_token);
  late.send(m);
  late.expect_error(wire::ERROR_CODE_BAD_RESUME_TOKEN);
}

TEST(ServerGame, MoveTimerForfeitsTheGame) {
  auto config = test_config();
  config.lobby.move_timeout = std::chrono::milliseconds(200);
  TestServer server(config);
  Table t = start_game(server.port());
  t.x->move(0, 0);
  const auto mid =
      t.o->expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "X's move");
  EXPECT_GT(mid.move_time_left_ms(), 0u);
  EXPECT_LE(mid.move_time_left_ms(), 200u);
  const auto end = t.x->expect_state(is_over, "O's clock to run out");
  EXPECT_EQ(end.status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_TIMEOUT);
}

// Starts a game on a server with that move clock, has X move, and lets O sit
// for `wait`; the state that ended the game, or nullopt if none came.
std::optional<wire::GameState> end_while_o_sits(std::chrono::milliseconds move_timeout,
                                                std::chrono::milliseconds wait) {
  auto config = test_config();
  config.lobby.move_timeout = move_timeout;
  TestServer server(config);
  Table t = start_game(server.port());
  t.x->move(1, 1);
  const auto mid =
      t.o->expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "X's move");
  EXPECT_EQ(mid.move_time_left_ms() == 0, move_timeout.count() == 0) << "0 = no clock";
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (auto now = std::chrono::steady_clock::now(); now < deadline;
       now = std::chrono::steady_clock::now()) {
    const auto m =
        t.x->receive(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    if (m && m->has_state() && is_over(m->state())) return m->state();
  }
  // Still in progress: O may still move.
  t.o->move(0, 0);
  const auto after = t.x->expect_state([](const wire::GameState& s) { return s.move_count() == 2; },
                                       "O's late move");
  EXPECT_EQ(after.status(), wire::GAME_STATUS_IN_PROGRESS);
  return std::nullopt;
}

TEST(ServerGame, MoveTimeoutZeroTurnsTheClockOff) {
  // With a 200 ms clock, O sitting still loses on time...
  const auto timed = end_while_o_sits(std::chrono::milliseconds(200), 5s);
  ASSERT_TRUE(timed) << "a 200 ms clock never ran out";
  EXPECT_EQ(timed->end_reason(), wire::END_REASON_TIMEOUT);
  EXPECT_EQ(timed->status(), wire::GAME_STATUS_X_WON);
  // ...with the clock off, three times as long changes nothing.
  const auto untimed = end_while_o_sits(std::chrono::milliseconds(0), 600ms);
  EXPECT_FALSE(untimed) << "forfeited with the clock off: "
                        << wire::EndReason_Name(untimed->end_reason());
}

TEST(ServerGame, GameAgainstTheServersBotFinishes) {
  TestServer server;
  for (auto level : {wire::BOT_LEVEL_RANDOM, wire::BOT_LEVEL_PERFECT}) {
    TestClient alice(server.port());
    // A name of each round's own: the last round's connection may not be
    // closed at the server yet (with several threads), and one name has one
    // session.
    alice.hello(level == wire::BOT_LEVEL_RANDOM ? "alice" : "alice2");
    alice.create(3, false, true, level);
    const wire::Joined joined = alice.expect_joined();
    EXPECT_EQ(joined.side(), wire::SIDE_X);
    wire::GameState s = alice.expect_state(in_progress, "the bot game to start");
    EXPECT_TRUE(s.o().is_bot());
    // Play the first free cell whenever it is our turn.
    for (int turn = 0; turn < 10 && !is_over(s); ++turn) {
      const auto cell = s.cells().find('E');
      alice.move(static_cast<int>(cell / 3), static_cast<int>(cell % 3));
      s = alice.expect_state(
          [](const wire::GameState& st) { return is_over(st) || st.to_move() == wire::SIDE_X; },
          "the bot's answer");
    }
    ASSERT_TRUE(is_over(s));
    if (level == wire::BOT_LEVEL_PERFECT) {
      EXPECT_NE(s.status(), wire::GAME_STATUS_X_WON);
    }
    alice.simple([](wire::ClientMessage& m) { m.mutable_leave(); });
    alice.expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
  }
  EXPECT_EQ(server.stats().rooms, 0u);
  EXPECT_EQ(server.stats().bots, 0u);
}

TEST(ServerGame, ResignationEndsTheGameForTheOpponent) {
  TestServer server;
  Table t = start_game(server.port());
  t.x->simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  const auto end = t.o->expect_state(is_over, "the resignation");
  EXPECT_EQ(end.status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_RESIGNATION);
}

TEST(ServerGame, DrawOfferAcceptedEndsInADraw) {
  TestServer server;
  Table t = start_game(server.port());
  t.x->simple([](wire::ClientMessage& m) { m.mutable_offer_draw(); });
  const auto offered = t.o->expect_state(
      [](const wire::GameState& s) { return s.draw_offered_by() == wire::SIDE_X; }, "the offer");
  EXPECT_EQ(offered.status(), wire::GAME_STATUS_IN_PROGRESS);
  t.o->simple([](wire::ClientMessage& m) { m.mutable_offer_draw(); });
  const auto end = t.x->expect_state(is_over, "the agreed draw");
  EXPECT_EQ(end.status(), wire::GAME_STATUS_DRAW);
  EXPECT_EQ(end.end_reason(), wire::END_REASON_DRAW_AGREED);
}

TEST(ServerGame, AMoveWithdrawsAPendingDrawOffer) {
  TestServer server;
  Table t = start_game(server.port());
  t.o->simple([](wire::ClientMessage& m) { m.mutable_offer_draw(); });
  t.x->expect_state([](const wire::GameState& s) { return s.draw_offered_by() == wire::SIDE_O; },
                    "the offer");
  t.x->move(0, 0);
  const auto s =
      t.o->expect_state([](const wire::GameState& st) { return st.move_count() == 1; }, "the move");
  EXPECT_EQ(s.draw_offered_by(), wire::SIDE_NONE);
}

TEST(ServerGame, RematchSwapsSides) {
  TestServer server;
  Table t = start_game(server.port());
  t.x->simple([](wire::ClientMessage& m) { m.mutable_rematch(); });
  t.x->expect_error(wire::ERROR_CODE_BAD_REQUEST);  // not over yet
  t.x->simple([](wire::ClientMessage& m) { m.mutable_resign(); });
  t.o->expect_state(is_over, "the resignation");
  t.o->simple([](wire::ClientMessage& m) { m.mutable_rematch(); });
  t.x->expect_state(
      [](const wire::GameState& s) { return s.rematch_requested_by() == wire::SIDE_O; },
      "the rematch request");
  t.x->simple([](wire::ClientMessage& m) { m.mutable_rematch(); });
  const auto round2 = t.o->expect_state(
      [](const wire::GameState& s) {
        return s.round() == 2 && s.status() == wire::GAME_STATUS_IN_PROGRESS;
      },
      "round 2");
  EXPECT_EQ(round2.x().name(), "bob");
  EXPECT_EQ(round2.o().name(), "alice");
  EXPECT_EQ(round2.cells(), "EEEEEEEEE");
  t.o->move(1, 1);  // bob is X now
  t.x->expect_state([](const wire::GameState& s) { return s.move_count() == 1; }, "bob's move");
}

TEST(ServerGame, ChatReachesPlayersAndSpectatorsWithinLimits) {
  TestServer server;
  Table t = start_game(server.port());
  TestClient carol(server.port());
  carol.hello("carol");
  carol.spectate(t.game_id);
  carol.expect_joined();
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text("good luck");
  t.x->send(chat);
  for (TestClient* c : {t.o.get(), &carol, t.x.get()}) {
    const auto m = c->expect([](const ServerMessage& r) { return r.has_chat(); }, "chat");
    EXPECT_EQ(m.chat().text(), "good luck");
    EXPECT_EQ(m.chat().from(), "alice");
    EXPECT_EQ(m.chat().from_side(), wire::SIDE_X);
  }
  chat.mutable_chat()->set_text(std::string(201, 'a'));
  t.x->send(chat);
  t.x->expect_error(wire::ERROR_CODE_CHAT_TOO_LONG);
  chat.mutable_chat()->set_text("bell\a");
  t.x->send(chat);
  t.x->expect_error(wire::ERROR_CODE_BAD_REQUEST);
  chat.mutable_chat()->set_text("spam");
  for (int i = 0; i < 10; ++i) t.o->send(chat);
  t.o->expect_error(wire::ERROR_CODE_RATE_LIMITED);
}

TEST(ServerGame, LeavingAGameInProgressResignsIt) {
  TestServer server;
  Table t = start_game(server.port());
  t.o->simple([](wire::ClientMessage& m) { m.mutable_leave(); });
  t.o->expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
  const auto end = t.x->expect_state(is_over, "the game to end");
  EXPECT_EQ(end.end_reason(), wire::END_REASON_RESIGNATION);
  const auto left =
      t.x->expect([](const ServerMessage& m) { return m.has_opponent(); }, "opponent left");
  EXPECT_TRUE(left.opponent().left());
  t.x->simple([](wire::ClientMessage& m) { m.mutable_leave(); });
  t.x->expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
  EXPECT_EQ(server.stats().rooms, 0u);
}

TEST(ServerGame, VersionMismatchIsRefusedClearly) {
  TestServer server;
  TestClient old(server.port());
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(99);
  m.mutable_hello()->set_name("future");
  old.send(m);
  const auto error = old.expect_error(wire::ERROR_CODE_VERSION_UNSUPPORTED);
  EXPECT_TRUE(error.fatal());
  EXPECT_NE(error.text().find("version 1"), std::string::npos);
  EXPECT_TRUE(old.wait_closed());
}

TEST(ServerGame, BadNamesAreRefused) {
  TestServer server;
  for (std::string name : {std::string(), std::string(33, 'n'), std::string("tab\there"),
                           std::string(" padded"), std::string("bell\a")}) {
    TestClient c(server.port());
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_name(name);
    c.send(m);
    EXPECT_TRUE(c.expect_error(wire::ERROR_CODE_BAD_REQUEST).fatal()) << name;
  }
  // Invalid UTF-8 in a proto3 string does not even parse.
  TestClient broken(server.port());
  broken.send_raw(std::string("\x00\x00\x00\x08\x12\x06\x08\x01\x12\x02\xff\xfe", 12));
  broken.expect_error(wire::ERROR_CODE_BAD_FRAME);
  TestClient ok(server.port());
  EXPECT_EQ(ok.hello("Zoë").name(), "Zoë");
}

TEST(ServerGame, ShutdownTellsEveryClientGoodbye) {
  auto config = test_config();
  config.db = "none";  // without a database, games end without a result
  auto server = std::make_unique<TestServer>(config);
  Table t = start_game(server->port());
  TestClient idle(server->port());
  server->server().stop("maintenance");
  for (TestClient* c : {t.x.get(), t.o.get()}) {
    const auto end = c->expect_state(is_over, "the aborted game");
    EXPECT_EQ(end.end_reason(), wire::END_REASON_ABORTED);
    const auto bye = c->expect([](const ServerMessage& m) { return m.has_goodbye(); }, "Goodbye");
    EXPECT_EQ(bye.goodbye().reason(), "maintenance");
    EXPECT_TRUE(c->wait_closed());
  }
  EXPECT_TRUE(idle.wait_closed());
  server.reset();  // run() has returned; the destructor joins promptly
}

// Checks a finished game's last state against its board by the rules: the
// holder of a whole line won by LINE, with that line named; otherwise the
// board is full and it is a draw by BOARD_FULL.
void expect_consistent_end(const wire::GameState& s) {
  SCOPED_TRACE("game " + std::to_string(s.game_id()) + ", cells " + s.cells());
  const auto board = Board::parse(s.cells());
  ASSERT_TRUE(board);
  const auto marks = static_cast<unsigned>(
      std::count_if(s.cells().begin(), s.cells().end(), [](char c) { return c != 'E'; }));
  EXPECT_EQ(s.move_count(), marks);
  if (const auto won = winner(*board)) {
    EXPECT_EQ(s.status(), *won == Player::X ? wire::GAME_STATUS_X_WON : wire::GAME_STATUS_O_WON);
    EXPECT_EQ(s.end_reason(), wire::END_REASON_LINE);
    EXPECT_TRUE(wire::line_of(s.winning_line()) == winning_line(*board))
        << wire::LineKind_Name(s.winning_line().kind()) << " " << s.winning_line().index();
    // The last move completed the line.
    EXPECT_EQ(winner_at(*board, s.last_move().row(), s.last_move().col()), won);
  } else {
    EXPECT_TRUE(is_draw(*board));
    EXPECT_EQ(s.status(), wire::GAME_STATUS_DRAW);
    EXPECT_EQ(s.end_reason(), wire::END_REASON_BOARD_FULL);
    EXPECT_EQ(s.winning_line().kind(), wire::LINE_KIND_NONE);
  }
}

// How the games of play_concurrent_games ended.
struct Outcomes {
  int x_won = 0;
  int o_won = 0;
  int draws = 0;
};

// Plays kGames random games at once, all interleaved, on `server`.
Outcomes play_concurrent_games(TestServer& server, int kGames) {
  std::vector<Table> tables;
  tables.reserve(kGames);
  for (int i = 0; i < kGames; ++i) {
    tables.push_back(
        start_game(server.port(), 3, "x" + std::to_string(i), "o" + std::to_string(i)));
  }
  // Every game plays its own random legal sequence, all interleaved.
  std::mt19937 rng(99);
  std::vector<std::vector<int>> orders(kGames);
  for (auto& order : orders) {
    order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::shuffle(order.begin(), order.end(), rng);
  }
  std::vector<Game> expected(kGames, Game(3));
  // The last state each player of each game saw.
  std::vector<std::array<wire::GameState, 2>> last(kGames);
  Outcomes outcomes;
  for (int ply = 0; ply < 9; ++ply) {
    for (int g = 0; g < kGames; ++g) {
      if (expected[g].over()) continue;
      TestClient& mover = ply % 2 == 0 ? *tables[g].x : *tables[g].o;
      mover.move(orders[g][ply] / 3, orders[g][ply] % 3);
    }
    for (int g = 0; g < kGames; ++g) {
      if (expected[g].over()) continue;
      EXPECT_EQ(expected[g].play(expected[g].to_move(), orders[g][ply] / 3, orders[g][ply] % 3),
                std::nullopt);
      for (int side = 0; side < 2; ++side) {
        TestClient& c = side == 0 ? *tables[g].x : *tables[g].o;
        last[g][side] = c.expect_state(
            [ply](const wire::GameState& st) {
              return st.move_count() == static_cast<unsigned>(ply + 1);
            },
            "the move");
        if (last[g][side].cells() != expected[g].board().to_string()) {
          ADD_FAILURE() << "game " << g << " ply " << ply << ": " << last[g][side].cells();
          return outcomes;
        }
      }
    }
  }
  for (int g = 0; g < kGames; ++g) {
    if (!expected[g].over()) {
      ADD_FAILURE() << "game " << g << " did not end";
      return outcomes;
    }
    for (const wire::GameState& s : last[g]) {
      expect_consistent_end(s);
      const GameStatus status = expected[g].status();
      EXPECT_EQ(s.status(), status == GameStatus::XWon   ? wire::GAME_STATUS_X_WON
                            : status == GameStatus::OWon ? wire::GAME_STATUS_O_WON
                                                         : wire::GAME_STATUS_DRAW);
    }
    EXPECT_EQ(last[g][0].SerializeAsString(), last[g][1].SerializeAsString())
        << "both players see the same end";
    const auto status = last[g][0].status();
    (status == wire::GAME_STATUS_X_WON   ? outcomes.x_won
     : status == wire::GAME_STATUS_O_WON ? outcomes.o_won
                                         : outcomes.draws)++;
  }
  EXPECT_EQ(server.stats().games_finished, static_cast<std::uint64_t>(kGames));
  return outcomes;
}

TEST(ServerGame, TwoHundredConcurrentGamesAllFinishCorrectly) {
  TestServer server;
  const Outcomes outcomes = play_concurrent_games(server, 200);
  EXPECT_EQ(outcomes.x_won + outcomes.o_won + outcomes.draws, 200);
  // The random games cover every kind of end, so each check above ran.
  EXPECT_GT(outcomes.x_won, 0);
  EXPECT_GT(outcomes.o_won, 0);
  EXPECT_GT(outcomes.draws, 0);
}

TEST(ServerGame, ConcurrentGamesOnSeveralThreadsWithBots) {
  auto config = test_config();
  config.threads = 4;
  config.bot_threads = 2;
  TestServer server(config);
  // Bot games run beside the human ones, their searches on the bot threads.
  std::vector<std::unique_ptr<TestClient>> bot_players;
  for (int i = 0; i < 8; ++i) {
    bot_players.push_back(std::make_unique<TestClient>(server.port()));
    bot_players.back()->hello("vs-bot" + std::to_string(i));
    bot_players.back()->create(4, false, true, wire::BOT_LEVEL_MEDIUM);
  }
  play_concurrent_games(server, 50);
  for (auto& c : bot_players) {
    const auto s = c->expect_state(in_progress, "the bot game");
    EXPECT_TRUE(s.o().is_bot());
  }
}

TEST(ServerGame, ABotThinkingLongNeverHoldsUpOtherGames) {
  auto config = test_config();
  config.threads = 1;  // one I/O thread: a search on it would stall every connection
  config.bot_threads = 1;
  config.lobby.bot_budget = 4s;
  TestServer server(config);

  // Carol plays O against the perfect bot on 15x15: the bot, X, thinks first.
  TestClient carol(server.port());
  carol.hello("carol");
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(15);
  create.mutable_create_game()->set_vs_bot(true);
  create.mutable_create_game()->set_bot_level(wire::BOT_LEVEL_PERFECT);
  create.mutable_create_game()->set_side(wire::SIDE_O);
  carol.send(create);
  EXPECT_EQ(carol.expect_joined().side(), wire::SIDE_O);
  const auto thinking = carol.expect_state(
      [](const wire::GameState& s) { return in_progress(s) && s.to_move() == wire::SIDE_X; },
      "the bot's game to start");
  ASSERT_EQ(thinking.move_count(), 0u) << "the bot answered at once: nothing to overlap";
  ASSERT_TRUE(thinking.x().is_bot());

  // Meanwhile a whole human game of some 200 moves, each seen by both players
  // before the next, is played on the same server: the cells in row-major
  // order, which completes X's anti-diagonal at move 211. Were the search on
  // the I/O thread, nothing would move until it ended, and the bot's one move
  // would then overtake the rest of this game.
  Table t = start_game(server.port(), 15);
  Game expected(15);
  wire::GameState end;
  for (int cell = 0; !expected.over(); ++cell) {
    ASSERT_EQ(expected.play(expected.to_move(), cell / 15, cell % 15), std::nullopt);
    end = play(t, {{cell / 15, cell % 15}});
  }
  ASSERT_EQ(end.move_count(), 211u);
  ASSERT_EQ(end.status(), wire::GAME_STATUS_X_WON);

  // The bot's move had not been sent when the human game ended...
  while (const auto m = carol.receive(0ms)) {
    ASSERT_FALSE(m->has_state() && m->state().move_count() > 0)
        << "the bot moved before the human game ended";
  }
  // ...and it does come: the search was running all along.
  const auto answered = carol.expect_state(
      [](const wire::GameState& s) { return s.move_count() == 1; }, "the bot's first move", 15s);
  EXPECT_EQ(answered.to_move(), wire::SIDE_O);
}

}  // namespace
}  // namespace ttt::testing
