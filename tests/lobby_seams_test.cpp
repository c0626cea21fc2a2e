// The lobby and its rooms through their seams only: a Lobby built
// with fakes of every part a shared or durable implementation will replace
// (the account store and rating book, the game journal, the game directory
// and the matchmaker) plays games exactly as with the in-process ones, and
// says to each part what that part needs to hear. No SQLite, no sockets.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "executor_check.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/account_store.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/lobby.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/text_rules.hpp"
#include "support/fake_participant.hpp"
#include "support/memory_accounts.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

using ttt::testing::MemoryAccounts;

// Every change a room reports, in order; each stored at once.
class RecordingJournal final : public GameJournal {
 public:
  RecordId start(const GameStart& game, Done done) override {
    starts.push_back(game);
    done(true);
    return static_cast<RecordId>(starts.size());
  }
  void move(RecordId record, const MoveEntry& entry, const std::optional<GameEnding>& end,
            Done done) override {
    moves.push_back({record, entry.ply, entry.move});
    if (end) ends.push_back(end->result);
    done(true);
  }
  void end(RecordId, const GameEnding& ending, Done done) override {
    ends.push_back(ending.result);
    done(true);
  }

  struct Moved {
    RecordId record;
    int ply;
    Move move;
  };
  std::vector<GameStart> starts;
  std::vector<Moved> moves;
  std::vector<GameResult> ends;
};

// The in-process directory, with what the lobby told it counted.
class RecordingDirectory final : public GameDirectory {
 public:
  void publish(const Listing& listing) override {
    published.push_back(GameId{listing.summary.game_id()});
    inner_.publish(listing);
  }
  void withdraw(GameId game) override {
    withdrawn.push_back(game);
    inner_.withdraw(game);
  }
  ListPage list(const ListQuery& query) const override {
    ++lists;
    return inner_.list(query);
  }
  std::size_t size() const override { return inner_.size(); }
  std::optional<Listing> find(GameId game) const override { return inner_.find(game); }
  std::optional<Listing> find_by_invite(const std::string& invite_key) const override {
    return inner_.find_by_invite(invite_key);
  }

  std::vector<GameId> published;
  std::vector<GameId> withdrawn;
  mutable int lists = 0;

 private:
  LocalGameDirectory inner_;
};

// A matchmaker whose choices the test makes, as a shared matchmaker that
// decides elsewhere would: wishes wait until the test names which waiting
// wish (by its place in the queue) the next one is paired with.
class ChosenMatchmaker final : public Matchmaker {
 public:
  void match(const MatchRequest& request, Done done) override {
    requests.push_back(request);
    if (pair_with && *pair_with < waiting_.size()) {
      const MatchRequest paired = waiting_[*pair_with];
      waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(*pair_with));
      pair_with.reset();
      done({paired, true});
      return;
    }
    waiting_.push_back(request);
    done({std::nullopt, true});
  }
  void cancel(SeatId who, Cancelled done) override {
    cancelled.push_back(who);
    const bool was =
        std::erase_if(waiting_, [who](const MatchRequest& r) { return r.player_id == who; }) > 0;
    if (done) done(was);
  }
  std::size_t waiting() const override { return waiting_.size(); }

  std::optional<std::size_t> pair_with;  // the next request is paired with waiting_[*pair_with]
  std::vector<MatchRequest> requests;
  std::vector<SeatId> cancelled;

 private:
  std::vector<MatchRequest> waiting_;
};

using FakeConnection = ttt::testing::FakeParticipant;

class LobbySeams : public ::testing::Test {
 protected:
  LobbySeams()
      : logic_(boost::asio::make_strand(io_)),
        lobby_(
            LobbyDependencies{logic_, logic_, accounts_, journal_, directory_, matchmaker_, log_},
            config()) {}

