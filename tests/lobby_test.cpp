// The Lobby without sockets: fake participants say Hello, match, play and go
// away, and the test reads what the lobby sent each of them.
#include "local_lobby.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "executor_check.hpp"
#include "lobby/text_rules.hpp"
#include "store/sqlite_store.hpp"
#include "store/store_writer.hpp"
#include "store/stored_accounts.hpp"
#include "support/fake_participant.hpp"
#include "support/run_until.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

using FakeConnection = ttt::testing::FakeParticipant;

class LobbyTest : public ::testing::Test {
 protected:
  LobbyTest()
      : logic_(boost::asio::make_strand(io_)),
        local_(std::make_unique<LocalLobby>(logic_, logic_, config())) {}

  static LobbyConfig config() {
    LobbyConfig c;
    c.bot_budget = std::chrono::milliseconds(1);
    c.rate_one_address = true;  // most players here share an address
    return c;
  }

  Lobby& lobby() { return local_->lobby; }
  std::shared_ptr<FakeConnection> connect(const std::string& address = "192.0.2.1") {
    auto conn = std::make_shared<FakeConnection>();
    inboxes_[conn.get()] = lobby().open(conn, address);
    return conn;
  }
  void send(const std::shared_ptr<FakeConnection>& conn, wire::ClientMessage m) {
    m.set_request_id(++request_id_);
    inboxes_.at(conn.get())->receive(m);
    io_.poll();
  }
  // The connection drops, as a session reports it.
  void disconnect(const std::shared_ptr<FakeConnection>& conn) {
    inboxes_.at(conn.get())->closed();
    io_.poll();
  }
  std::shared_ptr<FakeConnection> player(const std::string& name,
                                         const std::string& address = "192.0.2.1") {
    auto conn = connect(address);
    wire::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_name(name);
    send(conn, hello);
    return conn;
  }
  void quick(const std::shared_ptr<FakeConnection>& conn, int size) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(size);
    send(conn, m);
  }

  // The test drives the lobby from its own thread, which runs the logic
  // executor too (io_.poll()): it stands in for it.
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  boost::asio::strand<boost::asio::io_context::executor_type> logic_;
  std::unique_ptr<StoreWriter> writer_;  // declared before the lobby that uses it
  std::unique_ptr<LocalLobby> local_;
  std::map<FakeConnection*, std::shared_ptr<Inbox>> inboxes_;
  std::uint32_t request_id_ = 0;
};

TEST_F(LobbyTest, HelloIsAnsweredWithAWelcomeTokenAndSecret) {
  auto alice = player("alice");
  ASSERT_FALSE(alice->received.empty());
  const auto& welcome = alice->received.front();
  ASSERT_TRUE(welcome.has_welcome());
  EXPECT_EQ(welcome.in_reply_to(), 1u);
  EXPECT_EQ(welcome.welcome().name(), "alice");
  EXPECT_EQ(welcome.welcome().resume_token().size(), 32u);
  EXPECT_EQ(welcome.welcome().secret().size(), 32u);
  EXPECT_EQ(lobby().stats().players, 1u);
}

TEST_F(LobbyTest, MessagesBeforeHelloCloseTheConnection) {
  auto stranger = connect();
  wire::ClientMessage list;
  list.mutable_list_games();
  send(stranger, list);
  ASSERT_NE(stranger->last_error(), nullptr);
  EXPECT_EQ(stranger->last_error()->error().code(), wire::ERROR_CODE_HELLO_REQUIRED);
  EXPECT_TRUE(stranger->closed);
}

TEST_F(LobbyTest, QuickMatchPairsTheFirstTwoOfASize) {
  auto a = player("a");
  auto b = player("b");
  auto c = player("c");
  quick(a, 3);
  quick(c, 4);
  EXPECT_EQ(lobby().stats().queued, 2u);
  quick(b, 3);
  EXPECT_EQ(lobby().stats().queued, 1u);
  EXPECT_EQ(lobby().stats().rooms, 1u);
  const auto* joined_a = a->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  const auto* joined_b = b->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_TRUE(joined_a && joined_b);
  EXPECT_EQ(joined_a->joined().side(), wire::SIDE_X);
  EXPECT_EQ(joined_b->joined().side(), wire::SIDE_O);
}

TEST_F(LobbyTest, QuickMatchPairsOnlyEqualSizeAndWinLength) {
  auto quick_k = [this](const std::shared_ptr<FakeConnection>& conn, int size, int k) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(size);
    m.mutable_quick_match()->set_win_length(k);
    send(conn, m);
  };
  auto a = player("a");
  auto b = player("b");
  auto c = player("c");
  auto d = player("d");
  quick_k(a, 15, 5);
  quick_k(b, 15, 0);  // the whole line: not a's game
  quick_k(c, 15, 4);  // nor this
  EXPECT_EQ(lobby().stats().queued, 3u);
  const auto* queued = a->last([](const wire::ServerMessage& m) { return m.has_queued(); });
  ASSERT_NE(queued, nullptr);
  EXPECT_EQ(queued->queued().size(), 15);
  EXPECT_EQ(queued->queued().win_length(), 5);
  quick_k(d, 15, 5);
  EXPECT_EQ(lobby().stats().queued, 2u);
  const auto* joined = d->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->joined().state().x().name(), "a");
  EXPECT_EQ(joined->joined().state().win_length(), 5);
  // k = N asks for the same game as k = 0.
  auto e = player("e");
  quick_k(e, 15, 15);
  const auto* whole = e->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->joined().state().x().name(), "b");
  EXPECT_EQ(whole->joined().state().win_length(), 15);
}

TEST_F(LobbyTest, BoardsUpTo19AndWinLengthsThatFitThemAreAccepted) {
  auto create = [this](const std::shared_ptr<FakeConnection>& conn, int size, int k) {
    wire::ClientMessage m;
    m.mutable_create_game()->set_size(size);
    m.mutable_create_game()->set_win_length(k);
    send(conn, m);
  };
  auto a = player("a");
  create(a, 20, 0);
  ASSERT_NE(a->last_error(), nullptr);
  EXPECT_EQ(a->last_error()->error().code(), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(a->last_error()->error().text(), "board size must be 3 to 19, got 20");
  create(a, 15, 2);
  EXPECT_EQ(a->last_error()->error().text(),
            "win length must be 3 to 15 on a 15x15 board (0: the whole line), got 2");
  create(a, 7, 8);
  EXPECT_EQ(a->last_error()->error().text(),
            "win length must be 3 to 7 on a 7x7 board (0: the whole line), got 8");
  wire::ClientMessage quick;
  quick.mutable_quick_match()->set_size(9);
  quick.mutable_quick_match()->set_win_length(-1);
  send(a, quick);
  EXPECT_EQ(a->last_error()->error().text(),
            "win length must be 3 to 9 on a 9x9 board (0: the whole line), got -1");
  EXPECT_EQ(lobby().stats().rooms, 0u);
  EXPECT_EQ(lobby().stats().queued, 0u);
  create(a, 19, 5);
  const auto* joined = a->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->joined().state().size(), 19);
  EXPECT_EQ(joined->joined().state().win_length(), 5);
  EXPECT_EQ(joined->joined().state().cells().size(), 361u);
  wire::ClientMessage list;
  list.mutable_list_games();
  send(a, list);
  const auto* games = a->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
  ASSERT_NE(games, nullptr);
  ASSERT_EQ(games->game_list().games_size(), 1);
  EXPECT_EQ(games->game_list().games(0).size(), 19);
  EXPECT_EQ(games->game_list().games(0).win_length(), 5);
}

TEST_F(LobbyTest, TheFallbackBotPlaysTheGameOfTheQueueItSteppedInto) {
  LobbyConfig c = config();
  c.bot_fallback = std::chrono::milliseconds(1);
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto a = player("a");
  wire::ClientMessage m;
  m.mutable_quick_match()->set_size(9);
  m.mutable_quick_match()->set_win_length(4);
  send(a, m);
  const auto has_state = [](const wire::ServerMessage& r) { return r.has_state(); };
  ASSERT_TRUE(testing::run_until(io_, [&] { return a->last(has_state) != nullptr; }));
  const auto* started = a->last(has_state);
  ASSERT_NE(started, nullptr);
  EXPECT_EQ(started->state().win_length(), 4);
  EXPECT_EQ(started->state().size(), 9);
  EXPECT_TRUE(started->state().o().is_bot());
  // The bot answers a move on the 9x9 board.
  wire::ClientMessage move;
  move.mutable_make_move()->set_row(4);
  move.mutable_make_move()->set_col(4);
  send(a, move);
  ASSERT_TRUE(
      testing::run_until(io_, [&] { return a->last(has_state)->state().move_count() >= 2; }));
  const auto* state = a->last(has_state);
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->state().move_count(), 2u);
}

TEST_F(LobbyTest, AQueuedPlayerWhoLeavesIsNotMatched) {
  auto a = player("a");
  auto b = player("b");
  quick(a, 5);
  disconnect(a);
  quick(b, 5);
  EXPECT_EQ(lobby().stats().rooms, 0u);
  EXPECT_EQ(lobby().stats().queued, 1u);
}

TEST_F(LobbyTest, ADisconnectedPlayerInAGameIsHeldAndComesBackWithTheToken) {
  auto a = player("a");
  auto b = player("b");
  quick(a, 3);
  quick(b, 3);
  const std::string token = b->received.front().welcome().resume_token();
  disconnect(b);
  EXPECT_EQ(lobby().stats().players, 2u) << "b's seat is held";
  const auto* away = a->last([](const wire::ServerMessage& m) { return m.has_opponent(); });
  ASSERT_NE(away, nullptr);
  EXPECT_FALSE(away->opponent().connected());

  auto again = connect();
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  send(again, hello);
  ASSERT_FALSE(again->received.empty());
  EXPECT_TRUE(again->received.front().welcome().resumed());
  EXPECT_NE(again->received.front().welcome().resume_token(), token) << "tokens rotate";
  const auto* joined = again->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->in_reply_to(), request_id_);
}

