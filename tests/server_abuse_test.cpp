// One mischievous player can't hurt anyone else: each attack at a
// reduced scale, over loopback and bounded in time, with the defence that
// holds it. Clients on 127.0.0.2, 127.0.0.3, ... look like other machines to
// the limits per address.
#include <sys/resource.h>

#include <gtest/gtest.h>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/eventually.hpp"
#include "support/test_client.hpp"
#include "support/test_server.hpp"

namespace ttt::testing {
namespace {

using wire::ServerMessage;
using Clock = std::chrono::steady_clock;

// Hello with a name and a secret of the client's own; the Welcome.
wire::Welcome hello_with(TestClient& c, const std::string& name, const std::string& secret) {
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_secret(secret);
  c.send(m);
  return c.expect([](const ServerMessage& r) { return r.has_welcome(); }, "Welcome").welcome();
}

wire::ClientMessage list_request(std::uint32_t page_size = 0, std::uint64_t after = 0) {
  wire::ClientMessage m;
  m.mutable_list_games()->set_page_size(page_size);
  m.mutable_list_games()->set_after(after);
  return m;
}

// Connects, says Hello, creates a game against the server's bot and goes:
// what the flood did 21,091 times in 5 s.
void abandon_a_bot_game(std::uint16_t port, int i) {
  TestClient c(port);
  c.hello("flood-" + std::to_string(i));
  c.create(15, false, true, wire::BOT_LEVEL_RANDOM);
  c.expect_joined();
}

// A logger that keeps what the server logs, for the duration of a test.
// The log's lines in memory; read under the sink's own lock, since the
// server's threads write while the test reads.
class TextSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t line;
    formatter_->format(msg, line);
    text_.append(line.data(), line.size());
  }
  void flush_() override {}

 private:
  std::string text_;
};

class CapturedLog {
 public:
  explicit CapturedLog(spdlog::level::level_enum level)
      : previous_(spdlog::default_logger()), sink_(std::make_shared<TextSink>()) {
    auto logger = std::make_shared<spdlog::logger>("captured", sink_);
    logger->set_level(level);
    spdlog::set_default_logger(logger);
    spdlog::set_level(level);
  }
  ~CapturedLog() {
    spdlog::set_default_logger(previous_);
    spdlog::set_level(spdlog::level::warn);
  }
  std::string text() const { return sink_->text(); }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::shared_ptr<TextSink> sink_;
};