  static LobbyConfig config() {
    LobbyConfig c;
    c.bot_budget = std::chrono::milliseconds(1);
    return c;
  }
  std::shared_ptr<FakeConnection> player(const std::string& name) {
    auto conn = std::make_shared<FakeConnection>();
    inboxes_[conn.get()] = lobby_.open(conn, "192.0.2." + std::to_string(inboxes_.size() + 1));
    wire::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_name(name);
    send(conn, hello);
    return conn;
  }
  void send(const std::shared_ptr<FakeConnection>& conn, wire::ClientMessage m) {
    m.set_request_id(++request_id_);
    inboxes_.at(conn.get())->receive(m);
    io_.poll();
  }
  void quick(const std::shared_ptr<FakeConnection>& conn, int size) {
    wire::ClientMessage m;
    m.mutable_quick_match()->set_size(size);
    send(conn, m);
  }
  void move(const std::shared_ptr<FakeConnection>& conn, int row, int col) {
    wire::ClientMessage m;
    m.mutable_make_move()->set_game_id(conn->last_state()->game_id());
    m.mutable_make_move()->set_row(row);
    m.mutable_make_move()->set_col(col);
    send(conn, m);
  }
  void leave(const std::shared_ptr<FakeConnection>& conn) {
    inboxes_.at(conn.get())->closed();
    io_.poll();
  }

  // The test drives the lobby from its own thread, which runs the logic
  // executor too (io_.poll()): it stands in for it.
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  boost::asio::strand<boost::asio::io_context::executor_type> logic_;
  MemoryAccounts accounts_;
  RecordingJournal journal_;
  RecordingDirectory directory_;
  ChosenMatchmaker matchmaker_;
  LogLimiter log_;
  Lobby lobby_;
  std::map<FakeConnection*, std::shared_ptr<Inbox>> inboxes_;
  std::uint32_t request_id_ = 0;
};

TEST_F(LobbySeams, ANewNameIsAnAccountOfTheAccountStore) {
  auto alice = player("alice");
  ASSERT_TRUE(alice->received.front().has_welcome()) << alice->received.front().DebugString();
  EXPECT_EQ(accounts_.created, std::vector<std::string>{"alice"});
  ASSERT_NE(accounts_.find(name_key("alice")), nullptr);
  EXPECT_EQ(accounts_.tokens_saved.size(), 1u)
      << "its resume token is kept: a restart loses nobody";
}

TEST_F(LobbySeams, TheMatchmakerDecidesWhoIsPairedAndTheLobbySeatsThem) {
  auto ann = player("ann");
  auto ben = player("ben");
  auto cat = player("cat");
  auto dan = player("dan");
  quick(ann, 3);
  quick(ben, 3);  // the in-process queue would pair ben with ann; this one waits
  quick(cat, 3);
  matchmaker_.pair_with = 1;  // dan with the second waiting: ben
  quick(dan, 3);
  ASSERT_EQ(matchmaker_.requests.size(), 4u);
  EXPECT_EQ(matchmaker_.requests[3].size, 3);
  EXPECT_EQ(matchmaker_.requests[3].win_length, 3);
  const wire::GameState* b = ben->last_state();
  const wire::GameState* d = dan->last_state();
  ASSERT_TRUE(b && d);
  EXPECT_EQ(b->game_id(), d->game_id());
  EXPECT_EQ(b->x().name(), "ben");
  EXPECT_EQ(b->o().name(), "dan");
  EXPECT_EQ(b->status(), wire::GAME_STATUS_IN_PROGRESS);
  EXPECT_EQ(ann->last_state(), nullptr) << "ann still waits";
  EXPECT_EQ(cat->last_state(), nullptr) << "cat still waits";
  EXPECT_EQ(lobby_.stats().queued, 2u);
}