TEST_F(LobbyTest, ADisconnectedPlayerOutsideAGameIsForgotten) {
  auto a = player("a");
  disconnect(a);
  EXPECT_EQ(lobby().stats().players, 0u);
  EXPECT_EQ(lobby().stats().connections, 0u);
  EXPECT_EQ(lobby().stats().accounts, 1u) << "the name stays owned";
}

TEST_F(LobbyTest, ATakenNameIsRefusedWithoutItsSecret) {
  auto first = player("alice");
  const std::string secret = first->received.front().welcome().secret();
  disconnect(first);
  auto impostor = player("Alice");
  ASSERT_NE(impostor->last_error(), nullptr);
  EXPECT_EQ(impostor->last_error()->error().code(), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(impostor->closed);

  auto owner = connect();
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("alice");
  hello.mutable_hello()->set_secret(secret);
  send(owner, hello);
  ASSERT_TRUE(owner->received.front().has_welcome());
  EXPECT_TRUE(owner->received.front().welcome().secret().empty());
}

// A Hello with the name and secret of a player who is online now.
wire::ClientMessage second_hello(const std::string& name, const std::string& secret,
                                 bool take_over) {
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name(name);
  hello.mutable_hello()->set_secret(secret);
  hello.mutable_hello()->set_take_over(take_over);
  return hello;
}

TEST_F(LobbyTest, ASecondSessionWithAConnectedNameIsRefused) {
  auto alice = player("alice");
  auto bob = player("bob");
  quick(alice, 3);
  quick(bob, 3);
  const std::string secret = alice->received.front().welcome().secret();
  auto second = connect();
  send(second, second_hello("alice", secret, false));
  ASSERT_NE(second->last_error(), nullptr);
  EXPECT_EQ(second->last_error()->error().code(), wire::ERROR_CODE_SESSION_ACTIVE);
  EXPECT_TRUE(second->last_error()->error().fatal());
  EXPECT_TRUE(second->closed);
  EXPECT_FALSE(alice->closed) << "the first session is untouched";
  EXPECT_EQ(alice->last_error(), nullptr);
}

TEST_F(LobbyTest, TakingOverMovesTheSessionAndTheOpponentHearsNothing) {
  auto alice = player("alice");
  auto bob = player("bob");
  quick(alice, 3);
  quick(bob, 3);
  const std::string secret = alice->received.front().welcome().secret();
  const std::size_t bob_before = bob->received.size();
  auto here = connect();
  send(here, second_hello("alice", secret, true));
  ASSERT_TRUE(here->received.front().has_welcome());
  EXPECT_TRUE(here->received.front().welcome().resumed());
  const auto* joined = here->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->joined().side(), wire::SIDE_X);
  ASSERT_NE(alice->last_error(), nullptr);
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_REPLACED);
  EXPECT_NE(alice->last_error()->error().text().find("taken over"), std::string::npos);
  EXPECT_TRUE(alice->closed);
  for (std::size_t i = bob_before; i < bob->received.size(); ++i) {
    EXPECT_FALSE(bob->received[i].has_opponent()) << "nobody left, so nobody is back";
  }
}