std::size_t lines_with(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(ServerAbuse, ARoomFloodLeavesEveryonesListSmall) {
  raise_file_limit();
  auto config = test_config();
  config.lobby.bot_game_grace = std::chrono::milliseconds(60'000);  // the old 30 s hold, and more
  config.session.max_queued_bytes = 16 * 1024;
  TestServer server(config);
  for (int i = 0; i < 600; ++i) abandon_a_bot_game(server.port(), i);
  ASSERT_EQ(server.stats().rooms, 600u);
  // Unpaged, that list would be about 27 KB, over this queue; a page is small.
  TestClient viewer(server.port());
  viewer.hello("viewer");
  viewer.send(list_request(100));
  const auto page =
      viewer.expect([](const ServerMessage& m) { return m.has_game_list(); }, "a page").game_list();
  EXPECT_EQ(page.games_size(), 100);
  EXPECT_EQ(page.total(), 600u);
  EXPECT_NE(page.next_after(), 0u);
  viewer.send(list_request(100, page.next_after()));
  const auto next =
      viewer.expect([](const ServerMessage& m) { return m.has_game_list(); }, "page 2").game_list();
  EXPECT_GT(next.games(0).game_id(), page.games(99).game_id());
  viewer.simple([](wire::ClientMessage& m) { m.mutable_ping(); });
  viewer.expect([](const ServerMessage& m) { return m.has_pong(); }, "still connected");
}

TEST(ServerAbuse, AbandonedBotGamesEndAtOnceAndAreCappedPerAddress) {
  auto config = test_config();
  config.lobby.bot_game_grace = std::chrono::milliseconds(200);
  config.lobby.quotas = {32, 4};
  TestServer server(config);
  for (int i = 0; i < 4; ++i) abandon_a_bot_game(server.port(), i);
  // Held a moment for a reconnect, then gone, though the grace for people is 30 s.
  EXPECT_TRUE(eventually([&] { return server.stats().rooms == 0; }, std::chrono::seconds(5),
                         std::chrono::milliseconds(20)));
  EXPECT_EQ(server.stats().rooms, 0u);
  EXPECT_EQ(server.stats().bots, 0u);
  // While they are held, a fifth from the same address is refused, clearly.
  std::vector<std::unique_ptr<TestClient>> players;
  for (int i = 0; i < 4; ++i) {
    players.push_back(std::make_unique<TestClient>(server.port()));
    players.back()->hello("capped-" + std::to_string(i));
    players.back()->create(3, false, true, wire::BOT_LEVEL_RANDOM);
    players.back()->expect_joined();
  }
  TestClient fifth(server.port());
  fifth.hello("fifth");
  fifth.create(3, false, true, wire::BOT_LEVEL_RANDOM);
  const auto error = fifth.expect_error(wire::ERROR_CODE_TOO_MANY_GAMES);
  EXPECT_FALSE(error.fatal());
  EXPECT_NE(error.text().find("127.0.0.1"), std::string::npos) << error.text();
  TestClient elsewhere(server.port(), "127.0.0.1", "127.0.0.2");
  elsewhere.hello("elsewhere");
  elsewhere.create(3, false, true, wire::BOT_LEVEL_RANDOM);
  elsewhere.expect_joined();
}

TEST(ServerAbuse, AMessageTooLargeForTheQueueIsTheServersErrorNotTheClients) {
  auto config = test_config();
  config.session.max_queued_bytes = 2048;  // smaller than a page of long names
  CapturedLog log(spdlog::level::warn);
  TestServer server(config);
  std::vector<std::unique_ptr<TestClient>> creators;
  for (int i = 0; i < 50; ++i) {
    creators.push_back(std::make_unique<TestClient>(server.port()));
    std::string name = "a-rather-long-name-of-player-" + std::to_string(100 + i);  // 32 bytes
    creators.back()->hello(name);
    creators.back()->create(3);
    creators.back()->expect_joined();
  }
  TestClient viewer(server.port());
  viewer.hello("viewer");
  const auto id = viewer.send(list_request(50));
  const auto error = viewer.expect_error(wire::ERROR_CODE_INTERNAL);
  EXPECT_FALSE(error.fatal()) << "the client did nothing wrong";
  viewer.simple([](wire::ClientMessage& m) { m.mutable_ping(); });
  viewer.expect([](const ServerMessage& m) { return m.has_pong(); }, "still connected");
  const std::string text = log.text();
  EXPECT_NE(text.find("server error: a game_list of"), std::string::npos) << text;
  EXPECT_EQ(text.find("SLOW_CONSUMER"), std::string::npos);
  (void)id;
}

TEST(ServerAbuse, InviteCodeGuessesAreRefusedAfterAFewTries) {
  TestServer server;
  TestClient alice(server.port(), "127.0.0.1", "127.0.0.2");
  alice.hello("alice");
  alice.create(3, true);
  const auto joined = alice.expect_joined();
  const std::string code = joined.invite_code();
  ASSERT_EQ(code.size(), 14u) << code;
  TestClient eve(server.port(), "127.0.0.1", "127.0.0.3");
  eve.hello("eve");
  int refused = 0;
  for (int i = 0; i < 50; ++i) {
    wire::ClientMessage m;
    m.mutable_join_game()->set_invite_code("ZZZZ-ZZZZ-ZZ" + std::to_string(10 + i));
    eve.send(m);
    const auto reply =
        eve.expect([](const ServerMessage& r) { return r.has_error(); }, "a refusal");
    if (reply.error().code() == wire::ERROR_CODE_RATE_LIMITED) ++refused;
  }
  EXPECT_GE(refused, 40) << "a handful of tries, then a wait";
  TestClient bob(server.port(), "127.0.0.1", "127.0.0.4");
  bob.hello("bob");
  bob.join(0, code);  // the code alone, as a friend got it
  EXPECT_EQ(bob.expect_joined().state().game_id(), joined.state().game_id());
}

TEST(ServerAbuse, AnInstantResignationLeavesBothRatingsUnchanged) {
  TestServer server;
  TestClient champion(server.port()), farm(server.port());
  champion.hello("champion");
  farm.hello("farm");
  for (int round = 0; round < 5; ++round) {
    farm.create(3);
    const auto game = farm.expect_joined().state().game_id();
    champion.join(game);
    champion.expect_joined();
    farm.simple([](wire::ClientMessage& m) { m.mutable_resign(); });
    const auto end = champion.expect_state(is_over, "the resignation");
    EXPECT_EQ(end.end_reason(), wire::END_REASON_RESIGNATION);
    EXPECT_DOUBLE_EQ(end.x().rating(), 1200);
    EXPECT_DOUBLE_EQ(end.o().rating(), 1200);
    for (TestClient* c : {&champion, &farm}) {
      c->simple([](wire::ClientMessage& m) { m.mutable_leave(); });
      c->expect([](const ServerMessage& m) { return m.has_left(); }, "Left");
    }
  }
  champion.simple([](wire::ClientMessage& m) { m.mutable_get_leaderboard(); });
  const auto board =
      champion.expect([](const ServerMessage& m) { return m.has_leaderboard(); }, "the leaderboard")
          .leaderboard();
  for (const auto& entry : board.entries()) {
    EXPECT_DOUBLE_EQ(entry.rating(), 1200) << entry.name();
    EXPECT_TRUE(entry.provisional()) << entry.name();
  }
}

TEST(ServerAbuse, ASpectatorStormCostsThePlayerAFewSmallMessages) {
  raise_file_limit();
  auto config = test_config();
  config.lobby.max_spectators = 100;
  TestServer server(config);
  TestClient x(server.port()), o(server.port());
  x.hello("x");
  o.hello("o");
  x.create(3);
  const auto game = x.expect_joined().state().game_id();
  o.join(game);
  o.expect_joined();
  x.expect_state(
      [](const wire::GameState& s) { return s.status() == wire::GAME_STATUS_IN_PROGRESS; },
      "the start");
  // 150 would-be spectators from 75 addresses arrive, talk and go.
  const auto start = Clock::now();
  std::vector<std::unique_ptr<TestClient>> crowd;
  int full = 0;
  for (int i = 0; i < 150; ++i) {
    crowd.push_back(std::make_unique<TestClient>(server.port(), "127.0.0.1",
                                                 "127.0.1." + std::to_string(1 + i / 2)));
    crowd.back()->hello("watcher-" + std::to_string(i));
    crowd.back()->spectate(game);
    const auto reply = crowd.back()->expect(
        [](const ServerMessage& m) { return m.has_joined() || m.has_error(); }, "an answer");
    if (reply.has_error()) {
      EXPECT_EQ(reply.error().code(), wire::ERROR_CODE_SPECTATORS_FULL);
      ++full;
      continue;
    }
    wire::ClientMessage chat;
    chat.mutable_chat()->set_text("look at me " + std::to_string(i));
    crowd.back()->send(chat);
  }
  EXPECT_EQ(full, 50);
  crowd.clear();  // they all go
  // What X hears meanwhile, up to the count that says they have all gone:
  // counts at most once a second, no chat, no states.
  int counts = 0, chats = 0, states = 0, total = 0;
  const bool all_gone = eventually(
      [&] {
        const auto m = x.receive(std::chrono::milliseconds(100));
        if (!m) return false;
        ++total;
        counts += m->has_spectator_count() ? 1 : 0;
        chats += m->has_chat() ? 1 : 0;
        states += m->has_state() ? 1 : 0;
        return m->has_spectator_count() && m->spectator_count().spectators() == 0;
      },
      std::chrono::seconds(10), std::chrono::milliseconds(0));
  EXPECT_TRUE(all_gone) << "no count of 0 once the crowd had gone";
  while (auto m = x.receive(std::chrono::milliseconds(0))) ++total;
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LE(counts, static_cast<int>(seconds) + 2) << "over " << seconds << " s";
  EXPECT_EQ(chats, 0) << "the spectators' chat is theirs unless a player asks for it";
  EXPECT_EQ(states, 0);
  EXPECT_EQ(total, counts);
}

TEST(ServerAbuse, ABotFloodKeepsAVictimsMoveWithinItsBudget) {
  raise_file_limit();
  auto config = test_config();
  config.bot_threads = 1;
  config.lobby.bot_budget = std::chrono::milliseconds(150);
  config.lobby.bot_queue = 10;
  TestServer server(config);
  // The victim's game against the bot, from its own address.
  TestClient victim(server.port(), "127.0.0.1", "127.0.0.20");
  victim.hello("victim");
  victim.create(3, false, true, wire::BOT_LEVEL_PERFECT);
  victim.expect_joined();
  // 48 games on 15x15 against the perfect bot from six other addresses, each
  // asking for a search of its whole budget at once: in one queue, 7 s of
  // thinking ahead of anyone who comes after.
  std::vector<std::unique_ptr<TestClient>> flood;
  for (int i = 0; i < 48; ++i) {
    flood.push_back(std::make_unique<TestClient>(server.port(), "127.0.0.1",
                                                 "127.0.0." + std::to_string(30 + i % 6)));
    flood.back()->hello("flood-" + std::to_string(i));
    flood.back()->create(15, false, true, wire::BOT_LEVEL_PERFECT);
    flood.back()->expect_joined();
  }
  for (auto& c : flood) c->move(7, 7);
  const auto asked = Clock::now();
  victim.move(1, 1);
  victim.expect_state([](const wire::GameState& s) { return s.move_count() == 2; },
                      "the bot's answer", std::chrono::seconds(10));
  const double waited = std::chrono::duration<double>(Clock::now() - asked).count();
  // Its turn came after one search of each other address at most (about 1 s
  // of 150 ms searches), not after the 48 asked before it (7 s): count the
  // flood games whose bot had answered by then.
  int answered_before = 0;
  for (auto& c : flood) {
    while (auto m = c->receive(std::chrono::milliseconds(0))) {
      const wire::GameState* s = m->has_state() ? &m->state() : nullptr;
      if (s != nullptr && s->move_count() == 2) {
        ++answered_before;
        break;
      }
    }
  }
  EXPECT_LE(answered_before, 6 + 3) << "one search of each of the six flood addresses, the one "
                                       "running, and a margin for those that end meanwhile";
  std::printf("the victim waited %.2f s behind 48 flood games; %d of them were answered first\n",
              waited, answered_before);
  // Meanwhile the queue is full: a new game against the bots is refused.
  TestClient late(server.port(), "127.0.0.1", "127.0.0.21");
  late.hello("late");
  late.create(3, false, true, wire::BOT_LEVEL_EASY);
  const auto reply = late.expect(
      [](const ServerMessage& m) { return m.has_joined() || m.has_error(); }, "an answer");
  ASSERT_TRUE(reply.has_error()) << "the queue was no longer full";
  EXPECT_EQ(reply.error().code(), wire::ERROR_CODE_BOTS_BUSY);
  EXPECT_FALSE(reply.error().fatal());
}

TEST(ServerAbuse, ACutFirstWelcomeLeavesTheNameUsable) {
  TestServer server;
  const std::string secret(64, '7');
  {
    // Hello with the client's own secret, then gone before the Welcome is read.
    TestClient cut(server.port());
    wire::ClientMessage m;
    m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_hello()->set_name("unlucky");
    m.mutable_hello()->set_secret(secret);
    cut.send(m);
  }
  EXPECT_TRUE(eventually([&] { return server.stats().accounts > 0; }, std::chrono::seconds(5),
                         std::chrono::milliseconds(10)));
  ASSERT_EQ(server.stats().accounts, 1u) << "the name was registered";
  TestClient again(server.port());
  const auto welcome = hello_with(again, "unlucky", secret);
  EXPECT_EQ(welcome.name(), "unlucky");
  TestClient thief(server.port());
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name("unlucky");
  thief.send(m);
  EXPECT_TRUE(thief.expect_error(wire::ERROR_CODE_NAME_TAKEN).fatal());
}

TEST(ServerAbuse, LogLinesFromOneAddressAreHeldBackAndCounted) {
  auto config = test_config();
  config.lobby.log_burst = 10;
  config.lobby.log_every = std::chrono::milliseconds(500);
  CapturedLog log(spdlog::level::info);
  {
    TestServer server(config);
    for (int i = 0; i < 200; ++i) {
      TestClient c(server.port());
      c.hello("churn-" + std::to_string(i));
    }
    eventually([&] { return lines_with(log.text(), "held back") > 0; }, std::chrono::seconds(5),
               std::chrono::milliseconds(50));
    // A player from elsewhere is logged as usual.
    TestClient other(server.port(), "127.0.0.1", "127.0.0.9");
    other.hello("elsewhere");
  }
  const std::string text = log.text();
  // 200 cycles would be 400 lines (connection closed, new player).
  EXPECT_LT(lines_with(text, "connection 127.0.0.1:") + lines_with(text, "new player"), 60u);
  EXPECT_GT(lines_with(text, "held back"), 0u) << text;
  EXPECT_NE(text.find("(elsewhere)"), std::string::npos);
}

}  // namespace
}  // namespace ttt::testing