TEST_F(LobbySeams, TheRoomWritesStartMovesAndEndToTheJournalItself) {
  auto alice = player("alice");
  auto bob = player("bob");
  quick(alice, 3);
  matchmaker_.pair_with = 0;
  quick(bob, 3);
  ASSERT_EQ(journal_.starts.size(), 1u);
  const GameStart& start = journal_.starts.front();
  EXPECT_EQ(start.size, 3);
  EXPECT_EQ(start.win_length, 3);
  EXPECT_EQ(start.x, account_id(*accounts_.find(name_key("alice"))));
  EXPECT_EQ(start.o, account_id(*accounts_.find(name_key("bob"))));
  EXPECT_GE(accounts_.tokens_saved.size(), 2u) << "both seated players' tokens are kept";
  const std::pair<int, int> cells[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
  for (std::size_t i = 0; i < std::size(cells); ++i) {
    move(i % 2 == 0 ? alice : bob, cells[i].first, cells[i].second);
  }
  ASSERT_EQ(journal_.moves.size(), 5u);
  for (std::size_t i = 0; i < journal_.moves.size(); ++i) {
    EXPECT_EQ(journal_.moves[i].ply, static_cast<int>(i));
    EXPECT_EQ(journal_.moves[i].move.row, cells[i].first);
    EXPECT_EQ(journal_.moves[i].move.col, cells[i].second);
  }
  ASSERT_EQ(journal_.ends.size(), 1u);
  EXPECT_EQ(journal_.ends.front().winner, Player::X);
  EXPECT_EQ(journal_.ends.front().reason, wire::END_REASON_LINE);
  EXPECT_EQ(alice->last_state()->status(), wire::GAME_STATUS_X_WON);
}

TEST_F(LobbySeams, RatingsAreReadFromTheRatingBookAndAResultIsSettledThroughIt) {
  auto alice = player("alice");
  auto bob = player("bob");
  accounts_.set_rating("alice", 1512);
  accounts_.set_rating("bob", 1377);
  quick(alice, 3);
  matchmaker_.pair_with = 0;
  quick(bob, 3);
  const wire::GameState* state = bob->last_state();
  ASSERT_NE(state, nullptr);
  EXPECT_DOUBLE_EQ(state->x().rating(), 1512);
  EXPECT_DOUBLE_EQ(state->o().rating(), 1377);
  const std::pair<int, int> cells[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
  for (std::size_t i = 0; i < std::size(cells); ++i) {
    move(i % 2 == 0 ? alice : bob, cells[i].first, cells[i].second);
  }
  ASSERT_EQ(accounts_.settlements.size(), 1u);
  EXPECT_EQ(accounts_.settlements.front().winner, Player::X);
  EXPECT_EQ(accounts_.settlements.front().moves, 5);
  EXPECT_TRUE(accounts_.settlements.front().rated);
  EXPECT_EQ(accounts_.settled_ok, std::vector<bool>{true}) << "settled once the end is written";
}

TEST_F(LobbySeams, AGameIsPublishedInTheDirectoryAndWithdrawnWhenItCloses) {
  auto alice = player("alice");
  wire::ClientMessage create;
  create.mutable_create_game()->set_size(4);
  send(alice, create);
  const wire::GameState* state = alice->last_state();
  ASSERT_NE(state, nullptr);
  const GameId game{state->game_id()};
  ASSERT_FALSE(directory_.published.empty());
  EXPECT_EQ(directory_.published.back(), game);
  auto bob = player("bob");
  wire::ClientMessage list;
  list.mutable_list_games();
  send(bob, list);
  EXPECT_EQ(directory_.lists, 1) << "the list is the directory's";
  ASSERT_TRUE(bob->received.back().has_game_list());
  ASSERT_EQ(bob->received.back().game_list().games_size(), 1);
  EXPECT_EQ(bob->received.back().game_list().games(0).game_id(), number(game));
  wire::ClientMessage leave_game;
  leave_game.mutable_leave();
  send(alice, leave_game);
  EXPECT_EQ(directory_.withdrawn, std::vector<GameId>{game});
  EXPECT_EQ(directory_.size(), 0u);
}

TEST_F(LobbySeams, AQueuedPlayerWhoLeavesIsTakenOutOfTheMatchmaker) {
  auto alice = player("alice");
  quick(alice, 3);
  EXPECT_EQ(matchmaker_.waiting(), 1u);
  leave(alice);
  EXPECT_EQ(matchmaker_.waiting(), 0u) << "the lobby cancels the wish of a player who is gone";
  EXPECT_FALSE(matchmaker_.cancelled.empty());
}

}  // namespace
}  // namespace ttt::server