TEST_F(LobbyTest, WelcomeTellsTheGraceAndHeartbeat) {
  auto alice = player("alice");
  const wire::Welcome& w = alice->received.front().welcome();
  EXPECT_EQ(w.reconnect_grace_ms(), 30'000u);
  EXPECT_EQ(w.heartbeat_timeout_ms(), 10'000u);
  EXPECT_EQ(w.heartbeat_ms(), 3'333u);
  EXPECT_EQ(w.move_timeout_ms(), 60'000u);
}

TEST_F(LobbyTest, AGameLostWhileAwayIsToldAtTheNextWelcome) {
  auto alice = player("alice");
  auto bob = player("bob");
  quick(alice, 3);
  quick(bob, 3);
  const std::string secret = bob->received.front().welcome().secret();
  wire::ClientMessage move;
  move.mutable_make_move()->set_row(0);
  send(alice, move);  // both move twice: only then is a game rated
  move.mutable_make_move()->set_row(1);
  send(bob, move);
  move.mutable_make_move()->set_row(2);
  send(alice, move);
  move.mutable_make_move()->set_col(1);
  send(bob, move);
  disconnect(bob);
  wire::ClientMessage resign;
  resign.mutable_resign();
  send(alice, resign);  // bob wins while away
  auto again = connect();
  send(again, second_hello("bob", secret, false));
  const wire::Welcome& w = again->received.front().welcome();
  ASSERT_EQ(w.decided_while_away_size(), 1);
  EXPECT_EQ(w.decided_while_away(0).status(), wire::GAME_STATUS_O_WON);
  EXPECT_EQ(w.decided_while_away(0).side(), wire::SIDE_O);
  EXPECT_EQ(w.decided_while_away(0).end_reason(), wire::END_REASON_RESIGNATION);
  EXPECT_EQ(w.decided_while_away(0).opponent(), "alice");
  EXPECT_TRUE(w.decided_while_away(0).rated());
  EXPECT_GT(w.decided_while_away(0).rating_after(), w.decided_while_away(0).rating_before());
  auto later = connect();
  disconnect(again);
  send(later, second_hello("bob", secret, false));
  EXPECT_EQ(later->received.front().welcome().decided_while_away_size(), 0) << "told once";
}

class RatedGameTest : public LobbyTest {
 protected:
  // Alice and bob from these addresses, one game of `moves` moves that bob
  // resigns; the final state.
  wire::GameState play(const std::string& alice_from, const std::string& bob_from, int moves,
                       bool rate_one_address = false) {
    local_.reset();
    LobbyConfig c = config();
    c.rate_one_address = rate_one_address;
    local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
    alice_ = player("alice", alice_from);
    bob_ = player("bob", bob_from);
    quick(alice_, 3);
    quick(bob_, 3);
    for (int i = 0; i < moves; ++i) {
      wire::ClientMessage move;
      move.mutable_make_move()->set_row(i % 2);
      move.mutable_make_move()->set_col(i / 2);
      send(i % 2 == 0 ? alice_ : bob_, move);
    }
    wire::ClientMessage resign;
    resign.mutable_resign();
    send(bob_, resign);
    return bob_->last([](const wire::ServerMessage& m) { return m.has_state(); })->state();
  }
  double rating_of(const std::string& name) {
    return local_->accounts.rating(account_id(*local_->accounts.find(name_key(name))));
  }
  std::shared_ptr<FakeConnection> alice_, bob_;
};

TEST_F(RatedGameTest, TwoAccountsOfOneAddressPlayUnrated) {
  const auto state = play("198.51.100.7", "198.51.100.7", 4);
  EXPECT_EQ(state.status(), wire::GAME_STATUS_X_WON);
  EXPECT_FALSE(state.rated()) << "one address: one person, or a farm";
  EXPECT_EQ(rating_of("alice"), 1200);
  EXPECT_EQ(rating_of("bob"), 1200);
}

TEST_F(RatedGameTest, PlayersOfTwoAddressesPlayRated) {
  const auto state = play("198.51.100.7", "198.51.100.8", 4);
  EXPECT_TRUE(state.rated());
  EXPECT_GT(rating_of("alice"), 1200);
}

TEST_F(RatedGameTest, AClubBehindOneNatIsRatedWhenTheServerSaysSo) {
  const auto state = play("198.51.100.7", "198.51.100.7", 4, true);
  EXPECT_TRUE(state.rated());
  EXPECT_GT(rating_of("alice"), 1200);
}

TEST_F(RatedGameTest, AGameEndedBeforeTwoMovesEachSaysUnratedAsItsRecordDoes) {
  // The farm's game: a move each, then a resignation. The final state says
  // what the record says: not rated.
  const auto state = play("198.51.100.7", "198.51.100.8", 2);
  EXPECT_EQ(state.status(), wire::GAME_STATUS_X_WON);
  EXPECT_FALSE(state.rated());
  EXPECT_EQ(rating_of("alice"), 1200);
  wire::ClientMessage list;
  list.mutable_list_games();
  send(alice_, list);
  const auto* games = alice_->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
  ASSERT_NE(games, nullptr);
  ASSERT_EQ(games->game_list().games_size(), 1);
  EXPECT_FALSE(games->game_list().games(0).rated()) << "the list says so too";
}

TEST_F(LobbyTest, ProfileShowsRatingGamesAndRank) {
  auto alice = player("alice");
  auto bob = player("bob");
  quick(alice, 3);
  quick(bob, 3);
  wire::ClientMessage move;
  move.mutable_make_move()->set_row(0);
  send(alice, move);  // both move twice: only then is a game rated
  move.mutable_make_move()->set_row(1);
  send(bob, move);
  move.mutable_make_move()->set_row(2);
  send(alice, move);
  move.mutable_make_move()->set_col(1);
  send(bob, move);
  wire::ClientMessage resign;
  resign.mutable_resign();
  send(bob, resign);
  wire::ClientMessage me;
  me.mutable_get_profile();
  send(alice, me);
  const auto* reply = alice->last([](const wire::ServerMessage& m) { return m.has_profile(); });
  ASSERT_NE(reply, nullptr);
  EXPECT_EQ(reply->profile().name(), "alice");
  EXPECT_EQ(reply->profile().games(), 1u);
  EXPECT_EQ(reply->profile().wins(), 1u);
  EXPECT_EQ(reply->profile().rank(), 1u);
  EXPECT_EQ(reply->profile().ranked(), 2u);
  EXPECT_GT(reply->profile().rating(), 1200.0);
  wire::ClientMessage other;
  other.mutable_get_profile()->set_name("bob");
  send(alice, other);
  reply = alice->last([](const wire::ServerMessage& m) { return m.has_profile(); });
  EXPECT_EQ(reply->profile().losses(), 1u);
  EXPECT_EQ(reply->profile().rank(), 2u);
  other.mutable_get_profile()->set_name("nobody");
  send(alice, other);
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_NO_RECORD);
}

TEST_F(LobbyTest, LookAlikesOfAnExistingNameAreRefused) {
  auto alice = player("alice");
  ASSERT_TRUE(alice->received.front().has_welcome());
  struct Case {
    std::string name;
    wire::ErrorCode code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"ali\u200bce", wire::ERROR_CODE_BAD_REQUEST, "U+200B (ZERO WIDTH SPACE): it is invisible"},
      {"\u202eecila", wire::ERROR_CODE_BAD_REQUEST,
       "U+202E (RIGHT-TO-LEFT OVERRIDE): it changes the direction text is shown in"},
      {"\u0430lice", wire::ERROR_CODE_NAME_TAKEN,
       "the name '\u0430lice' looks like 'alice', which belongs to another player"},
      {"\u200b", wire::ERROR_CODE_BAD_REQUEST, "U+200B (ZERO WIDTH SPACE): it is invisible"},
      {"ALICE", wire::ERROR_CODE_NAME_TAKEN, "the name 'alice' belongs to another player"},
      // Look-alikes through case: a capital I is an l, a Cherokee letter an L.
      {"aIice", wire::ERROR_CODE_NAME_TAKEN, "the name 'aIice' looks like 'alice'"},
      {"ALlCE", wire::ERROR_CODE_NAME_TAKEN, "the name 'ALlCE' looks like 'alice'"},
      {"a\u13DEice", wire::ERROR_CODE_NAME_TAKEN, "looks like 'alice'"},
      {"bot  (perfect)", wire::ERROR_CODE_NAME_TAKEN, "belong to the server's bots"},
      {"b0t (perfect)", wire::ERROR_CODE_NAME_TAKEN, "belong to the server's bots"},
      {"bot\uff08perfect\uff09", wire::ERROR_CODE_NAME_TAKEN, "belong to the server's bots"},
  };
  for (const Case& c : cases) {
    auto impostor = player(c.name);
    const auto* error = impostor->last_error();
    ASSERT_NE(error, nullptr) << c.name;
    EXPECT_EQ(error->error().code(), c.code) << c.name;
    EXPECT_NE(error->error().text().find(c.says), std::string::npos) << error->error().text();
    EXPECT_TRUE(impostor->closed) << c.name;
    EXPECT_EQ(impostor->last([](const wire::ServerMessage& m) { return m.has_welcome(); }), nullptr)
        << c.name;
  }
  EXPECT_EQ(lobby().stats().accounts, 1u) << "no look-alike became an account";
}

TEST(StoredAccounts, OfTwoLegacyLookAlikesTheOlderKeepsTheName) {
  // A database from before the look-alike rule may hold both.
  StoredPlayer alice;
  alice.id = 1;
  alice.name = "alice";
  StoredPlayer lookalike;
  lookalike.id = 2;
  lookalike.name = "\u0430lice";
  StoredAccounts accounts(nullptr, name_key, {alice, lookalike});
  EXPECT_EQ(accounts.size(), 2u) << "both accounts and their games stay";
  ASSERT_NE(accounts.find(name_key("\u0430lice")), nullptr);
  EXPECT_EQ(accounts.find(name_key("\u0430lice"))->id, 1);
  EXPECT_EQ(accounts.find(name_key("alice"))->id, 1);
}

TEST_F(LobbyTest, ANewNameIsKeptInNfc) {
  auto zoe = player("Zoe\u0308");  // e + combining diaeresis
  ASSERT_TRUE(zoe->received.front().has_welcome());
  EXPECT_EQ(zoe->received.front().welcome().name(), "Zo\u00eb");
  auto other = player("Zo\u00eb");
  ASSERT_NE(other->last_error(), nullptr);
  EXPECT_EQ(other->last_error()->error().code(), wire::ERROR_CODE_NAME_TAKEN);
}

TEST_F(LobbyTest, ChatThatHidesOrReordersTextReachesNobody) {
  auto a = player("a");
  auto b = player("b");
  quick(a, 3);
  quick(b, 3);
  auto say = [this](const std::shared_ptr<FakeConnection>& conn, const std::string& text) {
    wire::ClientMessage m;
    m.mutable_chat()->set_text(text);
    send(conn, m);
  };
  auto chats = [](const std::shared_ptr<FakeConnection>& conn) {
    std::vector<std::string> texts;
    for (const auto& m : conn->received) {
      if (m.has_chat()) texts.push_back(m.chat().text());
    }
    return texts;
  };
  for (const std::string text : {"gg \u202eevil", "hidden\u200btext", "a\u2066b\u2069", "\u200b"}) {
    say(a, text);
    ASSERT_NE(a->last_error(), nullptr) << text;
    EXPECT_EQ(a->last_error()->error().code(), wire::ERROR_CODE_BAD_REQUEST);
    EXPECT_NE(a->last_error()->error().text().find("chat can't contain U+"), std::string::npos)
        << a->last_error()->error().text();
  }
  EXPECT_TRUE(chats(b).empty()) << "b saw: " << ::testing::PrintToString(chats(b));
  say(a, "good game \u2764\ufe0f");
  EXPECT_EQ(chats(b), std::vector<std::string>{"good game \u2764\ufe0f"});
}

TEST_F(LobbyTest, ShutdownSaysGoodbyeToEveryConnection) {
  auto a = player("a");
  auto silent = connect();
  lobby().shutdown("maintenance");
  for (const auto& conn : {a, silent}) {
    const auto* bye = conn->last([](const wire::ServerMessage& m) { return m.has_goodbye(); });
    ASSERT_NE(bye, nullptr);
    EXPECT_EQ(bye->goodbye().reason(), "maintenance");
    EXPECT_TRUE(conn->closed);
  }
}

TEST_F(LobbyTest, GamesWithAProgramAreRatedOnlyWhenItAsks) {
  auto program = [this](const std::string& name) {
    auto conn = connect();
    wire::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_name(name);
    hello.mutable_hello()->set_bot(true);
    send(conn, hello);
    return conn;
  };
  auto rated_of = [](const FakeConnection& conn) {
    const auto* joined = conn.last([](const wire::ServerMessage& m) { return m.has_joined(); });
    EXPECT_NE(joined, nullptr);
    return joined != nullptr && joined->joined().state().rated();
  };
  auto quick_asking = [this](const std::shared_ptr<FakeConnection>& conn, int size,
                             wire::Rated rated) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(size);
    m.mutable_quick_match()->set_rated(rated);
    send(conn, m);
  };
  // Two humans: rated.
  auto h1 = player("h1");
  auto h2 = player("h2");
  quick(h1, 3);
  quick(h2, 3);
  EXPECT_TRUE(rated_of(*h2));
  // A human and a program that doesn't ask: unrated.
  auto h3 = player("h3");
  auto p1 = program("p1");
  quick(h3, 4);
  quick(p1, 4);
  EXPECT_FALSE(rated_of(*p1));
  // A human and a program that asks: rated.
  auto h4 = player("h4");
  auto p2 = program("p2");
  quick(h4, 5);
  quick_asking(p2, 5, wire::RATED_YES);
  EXPECT_TRUE(rated_of(*p2));
  // A human who says no: unrated.
  auto h5 = player("h5");
  auto h6 = player("h6");
  quick_asking(h5, 6, wire::RATED_NO);
  quick(h6, 6);
  EXPECT_FALSE(rated_of(*h6));
  // A program joining a human's game without asking makes it unrated.
  auto h7 = player("h7");
  auto p3 = program("p3");
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(3);
  send(h7, create);
  const auto game = h7->last([](const wire::ServerMessage& m) { return m.has_joined(); })
                        ->joined()
                        .state()
                        .game_id();
  wire::ClientMessage join;
  join.mutable_join_game()->set_game_id(game);
  send(p3, join);
  EXPECT_FALSE(rated_of(*p3));
}

// --- limits -------------------------------------------------------------

template <typename Pred>
int count_of(const FakeConnection& conn, Pred pred) {
  int n = 0;
  for (const auto& m : conn.received) n += pred(m) ? 1 : 0;
  return n;
}

wire::ClientMessage create_message(int size, bool is_private = false, bool vs_bot = false) {
  wire::ClientMessage m;
  m.mutable_create_game()->set_size(size);
  m.mutable_create_game()->set_is_private(is_private);
  m.mutable_create_game()->set_vs_bot(vs_bot);
  m.mutable_create_game()->set_bot_level(wire::BOT_LEVEL_RANDOM);
  return m;
}

wire::ErrorCode last_code(const FakeConnection& conn) {
  const auto* e = conn.last_error();
  return e ? e->error().code() : wire::ERROR_CODE_UNSPECIFIED;
}

TEST_F(LobbyTest, TheListComesAPageAtATimeWithItsTotal) {
  std::vector<std::shared_ptr<FakeConnection>> creators;
  for (int i = 0; i < 130; ++i) {
    creators.push_back(player("c" + std::to_string(i), "10.0.0." + std::to_string(i % 250)));
    send(creators.back(), create_message(i % 2 == 0 ? 3 : 4));
  }
  auto viewer = player("viewer", "10.1.0.1");
  wire::ClientMessage list;
  list.mutable_list_games()->set_page_size(1000);  // more than the server's cap
  send(viewer, list);
  const auto* page = viewer->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(page->game_list().games_size(), 100) << "capped at 100";
  EXPECT_EQ(page->game_list().total(), 130u);
  EXPECT_EQ(page->game_list().page_size(), 100u);
  ASSERT_NE(page->game_list().next_after(), 0u);
  wire::ClientMessage next;
  next.mutable_list_games()->set_after(page->game_list().next_after());
  next.mutable_list_games()->set_size(4);
  send(viewer, next);
  page = viewer->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
  EXPECT_EQ(page->game_list().total(), 65u);
  for (const auto& g : page->game_list().games()) EXPECT_EQ(g.size(), 4);
  wire::ClientMessage plain;  // an older client's ListGames{}
  plain.mutable_list_games();
  send(viewer, plain);
  page = viewer->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
  EXPECT_EQ(page->game_list().games_size(), 50) << "the default page";
}

TEST_F(LobbyTest, TheListFiltersByWinLength) {
  std::vector<std::shared_ptr<FakeConnection>> creators;
  for (const int k : {0, 5, 5, 4, 15}) {  // 0 asks for the whole line: 15
    creators.push_back(player("c" + std::to_string(creators.size()),
                              "10.0.0." + std::to_string(creators.size() + 1)));
    wire::ClientMessage m = create_message(15);
    m.mutable_create_game()->set_win_length(k);
    send(creators.back(), m);
  }
  auto viewer = player("viewer", "10.1.0.1");
  auto count = [&](int size, int k) {
    wire::ClientMessage list;
    list.mutable_list_games()->set_size(size);
    list.mutable_list_games()->set_win_length(k);
    send(viewer, list);
    const auto* page = viewer->last([](const wire::ServerMessage& m) { return m.has_game_list(); });
    EXPECT_NE(page, nullptr);
    if (page == nullptr) return -1;
    for (const auto& g : page->game_list().games()) {
      if (k != 0) {
        EXPECT_EQ(g.win_length(), k);
      }
    }
    return static_cast<int>(page->game_list().total());
  };
  EXPECT_EQ(count(0, 0), 5);
  EXPECT_EQ(count(15, 5), 2);
  EXPECT_EQ(count(0, 4), 1);
  EXPECT_EQ(count(15, 15), 2) << "whole-line games, asked for with 0 or 15";
  EXPECT_EQ(count(15, 3), 0);
}

TEST_F(LobbyTest, APrivateGameIsListedOnlyToItsPlayers) {
  auto alice = player("alice", "10.0.0.1");
  auto eve = player("eve", "10.0.0.2");
  send(alice, create_message(3, true));
  wire::ClientMessage list;
  list.mutable_list_games();
  send(eve, list);
  EXPECT_EQ(eve->last([](const wire::ServerMessage& m) { return m.has_game_list(); })
                ->game_list()
                .games_size(),
            0);
  send(alice, list);
  EXPECT_EQ(alice->last([](const wire::ServerMessage& m) { return m.has_game_list(); })
                ->game_list()
                .games_size(),
            1);
}

TEST_F(LobbyTest, GamesAndBotGamesAreCappedPerAddress) {
  std::vector<std::shared_ptr<FakeConnection>> players;
  const QuotaLimits caps = config().quotas;
  for (std::size_t i = 0; i < caps.bot_games; ++i) {
    players.push_back(player("b" + std::to_string(i), "198.51.100.7"));
    send(players.back(), create_message(3, false, true));
    ASSERT_EQ(players.back()->last_error(), nullptr);
  }
  auto one_more = player("one-more", "198.51.100.7");
  send(one_more, create_message(3, false, true));
  EXPECT_EQ(last_code(*one_more), wire::ERROR_CODE_TOO_MANY_GAMES);
  EXPECT_NE(one_more->last_error()->error().text().find("198.51.100.7"), std::string::npos);
  send(one_more, create_message(3));  // a game against people is still allowed
  EXPECT_TRUE(one_more->last([](const wire::ServerMessage& m) { return m.has_joined(); }));
  auto elsewhere = player("elsewhere", "198.51.100.8");
  send(elsewhere, create_message(3, false, true));
  EXPECT_TRUE(elsewhere->last([](const wire::ServerMessage& m) { return m.has_joined(); }));
  // A seat given back is a seat free again.
  wire::ClientMessage leave;
  leave.mutable_leave();
  send(players.front(), leave);
  auto later = player("later", "198.51.100.7");
  send(later, create_message(3, false, true));
  EXPECT_TRUE(later->last([](const wire::ServerMessage& m) { return m.has_joined(); }));
}

TEST_F(LobbyTest, WrongInviteCodesAreLimitedPerConnectionAndPerAddress) {
  auto alice = player("alice", "10.0.0.1");
  send(alice, create_message(3, true));
  const auto* joined = alice->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  const std::string code = joined->joined().invite_code();
  const std::uint64_t game = joined->joined().state().game_id();
  EXPECT_EQ(code.size(), 14u) << "12 characters in groups of 4: " << code;
  auto guess = [&](const std::shared_ptr<FakeConnection>& who, const std::string& tried) {
    wire::ClientMessage join;
    join.mutable_join_game()->set_invite_code(tried);
    send(who, join);
    return last_code(*who);
  };
  auto eve = player("eve", "10.6.6.6");
  const int per_connection = static_cast<int>(config().invite_failures_per_connection);
  for (int i = 0; i < per_connection; ++i) {
    EXPECT_EQ(guess(eve, "AAAA-AAAA-AAA" + std::to_string(i)), wire::ERROR_CODE_WRONG_INVITE_CODE);
  }
  // Even the right code is not looked at now: no oracle for a guesser.
  EXPECT_EQ(guess(eve, code), wire::ERROR_CODE_RATE_LIMITED);
  // New connections from the same address share its allowance.
  const int per_address = static_cast<int>(config().invite_failures_per_address);
  int refused_at = -1;
  for (int i = per_connection; i < per_address + 5 && refused_at < 0; ++i) {
    auto again = player("eve" + std::to_string(i), "10.6.6.6");
    if (guess(again, "BBBB-BBBB-BB" + std::to_string(i)) == wire::ERROR_CODE_RATE_LIMITED) {
      refused_at = i;
    }
  }
  EXPECT_EQ(refused_at, per_address);
  // A game id with a wrong code counts too; a friend elsewhere gets in.
  auto friend_ = player("friend", "10.0.0.2");
  wire::ClientMessage join;
  join.mutable_join_game()->set_game_id(game);
  join.mutable_join_game()->set_invite_code(code);
  send(friend_, join);
  EXPECT_TRUE(friend_->last([](const wire::ServerMessage& m) { return m.has_joined(); }));
}

TEST_F(LobbyTest, SpectatorsAreCappedAndTheirCountIsThrottled) {
  auto a = player("a", "10.0.0.1");
  auto b = player("b", "10.0.0.2");
  quick(a, 3);
  quick(b, 3);
  const std::uint64_t game = a->last([](const wire::ServerMessage& m) { return m.has_joined(); })
                                 ->joined()
                                 .state()
                                 .game_id();
  const std::size_t before = a->received.size();
  std::vector<std::shared_ptr<FakeConnection>> watchers;
  const std::size_t cap = config().max_spectators;
  for (std::size_t i = 0; i <= cap; ++i) {
    watchers.push_back(player("w" + std::to_string(i),
                              "10.2." + std::to_string(i / 200) + "." + std::to_string(i % 200)));
    wire::ClientMessage watch;
    watch.mutable_spectate()->set_game_id(game);
    send(watchers.back(), watch);
  }
  EXPECT_EQ(last_code(*watchers.back()), wire::ERROR_CODE_SPECTATORS_FULL);
  // A hundred arrivals cost the player one count (more come once a second),
  // never a state each.
  const auto since =
      std::vector<wire::ServerMessage>(a->received.begin() + before, a->received.end());
  int counts = 0, states = 0;
  for (const auto& m : since) {
    counts += m.has_spectator_count() ? 1 : 0;
    states += m.has_state() ? 1 : 0;
  }
  EXPECT_LE(counts, 1);
  EXPECT_EQ(states, 0);
}

TEST_F(LobbyTest, PlayersHearSpectatorsOnlyIfTheyChoose) {
  auto a = player("a", "10.0.0.1");
  auto b = player("b", "10.0.0.2");
  auto w = player("w", "10.0.0.3");
  quick(a, 3);
  quick(b, 3);
  const std::uint64_t game = a->last([](const wire::ServerMessage& m) { return m.has_joined(); })
                                 ->joined()
                                 .state()
                                 .game_id();
  wire::ClientMessage watch;
  watch.mutable_spectate()->set_game_id(game);
  send(w, watch);
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text("hello players");
  send(w, chat);
  auto is_chat = [](const wire::ServerMessage& m) { return m.has_chat(); };
  EXPECT_EQ(count_of(*a, is_chat), 0);
  EXPECT_EQ(count_of(*w, is_chat), 1) << "the spectators hear it";
  wire::ClientMessage on;
  on.mutable_chat_settings()->set_spectators(true);
  send(a, on);
  EXPECT_TRUE(a->last([](const wire::ServerMessage& m) {
    return m.has_chat_settings() && m.chat_settings().spectators();
  }));
  send(w, chat);
  EXPECT_EQ(count_of(*a, is_chat), 1);
  EXPECT_EQ(count_of(*b, is_chat), 0) << "b did not choose to";
  wire::ClientMessage from_player;
  from_player.mutable_chat()->set_text("hi all");
  send(b, from_player);
  EXPECT_EQ(count_of(*w, is_chat), 3) << "everyone hears the players";
}

TEST_F(LobbyTest, ChatIsLimitedPerAddressAsWellAsPerPlayer) {
  local_.reset();
  LobbyConfig c = config();
  c.chat_burst = 100;        // each player alone could say much more...
  c.address_chat_burst = 4;  // ...but one address says four lines, then one a minute
  c.address_chat_per_second = 1.0 / 60;
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto a = player("a", "10.0.0.1");
  auto b = player("b", "10.0.0.2");
  quick(a, 3);
  quick(b, 3);
  const std::uint64_t game = a->last([](const wire::ServerMessage& m) { return m.has_joined(); })
                                 ->joined()
                                 .state()
                                 .game_id();
  std::vector<std::shared_ptr<FakeConnection>> crowd;
  for (const char* name : {"w1", "w2"}) {
    crowd.push_back(player(name, "10.0.0.9"));
    wire::ClientMessage watch;
    watch.mutable_spectate()->set_game_id(game);
    send(crowd.back(), watch);
  }
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text("spam");
  for (int i = 0; i < 2; ++i) {
    for (auto& w : crowd) send(w, chat);
  }
  auto refused = [](const FakeConnection& conn) {
    const auto* e = conn.last_error();
    return e != nullptr && e->error().code() == wire::ERROR_CODE_RATE_LIMITED &&
           e->error().text() == "too many chat lines from your address: slow down";
  };
  EXPECT_FALSE(refused(*crowd[0]));
  EXPECT_FALSE(refused(*crowd[1]));
  send(crowd[0], chat);  // the address's fifth line in a moment
  EXPECT_TRUE(refused(*crowd[0]));
  send(crowd[1], chat);
  EXPECT_TRUE(refused(*crowd[1])) << "the other spectator of the address shares its allowance";
  wire::ClientMessage from_player;
  from_player.mutable_chat()->set_text("still heard");
  send(a, from_player);
  EXPECT_EQ(a->last_error(), nullptr) << "players of other addresses chat on";
  EXPECT_TRUE(b->last([](const wire::ServerMessage& m) {
    return m.has_chat() && m.chat().text() == "still heard";
  }));
}

TEST_F(LobbyTest, OnlyTheOperatorSeesTheServersMemory) {
  local_.reset();
  LobbyConfig c = config();
  c.stats_token = "s3cret-operator-token";
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto p = player("p");
  wire::ClientMessage stats;
  stats.mutable_get_stats();
  send(p, stats);
  const auto* plain = p->last([](const wire::ServerMessage& m) { return m.has_stats(); });
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->stats().operator_view());
  EXPECT_EQ(plain->stats().rss_bytes(), 0u);
  EXPECT_EQ(plain->stats().connections(), 0u);
  EXPECT_EQ(plain->stats().players(), 1u);
  stats.mutable_get_stats()->set_operator_token("wrong");
  send(p, stats);
  EXPECT_FALSE(
      p->last([](const wire::ServerMessage& m) { return m.has_stats(); })->stats().operator_view());
  stats.mutable_get_stats()->set_operator_token("s3cret-operator-token");
  send(p, stats);
  const auto* full = p->last([](const wire::ServerMessage& m) { return m.has_stats(); });
  EXPECT_TRUE(full->stats().operator_view());
  EXPECT_EQ(full->stats().connections(), 1u);
}

TEST_F(LobbyTest, WrongOperatorTokensCostAWaitLikeWrongSecrets) {
  local_.reset();
  LobbyConfig c = config();
  c.stats_token = "s3cret-operator-token-0123456789abcdef";
  c.identity_failures = 3;
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto guesser = player("guesser");
  wire::ClientMessage stats;
  for (int i = 0; i < 4; ++i) {
    stats.mutable_get_stats()->set_operator_token("guess-" + std::to_string(i));
    send(guesser, stats);
  }
  // Past the free failures even the right token waits.
  stats.mutable_get_stats()->set_operator_token(c.stats_token);
  send(guesser, stats);
  ASSERT_NE(guesser->last_error(), nullptr);
  EXPECT_EQ(guesser->last_error()->error().code(), wire::ERROR_CODE_IDENTITY_LOCKED);
  auto operator_elsewhere = player("operator", "192.0.2.77");
  send(operator_elsewhere, stats);
  const auto* full =
      operator_elsewhere->last([](const wire::ServerMessage& m) { return m.has_stats(); });
  ASSERT_NE(full, nullptr);
  EXPECT_TRUE(full->stats().operator_view()) << "another address is not held back";
}

TEST_F(LobbyTest, TheClientsOwnSecretOwnsTheNameFromItsFirstHello) {
  const std::string secret(64, 'c');
  auto hello = [&](const std::string& with) {
    auto conn = connect();
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_name("carol");
    m.mutable_hello()->set_secret(with);
    send(conn, m);
    return conn;
  };
  auto first = hello(secret);
  ASSERT_TRUE(first->received.front().has_welcome());
  EXPECT_TRUE(first->received.front().welcome().secret().empty()) << "nothing to send back";
  const auto id = first->received.front().welcome().player_id();
  disconnect(first);  // as if the Welcome never arrived
  auto again = hello(secret);
  ASSERT_TRUE(again->received.front().has_welcome());
  EXPECT_EQ(again->received.front().welcome().player_id(), id);
  disconnect(again);
  EXPECT_EQ(last_code(*hello("")), wire::ERROR_CODE_NAME_TAKEN);
  auto short_secret = connect();
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name("dave");
  m.mutable_hello()->set_secret("too-short");
  send(short_secret, m);
  EXPECT_EQ(last_code(*short_secret), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_TRUE(short_secret->closed);
}

TEST_F(LobbyTest, ARotatedSecretReplacesTheOldOne) {
  auto alice = player("alice");
  const std::string old_secret = alice->received.front().welcome().secret();
  const std::string new_secret(48, 'n');
  wire::ClientMessage rotate;
  rotate.mutable_rotate_secret()->set_new_secret(new_secret);
  send(alice, rotate);
  EXPECT_TRUE(alice->last([](const wire::ServerMessage& m) { return m.has_secret_rotated(); }));
  rotate.mutable_rotate_secret()->set_new_secret("short");
  send(alice, rotate);
  EXPECT_EQ(last_code(*alice), wire::ERROR_CODE_BAD_REQUEST);
  disconnect(alice);
  auto hello = [&](const std::string& secret) {
    auto conn = connect();
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_name("alice");
    m.mutable_hello()->set_secret(secret);
    send(conn, m);
    return conn;
  };
  EXPECT_EQ(last_code(*hello(old_secret)), wire::ERROR_CODE_NAME_TAKEN);
  EXPECT_TRUE(hello(new_secret)->received.front().has_welcome());
}

TEST_F(LobbyTest, ARotatedSecretRevokesTheResumeTokensIssuedBeforeIt) {
  // One rotates a secret when it (or a token) may have got out: a token
  // issued before the rotation takes nobody's seat after it.
  auto alice = player("alice");
  const std::string old_token = alice->received.front().welcome().resume_token();
  wire::ClientMessage rotate;
  rotate.mutable_rotate_secret()->set_new_secret(std::string(48, 'n'));
  send(alice, rotate);
  const auto* rotated =
      alice->last([](const wire::ServerMessage& m) { return m.has_secret_rotated(); });
  ASSERT_NE(rotated, nullptr);
  const std::string new_token = rotated->secret_rotated().resume_token();
  EXPECT_EQ(new_token.size(), 32u);
  EXPECT_NE(new_token, old_token);
  auto resume = [&](const std::string& token) {
    auto conn = connect("192.0.2.9");
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_resume_token(token);
    send(conn, m);
    return conn;
  };
  EXPECT_EQ(last_code(*resume(old_token)), wire::ERROR_CODE_BAD_RESUME_TOKEN);
  EXPECT_TRUE(resume(new_token)->received.front().has_welcome()) << "the token told with it works";
}

TEST_F(LobbyTest, AGameAgainstTheBotWithNobodyLeftEndsWithoutTheHumanGrace) {
  local_.reset();
  LobbyConfig c = config();
  c.reconnect_grace = std::chrono::milliseconds(60'000);
  c.bot_game_grace = std::chrono::milliseconds(50);
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto p = player("p");
  send(p, create_message(15, false, true));
  ASSERT_EQ(lobby().stats().rooms, 1u);
  disconnect(p);
  EXPECT_EQ(lobby().stats().rooms, 1u) << "held a moment for a reconnect";
  ASSERT_TRUE(testing::run_until(io_, [&] { return lobby().stats().rooms == 0; }));
  EXPECT_EQ(lobby().stats().rooms, 0u);
  EXPECT_EQ(lobby().stats().bots, 0u);
  EXPECT_EQ(lobby().stats().players, 0u);
}

// --- with a journal that can fail ---------------------------------------------

// The Lobby over a real store (in memory) whose writes the test can make fail,
// as a full or broken disk would.
class LobbyJournalTest : public LobbyTest {
 protected:
  LobbyJournalTest() {
    writer_ = std::make_unique<StoreWriter>(std::make_unique<SqliteStore>(":memory:"), logic_);
    local_ = std::make_unique<LocalLobby>(logic_, logic_, config(), writer_.get());
  }

  // Lets every queued write commit and every completion run.
  void drain() {
    for (int i = 0; i < 100; ++i) {
      writer_->flush();
      io_.restart();
      if (io_.poll() == 0) return;
    }
  }
  void refuse_writes(bool on) {
    writer_->submit([on](Store& s) { s.refuse_writes(on); });
  }
  void move(const std::shared_ptr<FakeConnection>& conn, int row, int col) {
    wire::ClientMessage m;
    m.mutable_make_move()->set_row(row);
    m.mutable_make_move()->set_col(col);
    send(conn, m);
    drain();
  }
  std::vector<StoredPlayer> stored_players() {
    std::vector<StoredPlayer> players;
    writer_->submit([&players](Store& s) { players = s.top_players(10); });
    writer_->flush();
    return players;
  }
  std::vector<GameRecord> stored_games() {
    std::vector<GameRecord> games;
    writer_->submit([&games](Store& s) { games = s.finished_games(); });
    writer_->flush();
    return games;
  }
  // alice (X) and bob (O), quick-matched on 3×3.
  std::pair<std::shared_ptr<FakeConnection>, std::shared_ptr<FakeConnection>> paired() {
    auto alice = player("alice");
    auto bob = player("bob");
    quick(alice, 3);
    quick(bob, 3);
    drain();
    return {alice, bob};
  }
  // Two moves each; X wins next with (0, 2), completing row 1.
  void play_to_the_brink(const std::shared_ptr<FakeConnection>& x,
                         const std::shared_ptr<FakeConnection>& o) {
    move(x, 0, 0);
    move(o, 1, 0);
    move(x, 0, 1);
    move(o, 1, 1);
  }
  static const wire::GameState* last_state(const FakeConnection& conn) {
    const auto* m = conn.last([](const wire::ServerMessage& r) { return r.has_state(); });
    return m ? &m->state() : nullptr;
  }
  static const StoredPlayer* named(const std::vector<StoredPlayer>& players,
                                   const std::string& name) {
    for (const auto& p : players) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }
};

TEST_F(LobbyJournalTest, ARefusedWinningMoveChangesNoRecordAndCountsOnceWhenPlayedAgain) {
  auto [alice, bob] = paired();
  play_to_the_brink(alice, bob);
  refuse_writes(true);
  move(alice, 0, 2);  // would win row 1

  ASSERT_NE(alice->last_error(), nullptr);
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_STORAGE);
  const auto* refused = last_state(*bob);
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->status(), wire::GAME_STATUS_IN_PROGRESS) << "the move was taken back";
  EXPECT_EQ(refused->move_count(), 4u);
  EXPECT_EQ(refused->x().rating(), 1200.0);
  for (const auto& p : stored_players()) {
    EXPECT_EQ(p.games_played, 0) << p.name;
    EXPECT_EQ(p.rating, 1200.0) << p.name;
  }
  EXPECT_TRUE(stored_games().empty());
  EXPECT_EQ(lobby().stats().games_finished, 0u);

  refuse_writes(false);
  move(alice, 0, 2);
  const auto* won = last_state(*bob);
  ASSERT_NE(won, nullptr);
  EXPECT_EQ(won->status(), wire::GAME_STATUS_X_WON);
  EXPECT_EQ(won->x().rating(), 1216.0);
  EXPECT_EQ(won->o().rating(), 1184.0);
  EXPECT_EQ(lobby().stats().games_finished, 1u);
  const auto players = stored_players();
  const auto* a = named(players, "alice");
  const auto* b = named(players, "bob");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->games_played, 1);
  EXPECT_EQ(a->wins, 1);
  EXPECT_EQ(a->rating, 1216.0);
  EXPECT_EQ(b->games_played, 1);
  EXPECT_EQ(b->losses, 1);
  EXPECT_EQ(b->rating, 1184.0);
  const auto games = stored_games();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 5u);
  EXPECT_EQ(games[0].status, "x_won");
}

TEST_F(LobbyJournalTest, WhatIsSaidWhileARefusedMoveWaitsIsStillDelivered) {
  auto [alice, bob] = paired();
  refuse_writes(true);
  wire::ClientMessage move;
  move.set_request_id(++request_id_);
  move.mutable_make_move()->set_row(1);
  move.mutable_make_move()->set_col(1);
  const std::uint32_t move_request = request_id_;
  inboxes_.at(alice.get())->receive(move);  // its write is not done yet...
  wire::ClientMessage chat;
  chat.set_request_id(++request_id_);
  chat.mutable_chat()->set_text("hurry up");
  inboxes_.at(bob.get())->receive(chat);  // ...when bob speaks
  drain();

  ASSERT_NE(alice->last_error(), nullptr);
  EXPECT_EQ(alice->last_error()->error().code(), wire::ERROR_CODE_STORAGE);
  EXPECT_EQ(alice->last_error()->in_reply_to(), move_request);
  const auto* said = alice->last([](const wire::ServerMessage& m) { return m.has_chat(); });
  ASSERT_NE(said, nullptr) << "the chat was lost with the refused move";
  EXPECT_EQ(said->chat().text(), "hurry up");
  for (const auto& m : bob->received) {
    if (m.has_state()) {
      EXPECT_EQ(m.state().move_count(), 0u) << "bob never sees the refused move";
    }
  }
}

TEST_F(LobbyJournalTest, AGameWhoseStartCouldNotBeWrittenIsWrittenWithItsFirstMove) {
  // Not even the players' rows get written: the disk fails from the start.
  refuse_writes(true);
  auto [alice, bob] = paired();
  refuse_writes(false);
  play_to_the_brink(alice, bob);
  move(alice, 0, 2);
  EXPECT_EQ(alice->last_error(), nullptr) << alice->last_error()->error().text();
  EXPECT_EQ(bob->last_error(), nullptr) << bob->last_error()->error().text();
  const auto games = stored_games();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 5u);
  EXPECT_EQ(games[0].status, "x_won");
  const auto players = stored_players();
  ASSERT_NE(named(players, "alice"), nullptr);
  EXPECT_EQ(named(players, "alice")->games_played, 1);
}

TEST_F(LobbyJournalTest, TheServersBotMovesAgainAfterItsMoveCouldNotBeSaved) {
  auto alice = player("alice");
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(3);
  create.mutable_create_game()->set_vs_bot(true);
  create.mutable_create_game()->set_bot_level(wire::BOT_LEVEL_RANDOM);
  send(alice, create);
  drain();
  // Alice's move is written; the bot's answer is refused.
  wire::ClientMessage m;
  m.set_request_id(++request_id_);
  m.mutable_make_move()->set_row(1);
  m.mutable_make_move()->set_col(1);
  inboxes_.at(alice.get())->receive(m);
  refuse_writes(true);
  drain();
  ASSERT_NE(last_state(*alice), nullptr);
  EXPECT_EQ(last_state(*alice)->move_count(), 1u) << "the bot's move was refused";
  refuse_writes(false);
  // The bot tries again after a pause; bounded wait for its move.
  for (int i = 0; i < 100 && last_state(*alice)->move_count() < 2; ++i) {
    io_.restart();
    io_.run_for(std::chrono::milliseconds(50));
    drain();
  }
  EXPECT_EQ(last_state(*alice)->move_count(), 2u);
  EXPECT_EQ(last_state(*alice)->status(), wire::GAME_STATUS_IN_PROGRESS);
}

// --- the players online, challenges and blocks --------------------

const wire::ServerMessage* last_of(const FakeConnection& conn, wire::ServerMessage::BodyCase kind) {
  return conn.last([kind](const wire::ServerMessage& m) { return m.body_case() == kind; });
}

TEST_F(LobbyTest, WhoListsThePlayersOnlineWithWhatEachIsDoing) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  auto carol = player("carol", "10.0.0.3");
  auto dave = player("dave", "10.0.0.4");
  auto erin = player("erin", "10.0.0.5");
  auto frank = player("frank", "10.0.0.6");
  quick(alice, 3);
  quick(bob, 3);  // alice (X) vs bob (O)
  const auto game = last_of(*alice, wire::ServerMessage::kJoined)->joined().state().game_id();
  wire::ClientMessage watch;
  watch.mutable_spectate()->set_game_id(game);
  send(carol, watch);
  wire::ClientMessage queue;
  queue.mutable_quick_match()->set_size(4);
  queue.mutable_quick_match()->mutable_clock()->set_initial_ms(60'000);
  queue.mutable_quick_match()->mutable_clock()->set_increment_ms(1'000);
  send(dave, queue);
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(5);
  create.mutable_create_game()->set_win_length(4);
  send(erin, create);
  wire::ClientMessage who;
  who.mutable_list_players();
  send(frank, who);
  const auto* reply = last_of(*frank, wire::ServerMessage::kPlayerList);
  ASSERT_NE(reply, nullptr);
  const wire::PlayerList& list = reply->player_list();
  ASSERT_EQ(list.players_size(), 6);
  EXPECT_EQ(list.total(), 6u);
  std::map<std::string, wire::PlayerPresence> by_name;
  for (const auto& p : list.players()) by_name[p.name()] = p;
  EXPECT_EQ(list.players(0).name(), "alice") << "in name order";
  EXPECT_EQ(by_name["alice"].activity(), wire::ACTIVITY_PLAYING);
  EXPECT_EQ(by_name["alice"].opponent(), "bob");
  EXPECT_EQ(by_name["alice"].game_id(), game);
  EXPECT_EQ(by_name["bob"].opponent(), "alice");
  EXPECT_EQ(by_name["carol"].activity(), wire::ACTIVITY_WATCHING);
  EXPECT_EQ(by_name["carol"].opponent(), "alice vs bob");
  EXPECT_EQ(by_name["dave"].activity(), wire::ACTIVITY_QUEUED);
  EXPECT_EQ(by_name["dave"].size(), 4);
  EXPECT_EQ(by_name["dave"].clock().initial_ms(), 60'000u);
  EXPECT_EQ(by_name["erin"].activity(), wire::ACTIVITY_WAITING);
  EXPECT_EQ(by_name["erin"].win_length(), 4);
  EXPECT_EQ(by_name["frank"].activity(), wire::ACTIVITY_IDLE);
  EXPECT_DOUBLE_EQ(by_name["frank"].rating(), 1200);
  // Paged and filtered.
  who.mutable_list_players()->set_page_size(2);
  send(frank, who);
  const auto& page = last_of(*frank, wire::ServerMessage::kPlayerList)->player_list();
  ASSERT_EQ(page.players_size(), 2);
  EXPECT_EQ(page.next_after(), "bob");
  who.mutable_list_players()->set_after("bob");
  send(frank, who);
  EXPECT_EQ(last_of(*frank, wire::ServerMessage::kPlayerList)->player_list().players(0).name(),
            "carol");
  wire::ClientMessage named;
  named.mutable_list_players()->set_name("AV");
  send(frank, named);
  const auto& found = last_of(*frank, wire::ServerMessage::kPlayerList)->player_list();
  ASSERT_EQ(found.players_size(), 1);
  EXPECT_EQ(found.players(0).name(), "dave");
}

TEST_F(LobbyTest, WhoSaysPlayingOnlyWhileTheGameIsInProgress) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  quick(alice, 3);
  quick(bob, 3);
  auto activity_of = [&](const std::string& name) {
    wire::ClientMessage who;
    who.mutable_list_players()->set_name(name);
    send(alice, who);
    return last_of(*alice, wire::ServerMessage::kPlayerList)->player_list().players(0);
  };
  EXPECT_EQ(activity_of("bob").activity(), wire::ACTIVITY_PLAYING);
  wire::ClientMessage resign;
  resign.mutable_resign();
  send(bob, resign);
  // Over: still seated (a rematch may follow), no longer playing.
  EXPECT_EQ(activity_of("bob").activity(), wire::ACTIVITY_FINISHED);
  EXPECT_EQ(activity_of("bob").opponent(), "alice");
  wire::ClientMessage leave;
  leave.mutable_leave();
  send(alice, leave);
  const wire::PlayerPresence after = activity_of("bob");
  EXPECT_EQ(after.activity(), wire::ACTIVITY_FINISHED);
  EXPECT_EQ(after.opponent(), "") << "the opponent left";
}

TEST_F(LobbyTest, WhoMarksProgramsAndLeavesOutTheServersBots) {
  auto human = player("human", "10.0.0.1");
  auto program = connect("10.0.0.2");
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name("robo");
  hello.mutable_hello()->set_bot(true);
  send(program, hello);
  wire::ClientMessage vs_bot;
  vs_bot.mutable_create_game()->set_size(3);
  vs_bot.mutable_create_game()->set_vs_bot(true);
  send(human, vs_bot);
  wire::ClientMessage who;
  who.mutable_list_players();
  send(human, who);
  const auto& list = last_of(*human, wire::ServerMessage::kPlayerList)->player_list();
  ASSERT_EQ(list.players_size(), 2);
  EXPECT_EQ(list.players(0).name(), "human");
  EXPECT_EQ(list.players(0).opponent(), "bot (perfect)");
  EXPECT_TRUE(list.players(0).opponent_server_bot());
  EXPECT_EQ(list.players(1).name(), "robo");
  EXPECT_TRUE(list.players(1).is_bot());
}

TEST_F(LobbyTest, OneAddressTakesATenthOfAGamesSpectatorSeats) {
  local_.reset();
  LobbyConfig c = config();
  c.max_spectators = 30;  // three seats an address
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto host = player("host", "192.0.2.1");
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(3);
  send(host, create);
  const auto game = last_of(*host, wire::ServerMessage::kJoined)->joined().state().game_id();
  wire::ClientMessage watch;
  watch.mutable_spectate()->set_game_id(game);
  for (int i = 0; i < 4; ++i) {
    auto eye = player("eye" + std::to_string(i), "203.0.113.9");
    send(eye, watch);
    if (i < 3) {
      EXPECT_NE(last_of(*eye, wire::ServerMessage::kJoined), nullptr) << i;
    } else {
      ASSERT_NE(eye->last_error(), nullptr);
      EXPECT_EQ(eye->last_error()->error().code(), wire::ERROR_CODE_SPECTATORS_FULL);
      EXPECT_NE(eye->last_error()->error().text().find("as many as one address may"),
                std::string::npos);
    }
  }
  auto other = player("other", "203.0.113.10");
  send(other, watch);
  EXPECT_NE(last_of(*other, wire::ServerMessage::kJoined), nullptr) << "another address watches";
}

class ChallengeTest : public LobbyTest {
 protected:
  wire::ClientMessage challenge_of(const std::string& name, int size = 3) {
    wire::ClientMessage m;
    m.mutable_challenge()->set_name(name);
    m.mutable_challenge()->set_size(size);
    return m;
  }
  wire::ClientMessage answer(bool accept, std::uint64_t id = 0) {
    wire::ClientMessage m;
    m.mutable_answer_challenge()->set_challenge_id(id);
    m.mutable_answer_challenge()->set_accept(accept);
    return m;
  }
  wire::ErrorCode refusal(const std::shared_ptr<FakeConnection>& who, wire::ClientMessage m) {
    const auto before = who->received.size();
    send(who, std::move(m));
    if (who->received.size() == before || !who->received.back().has_error()) {
      return wire::ERROR_CODE_UNSPECIFIED;
    }
    return who->received.back().error().code();
  }
};

TEST_F(ChallengeTest, AnAcceptedChallengeStartsTheGameWithTheChallengersSettings) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  wire::ClientMessage c = challenge_of("BOB", 15);
  c.mutable_challenge()->set_win_length(5);
  c.mutable_challenge()->mutable_clock()->set_initial_ms(180'000);
  c.mutable_challenge()->mutable_clock()->set_increment_ms(2'000);
  send(alice, c);
  const auto* sent = last_of(*alice, wire::ServerMessage::kChallengeSent);
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent->in_reply_to(), request_id_);
  EXPECT_EQ(sent->challenge_sent().settings().name(), "bob") << "the name as the server holds it";
  EXPECT_GT(sent->challenge_sent().expires_in_ms(), 59'000u);
  const auto* offer = last_of(*bob, wire::ServerMessage::kChallengeOffer);
  ASSERT_NE(offer, nullptr);
  EXPECT_EQ(offer->challenge_offer().from(), "alice");
  EXPECT_EQ(offer->challenge_offer().challenge_id(), sent->challenge_sent().challenge_id());
  EXPECT_EQ(offer->challenge_offer().settings().size(), 15);
  send(bob, answer(true));
  const auto* a = last_of(*alice, wire::ServerMessage::kJoined);
  const auto* b = last_of(*bob, wire::ServerMessage::kJoined);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->joined().side(), wire::SIDE_X) << "the challenger plays X";
  EXPECT_EQ(b->joined().side(), wire::SIDE_O);
  const auto state = bob->last([](const wire::ServerMessage& m) { return m.has_state(); });
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state->state().size(), 15);
  EXPECT_EQ(state->state().win_length(), 5);
  EXPECT_EQ(state->state().clock().initial_ms(), 180'000u);
  EXPECT_EQ(state->state().status(), wire::GAME_STATUS_IN_PROGRESS);
  EXPECT_TRUE(state->state().rated());
}

TEST_F(ChallengeTest, AChallengerMakesSoManyChallengesAMinute) {
  auto alice = player("alice", "10.0.0.1");
  std::vector<std::shared_ptr<FakeConnection>> others;
  for (int i = 0; i < 11; ++i) {
    const std::string name = "other" + std::to_string(i);
    others.push_back(player(name, "10.0.1." + std::to_string(i)));
    const auto code = refusal(alice, challenge_of(name));
    if (i < 10) {
      EXPECT_EQ(code, wire::ERROR_CODE_UNSPECIFIED) << i;
      send(others.back(), answer(false));  // declined: it no longer stands
    } else {
      EXPECT_EQ(code, wire::ERROR_CODE_RATE_LIMITED) << "the eleventh within the minute";
      EXPECT_NE(alice->last_error()->error().text().find("too many challenges"), std::string::npos);
      EXPECT_EQ(last_of(*others.back(), wire::ServerMessage::kChallengeOffer), nullptr);
    }
  }
  auto carol = player("carol", "10.0.0.3");
  EXPECT_EQ(refusal(carol, challenge_of("other10")), wire::ERROR_CODE_UNSPECIFIED)
      << "another challenger is not held back";
}

TEST_F(ChallengeTest, OneAddressMakesSoManyChallengesAMinuteWhicheverAccountsItUses) {
  auto victim = player("victim", "10.0.0.1");
  int offers = 0;
  for (int i = 0; i < 29; ++i) {
    auto sock = player("sock" + std::to_string(i), "10.0.0.66");
    if (refusal(sock, challenge_of("victim")) == wire::ERROR_CODE_UNSPECIFIED) ++offers;
    disconnect(sock);  // withdrawn, and on to the next account
  }
  EXPECT_EQ(offers, 20) << "twice one player's challenges a minute, for the whole address";
  auto friendly = player("friendly", "10.0.0.2");
  EXPECT_EQ(refusal(friendly, challenge_of("victim")), wire::ERROR_CODE_UNSPECIFIED);
}

TEST_F(ChallengeTest, TheSamePlayerIsChallengedAgainOnlyAfterACooldown) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_UNSPECIFIED);
  send(bob, answer(false));
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(alice->last_error()->error().text().find("you challenged bob a moment ago"),
            std::string::npos)
      << alice->last_error()->error().text();
  EXPECT_EQ(refusal(bob, challenge_of("alice")), wire::ERROR_CODE_UNSPECIFIED)
      << "the other way round is another pair";
}

TEST_F(ChallengeTest, AnAcceptedChallengeLeavesThePairFreeToPlayAgain) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_UNSPECIFIED);
  send(bob, answer(true));
  ASSERT_NE(last_of(*alice, wire::ServerMessage::kJoined), nullptr);
  wire::ClientMessage resign;
  resign.mutable_resign();
  send(alice, resign);
  wire::ClientMessage leave;
  leave.mutable_leave();
  send(alice, leave);
  send(bob, leave);
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_UNSPECIFIED)
      << "the cool-down is for challenges that end without a game";
  ASSERT_NE(last_of(*bob, wire::ServerMessage::kChallengeOffer), nullptr);
}

TEST_F(ChallengeTest, ADeclinedChallengeIsToldToBoth) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  send(alice, challenge_of("bob"));
  send(bob, answer(false));
  for (auto* who : {alice.get(), bob.get()}) {
    const auto* ended = last_of(*who, wire::ServerMessage::kChallengeEnded);
    ASSERT_NE(ended, nullptr);
    EXPECT_EQ(ended->challenge_ended().how(), wire::CHALLENGE_END_DECLINED);
    EXPECT_EQ(ended->challenge_ended().challenger(), "alice");
    EXPECT_EQ(ended->challenge_ended().challenged(), "bob");
  }
  EXPECT_EQ(refusal(bob, answer(true)), wire::ERROR_CODE_NO_CHALLENGE) << "nothing stands";
}

TEST_F(ChallengeTest, AChallengeExpires) {
  local_.reset();
  LobbyConfig c = config();
  c.challenge_lifetime = std::chrono::milliseconds(20);
  local_ = std::make_unique<LocalLobby>(logic_, logic_, c);
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  send(alice, challenge_of("bob"));
  ASSERT_TRUE(
      testing::run_until(io_, [&] { return last_of(*bob, wire::ServerMessage::kChallengeEnded); }));
  const auto* ended = last_of(*bob, wire::ServerMessage::kChallengeEnded);
  ASSERT_NE(ended, nullptr);
  EXPECT_EQ(ended->challenge_ended().how(), wire::CHALLENGE_END_EXPIRED);
  EXPECT_EQ(refusal(bob, answer(true)), wire::ERROR_CODE_NO_CHALLENGE);
}

TEST_F(ChallengeTest, ClearRefusals) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  auto carol = player("carol", "10.0.0.3");
  EXPECT_EQ(refusal(alice, challenge_of("nobody")), wire::ERROR_CODE_NO_RECORD);
  EXPECT_EQ(refusal(alice, challenge_of("alice")), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(refusal(alice, challenge_of("bob", 25)), wire::ERROR_CODE_BAD_REQUEST);
  wire::ClientMessage bad_clock = challenge_of("bob");
  bad_clock.mutable_challenge()->mutable_clock()->set_initial_ms(500);
  EXPECT_EQ(refusal(alice, bad_clock), wire::ERROR_CODE_BAD_REQUEST);
  // Offline: known, but not connected.
  auto dave = player("dave", "10.0.0.4");
  disconnect(dave);
  EXPECT_EQ(refusal(alice, challenge_of("dave")), wire::ERROR_CODE_PLAYER_OFFLINE);
  // Busy: seated in a game.
  quick(bob, 3);
  quick(carol, 3);
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_PLAYER_BUSY);
  // Refusing all.
  auto erin = player("erin", "10.0.0.5");
  wire::ClientMessage off;
  off.mutable_challenge_settings()->set_refuse_all(true);
  send(erin, off);
  EXPECT_TRUE(
      last_of(*erin, wire::ServerMessage::kChallengeSettings)->challenge_settings().refuse_all());
  EXPECT_EQ(refusal(alice, challenge_of("erin")), wire::ERROR_CODE_CHALLENGE_REFUSED);
  // Three standing at most, and one at a time to the same player.
  auto f1 = player("f1", "10.0.0.6");
  auto f2 = player("f2", "10.0.0.7");
  auto f3 = player("f3", "10.0.0.8");
  auto f4 = player("f4", "10.0.0.9");
  for (const char* name : {"f1", "f2", "f3"}) {
    EXPECT_EQ(refusal(alice, challenge_of(name)), wire::ERROR_CODE_UNSPECIFIED) << name;
  }
  EXPECT_EQ(refusal(alice, challenge_of("f1")), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(refusal(alice, challenge_of("f4")), wire::ERROR_CODE_TOO_MANY_CHALLENGES);
}

TEST_F(ChallengeTest, GoingIntoAnotherGameOrOfflineEndsTheChallenges) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  auto carol = player("carol", "10.0.0.3");
  send(alice, challenge_of("bob"));
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(3);
  send(alice, create);  // alice opens a game of her own
  const auto* ended = last_of(*bob, wire::ServerMessage::kChallengeEnded);
  ASSERT_NE(ended, nullptr);
  EXPECT_EQ(ended->challenge_ended().how(), wire::CHALLENGE_END_WITHDRAWN);
  send(carol, challenge_of("bob"));
  disconnect(bob);
  ended = last_of(*carol, wire::ServerMessage::kChallengeEnded);
  ASSERT_NE(ended, nullptr);
  EXPECT_EQ(ended->challenge_ended().how(), wire::CHALLENGE_END_UNAVAILABLE);
}

TEST_F(ChallengeTest, ASpectatorAcceptsAndLeavesTheGameItWatched) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  auto carol = player("carol", "10.0.0.3");
  auto dave = player("dave", "10.0.0.4");
  quick(carol, 3);
  quick(dave, 3);
  const auto game = last_of(*carol, wire::ServerMessage::kJoined)->joined().state().game_id();
  wire::ClientMessage watch;
  watch.mutable_spectate()->set_game_id(game);
  send(bob, watch);
  send(alice, challenge_of("bob"));
  send(bob, answer(true));
  const auto* joined = last_of(*bob, wire::ServerMessage::kJoined);
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->joined().side(), wire::SIDE_O);
  EXPECT_NE(joined->joined().state().game_id(), game);
}

TEST_F(ChallengeTest, ABlockStopsChallengesAndChatAndIsListed) {
  auto alice = player("alice", "10.0.0.1");
  auto bob = player("bob", "10.0.0.2");
  wire::ClientMessage block;
  block.mutable_block()->set_name("alice");
  block.mutable_block()->set_blocked(true);
  send(bob, block);
  const auto* list = last_of(*bob, wire::ServerMessage::kBlockList);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->block_list().names_size(), 1);
  EXPECT_EQ(list->block_list().names(0), "alice");
  EXPECT_EQ(refusal(alice, challenge_of("bob")), wire::ERROR_CODE_CHALLENGE_REFUSED)
      << "told as any refusal";
  // In a game together, alice's chat doesn't reach bob; bob's reaches alice.
  quick(alice, 3);
  quick(bob, 3);
  wire::ClientMessage chat;
  chat.mutable_chat()->set_text("hello bob");
  send(alice, chat);
  EXPECT_EQ(last_of(*bob, wire::ServerMessage::kChat), nullptr);
  chat.mutable_chat()->set_text("hello alice");
  send(bob, chat);
  EXPECT_NE(last_of(*alice, wire::ServerMessage::kChat), nullptr);
  block.mutable_block()->set_blocked(false);
  send(bob, block);
  EXPECT_EQ(last_of(*bob, wire::ServerMessage::kBlockList)->block_list().names_size(), 0)
      << bob->received.back().DebugString();
  EXPECT_EQ(refusal(bob,
                    [] {
                      wire::ClientMessage m;
                      m.mutable_block()->set_name("nobody");
                      m.mutable_block()->set_blocked(true);
                      return m;
                    }()),
            wire::ERROR_CODE_NO_RECORD);
}

TEST_F(LobbyTest, QuickMatchPairsOnlyEqualClocks) {
  auto a = player("a", "10.0.0.1");
  auto b = player("b", "10.0.0.2");
  auto c = player("c", "10.0.0.3");
  auto quick_clock = [this](const std::shared_ptr<FakeConnection>& conn, std::uint32_t initial,
                            std::uint32_t increment) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(3);
    m.mutable_quick_match()->mutable_clock()->set_initial_ms(initial);
    m.mutable_quick_match()->mutable_clock()->set_increment_ms(increment);
    send(conn, m);
  };
  quick_clock(a, 60'000, 1'000);
  EXPECT_EQ(last_of(*a, wire::ServerMessage::kQueued)->queued().clock().initial_ms(), 60'000u);
  quick(b, 3);                // no clock: waits on
  quick_clock(c, 60'000, 0);  // another increment: waits on
  EXPECT_EQ(lobby().stats().queued, 3u);
  auto d = player("d", "10.0.0.4");
  quick_clock(d, 60'000, 1'000);
  const auto* joined = last_of(*d, wire::ServerMessage::kJoined);
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(joined->joined().state().x().name(), "a");
  EXPECT_EQ(joined->joined().state().clock().increment_ms(), 1'000u);
}

TEST_F(LobbyTest, AClockRunsOnAcrossAReconnect) {
  auto a = player("a", "10.0.0.1");
  auto b = player("b", "10.0.0.2");
  for (const auto& who : {a, b}) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(3);
    m.mutable_quick_match()->mutable_clock()->set_initial_ms(60'000);
    m.mutable_quick_match()->mutable_clock()->set_increment_ms(5'000);
    send(who, m);
  }
  wire::ClientMessage move;
  move.mutable_make_move()->set_row(1);
  move.mutable_make_move()->set_col(1);
  send(a, move);  // X moves: X's clock earns its increment
  const std::string token = b->received.front().welcome().resume_token();
  disconnect(b);
  auto again = connect("10.0.0.2");
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  send(again, hello);
  const auto* joined = again->last([](const wire::ServerMessage& m) { return m.has_joined(); });
  ASSERT_NE(joined, nullptr);
  const wire::GameState& s = joined->joined().state();
  EXPECT_EQ(s.clock().initial_ms(), 60'000u);
  EXPECT_GT(s.x_clock_ms(), 60'000u) << "X's increment is kept";
  EXPECT_LE(s.o_clock_ms(), 60'000u) << "O's time ran on while away";
  EXPECT_EQ(s.to_move(), wire::SIDE_O);
}

TEST(PlayerTable, FindsAPersonByKeyAndPagesPeopleByName) {
  PlayerTable table;
  auto add = [&](std::uint64_t id, const std::string& name, bool bot = false) {
    auto p = std::make_unique<LobbyPlayer>();
    p->id = SeatId{id};
    p->name = name;
    p->is_bot = bot;
    p->key = bot ? "" : name_key(name);
    table.add(std::move(p));
  };
  add(1, "carol");
  add(2, "Alice");
  add(3, "bob");
  add(4, "bot (easy)", true);
  EXPECT_EQ(table.size(), 4u);
  EXPECT_EQ(table.people(), 3u) << "the server's bots are not people";
  ASSERT_NE(table.by_key(name_key("ALICE")), nullptr);
  EXPECT_EQ(table.by_key(name_key("ALICE"))->id, SeatId{2});
  EXPECT_EQ(table.by_key(name_key("bot (easy)")), nullptr);
  auto page = table.page("", "", 2, 100, {});
  ASSERT_EQ(page.people.size(), 2u);
  EXPECT_EQ(page.people[0]->name, "Alice");
  EXPECT_EQ(page.people[1]->name, "bob");
  EXPECT_EQ(page.next_after, "bob");
  page = table.page("bob", "", 2, 100, {});
  ASSERT_EQ(page.people.size(), 1u);
  EXPECT_EQ(page.people[0]->name, "carol");
  EXPECT_TRUE(page.next_after.empty());
  // A filter looks at so many names, then says where to go on.
  page = table.page("", "CAR", 10, 2, {});
  EXPECT_TRUE(page.people.empty());
  EXPECT_EQ(page.next_after, "bob");
  page = table.page(page.next_after, "CAR", 10, 2, {});
  ASSERT_EQ(page.people.size(), 1u);
  table.erase(SeatId{2});
  EXPECT_EQ(table.by_key(name_key("alice")), nullptr);
  EXPECT_EQ(table.people(), 2u);
}

}  // namespace
}  // namespace ttt::server
