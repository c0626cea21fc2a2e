// Nodes of one lobby for end-to-end tests: each node a real ttt-server
// process on loopback, all sharing a redis-server and a PostgreSQL schema of
// the test's own (and a key file of the test's own, --cluster-key-file), and
// the helpers the tests of several nodes share (a Hello with a token,
// following a Redirect, playing moves in turn, reading the leaderboard).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "client_support/child_process.hpp"
#include "client_support/redis_scratch.hpp"
#include "store/postgres.hpp"
#include "support/eventually.hpp"
#include "support/postgres_scratch.hpp"
#include "support/test_client.hpp"

namespace ttt::testing {

using namespace std::chrono_literals;

// A key file the nodes share (--cluster-key-file), readable by its owner
// only, removed with its folder.
class ClusterKey {
 public:
  ClusterKey() : path_(dir_.path() + "/cluster.key") {
    std::ofstream(path_) << "0123456789abcdef0123456789abcdef-test-key\n";
    ::chmod(path_.c_str(), 0600);
  }
  const std::string& path() const noexcept { return path_; }

 private:
  TempDir dir_;
  std::string path_;
};

// One ttt-server node: --no-tls on loopback, no limits per address (every
// client here comes from 127.0.0.1).
class Node {
 public:
  Node(const std::string& postgres, const std::string& redis, const std::string& key_file,
       std::vector<std::string> extra = {}, bool tls = false) {
    std::vector<std::string> argv{bin_dir() + "/ttt-server",
                                  "--bind",
                                  "127.0.0.1",
                                  "--port",
                                  "0",
                                  "--postgres",
                                  postgres,
                                  "--redis",
                                  redis,
                                  "--cluster-key-file",
                                  key_file,
                                  "--log-level",
                                  "debug",
                                  "--max-connections-per-ip",
                                  "0",
                                  "--max-connection-rate-per-ip",
                                  "0",
                                  "--max-new-names-per-address",
                                  "0",
                                  "--max-identity-failures-per-address",
                                  "0",
                                  "--max-games-per-address",
                                  "0",
                                  "--rate-limit",
                                  "0"};
    // A flag in `extra` replaces its default above (each a flag and its value).
    for (std::size_t i = 1; i + 1 < argv.size();) {
      if (std::find(extra.begin(), extra.end(), argv[i]) != extra.end()) {
        argv.erase(argv.begin() + static_cast<std::ptrdiff_t>(i),
                   argv.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      } else {
        i += 2;
      }
    }
    if (!tls) argv.push_back("--no-tls");
    // Every player here comes from 127.0.0.1: rated games as between addresses.
    argv.push_back("--rate-same-address");
    // ./ttt test --tsan runs every server the tests start on several threads.
    if (const char* threads = std::getenv("TTT_TEST_THREADS")) {
      argv.insert(argv.end(), {"--threads", threads});
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
    // A TMPDIR of the node's own (its Redis TLS relay's socket folder goes
    // there), removed with the node even when the node was killed.
    process_ =
        std::make_unique<ChildProcess>(argv, std::vector<std::string>{"TMPDIR=" + tmp_.path()});
    std::smatch m;
    const std::regex listening("listening on port ([0-9]+)");
    EXPECT_TRUE(process_->wait_for(
        [&](const std::string& out) { return std::regex_search(out, m, listening); }, 20s))
        << process_->output();
    const std::string out = process_->output();
    if (std::regex_search(out, m, listening)) port_ = static_cast<std::uint16_t>(std::stoi(m[1]));
    const std::regex node_id("node ([0-9a-f]+) of the lobby");
    if (std::regex_search(out, m, node_id)) id_ = m[1];
  }

  std::uint16_t port() const { return port_; }
  const std::string& id() const { return id_; }
  ChildProcess& process() { return *process_; }
  std::string where() const { return "127.0.0.1:" + std::to_string(port_); }
  // Everything it printed so far (read now).
  std::string log() {
    process_->wait_for([](const std::string&) { return false; }, 200ms);
    return process_->output();
  }

 private:
  TempDir tmp_;  // declared first: removed after the process has ended
  std::unique_ptr<ChildProcess> process_;
  std::uint16_t port_ = 0;
  std::string id_;
};

class Nodes : public ::testing::Test {
 protected:
  void SetUp() override {
    TTT_NEED_REDIS();
    TTT_NEED_POSTGRES();
    redis_ = std::make_unique<RedisScratch>();
    pg_ = std::make_unique<PostgresScratch>();
  }

  std::shared_ptr<Node> node(std::vector<std::string> extra = {}) {
    auto n =
        std::make_shared<Node>(pg_->conninfo(), redis_->address(), key_.path(), std::move(extra));
    nodes_.push_back(n);
    return n;
  }

  // A failed test shows what its nodes logged.
  void TearDown() override {
    if (!HasFailure()) return;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      ADD_FAILURE() << "node " << i + 1 << " logged:\n" << nodes_[i]->log();
    }
  }

  // Games that ended, in PostgreSQL.
  int finished_games() {
    return std::stoi("0" + sql("SELECT COUNT(*) FROM games WHERE status <> 'in_progress'"));
  }

  // Every game played (`total` players' games, two a game) is in PostgreSQL
  // once, finished, with its moves, and the games were spread over nodes.
  void expect_every_game_once(int total) {
    EXPECT_EQ(sql("SELECT COUNT(*) FROM (SELECT room_id, round FROM games GROUP BY room_id, "
                  "round HAVING COUNT(*) > 1) twice"),
              "0");
    EXPECT_EQ(sql("SELECT COUNT(*) FROM games WHERE status = 'in_progress'"), "0");
    EXPECT_EQ(sql("SELECT COUNT(*) FROM games WHERE status = 'aborted'"), "0");
    // A bot left without an opponent (every other finished its series)
    // plays the server's bot (--bot-fallback): that game is one bot's only.
    const int house = std::stoi("0" + sql("SELECT COUNT(*) FROM games g WHERE EXISTS (SELECT 1 "
                                          "FROM players p WHERE p.is_bot <> 0 AND p.id IN "
                                          "(g.x_player, g.o_player))"));
    EXPECT_EQ(sql("SELECT COUNT(*) FROM games"), std::to_string((total + house) / 2));
    EXPECT_EQ(sql("SELECT COUNT(*) FROM games g WHERE g.reason IN ('line', 'board_full') AND "
                  "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) < 5"),
              "0")
        << "no game decided on the board without its moves";
    EXPECT_NE(sql("SELECT COUNT(DISTINCT node) FROM games"), "1")
        << "games were played on several nodes";
  }

  // Waits until every node sees all of them alive (their heartbeats).
  void wait_for_each_other(std::size_t count) {
    const bool registered = eventually(
        [&] { return redis_->cli("SCARD ttt:nodes") == std::to_string(count); }, 10s, 100ms);
    ASSERT_TRUE(registered) << "the nodes did not all register: "
                            << redis_->cli("SMEMBERS ttt:nodes");
    // Registered is not yet known to all: each running node reads the
    // others' heartbeats at its own next beat, and says so once per node.
    std::vector<std::shared_ptr<Node>> running;
    for (const auto& n : nodes_) {
      if (!n->process().wait_exit(0ms)) running.push_back(n);
    }
    for (const auto& n : running) {
      const bool sees = n->process().wait_for(
          [&](const std::string& out) {
            return std::all_of(running.begin(), running.end(), [&](const auto& other) {
              return other == n || other->id().empty() ||
                     out.find("cluster: node " + other->id() + " at") != std::string::npos;
            });
          },
          10s);
      ASSERT_TRUE(sees) << "node " << n->id() << " does not see the others:\n" << n->log();
    }
  }

  // A one-row, one-column answer from the scratch schema.
  std::string sql(const std::string& query) {
    server::PgConnection db(pg_->conninfo());
    auto rows = db.exec(query);
    return rows.rows() == 0 ? "" : rows.text(0, 0);
  }

  ClusterKey key_;
  std::unique_ptr<RedisScratch> redis_;
  std::unique_ptr<PostgresScratch> pg_;
  std::vector<std::shared_ptr<Node>> nodes_;
};

// Quick match for a 3x3 board, and the Queued that says the client waits.
inline void queue_for_3x3(TestClient& client) {
  client.quick(3);
  client.expect([](const wire::ServerMessage& s) { return s.has_queued(); }, "Queued");
}

// Hello with a resume token (the name only for the log).
inline void hello_with_token(TestClient& client, const std::string& name,
                             const std::string& token) {
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name(name);
  hello.mutable_hello()->set_resume_token(token);
  client.send(hello);
}

inline wire::Redirect expect_redirect(TestClient& client, std::chrono::milliseconds timeout = 5s) {
  auto m = client.expect([](const wire::ServerMessage& s) { return s.has_redirect(); },
                         "a Redirect", timeout);
  return m.redirect();
}

// Waits until `client`'s node lists `game` (a game made at another node
// reaches this one's list through Redis a moment later); false if it is
// still not listed after `limit`.
inline bool wait_listed(TestClient& client, std::uint64_t game,
                        std::chrono::milliseconds limit = 10s) {
  return eventually(
      [&] {
        wire::ClientMessage list;
        list.mutable_list_games();
        client.send(list);
        const auto reply = client.expect(
            [](const wire::ServerMessage& s) { return s.has_game_list(); }, "the game list");
        const auto& games = reply.game_list().games();
        return std::any_of(games.begin(), games.end(),
                           [&](const auto& listed) { return listed.game_id() == game; });
      },
      limit, 100ms);
}

// Hello at the node a Redirect names, with the token and the reservation.
inline std::unique_ptr<TestClient> follow(const wire::Redirect& redirect, const std::string& name,
                                          const std::string& token, wire::Welcome& welcome) {
  auto there =
      std::make_unique<TestClient>(static_cast<std::uint16_t>(redirect.port()), redirect.host());
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_name(name);
  hello.mutable_hello()->set_resume_token(token);
  hello.mutable_hello()->set_reservation(redirect.reservation());
  there->send(hello);
  welcome = there
                ->expect([](const wire::ServerMessage& s) { return s.has_welcome(); },
                         "Welcome at the node redirected to")
                .welcome();
  return there;
}

// alice and bob say Hello, alice opens a 3x3 game and bob takes its seat; its id.
inline std::uint64_t seat_pair(TestClient& alice, TestClient& bob) {
  alice.hello("alice");
  bob.hello("bob");
  alice.create(3);
  const auto game = alice.expect_joined().state().game_id();
  bob.join(game);
  bob.expect_joined();
  return game;
}

// Plays the moves in turn (x first) until the game ends; returns the final state.
inline wire::GameState play_out(TestClient& x, TestClient& o, std::uint64_t game,
                                const std::vector<std::pair<int, int>>& moves, int first_ply = 0) {
  wire::GameState last;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    TestClient& mover = (first_ply + static_cast<int>(i)) % 2 == 0 ? x : o;
    mover.move(moves[i].first, moves[i].second, game);
    const int ply = first_ply + static_cast<int>(i) + 1;
    last = mover.expect_state(
        [ply](const wire::GameState& s) {
          return s.move_count() >= static_cast<std::uint32_t>(ply);
        },
        "the move's state");
    if (is_over(last)) break;
  }
  return last;
}

// Every account on the leaderboard the asker's node shows: name -> (rating, games).
inline std::map<std::string, std::pair<double, std::uint64_t>> board_at(TestClient& asker) {
  wire::ClientMessage ask;
  ask.mutable_get_leaderboard()->set_limit(100);
  asker.send(ask);
  const auto reply =
      asker.expect([](const wire::ServerMessage& m) { return m.has_leaderboard(); }, "board");
  std::map<std::string, std::pair<double, std::uint64_t>> board;
  for (const auto& e : reply.leaderboard().entries()) board[e.name()] = {e.rating(), e.games()};
  return board;
}

// What the players were told, checked against what PostgreSQL keeps: every
// game a client saw end (its final GameState) is stored once with the same
// result, players and number of moves; no game is left in progress; each
// account's counts are its stored games' (wins, losses, draws); no account
// sat in two games at once; and each account's rating is what the final
// state of its last rated game told its player.
class Ledger {
 public:
  // A final state a player received (the last one of its game counts).
  void saw(const wire::GameState& state) {
    if (!is_over(state)) return;
    ended_[{state.game_id(), state.round()}] = state;
  }

  void expect_kept_by(const std::string& conninfo) const {
    server::PgConnection db(conninfo);
    auto one = [&](const std::string& query) {
      auto rows = db.exec(query);
      return rows.rows() == 0 ? std::string() : rows.text(0, 0);
    };
    EXPECT_EQ(one("SELECT COUNT(*) FROM games WHERE status = 'in_progress'"), "0")
        << "a game left in progress";
    EXPECT_EQ(one("SELECT COUNT(*) FROM (SELECT room_id, round FROM games GROUP BY room_id, round "
                  "HAVING COUNT(*) > 1) twice"),
              "0")
        << "a game stored twice";
    std::map<std::string, double> last_rating;
    std::map<std::string, std::uint64_t> last_rated_game;
    for (const auto& [key, state] : ended_) {
      const std::string where = " FROM games g WHERE g.room_id = " + std::to_string(key.first) +
                                " AND g.round = " + std::to_string(key.second);
      const std::string status = state.status() == wire::GAME_STATUS_X_WON   ? "x_won"
                                 : state.status() == wire::GAME_STATUS_O_WON ? "o_won"
                                                                             : "draw";
      EXPECT_EQ(one("SELECT g.status" + where), status)
          << "game " << key.first << " round " << key.second << ": told " << status;
      EXPECT_EQ(one("SELECT (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)" + where),
                std::to_string(state.move_count()))
          << "game " << key.first << ": the moves told";
      EXPECT_EQ(one("SELECT (SELECT name FROM players p WHERE p.id = g.x_player) || ' ' || "
                    "(SELECT name FROM players p WHERE p.id = g.o_player)" +
                    where),
                state.x().name() + " " + state.o().name())
          << "game " << key.first << ": the seats told";
      if (state.rated()) {
        for (const auto* p : {&state.x(), &state.o()}) {
          if (p->is_bot()) continue;
          // The last rated game of each player (room ids grow with time).
          if (key.first >= last_rated_game[p->name()]) {
            last_rated_game[p->name()] = key.first;
            last_rating[p->name()] = p->rating();
          }
        }
      }
    }
    auto rows = db.exec(
        "SELECT p.name, p.games_played, p.wins, p.losses, p.draws, p.rating, "
        "(SELECT COUNT(*) FROM games g WHERE g.status NOT IN ('in_progress', 'aborted') AND "
        "p.id IN (g.x_player, g.o_player)), "
        "(SELECT COUNT(*) FROM games g WHERE (g.status = 'x_won' AND g.x_player = p.id) OR "
        "(g.status = 'o_won' AND g.o_player = p.id)), "
        "(SELECT COUNT(*) FROM games g WHERE (g.status = 'x_won' AND g.o_player = p.id) OR "
        "(g.status = 'o_won' AND g.x_player = p.id)), "
        "(SELECT COUNT(*) FROM games g WHERE g.status = 'draw' AND p.id IN (g.x_player, "
        "g.o_player)) FROM players p WHERE p.is_bot = 0");
    for (int i = 0; i < rows.rows(); ++i) {
      const std::string name = rows.text(i, 0);
      EXPECT_EQ(rows.text(i, 1), rows.text(i, 6)) << name << ": games_played vs games stored";
      EXPECT_EQ(rows.text(i, 2), rows.text(i, 7)) << name << ": wins vs games stored";
      EXPECT_EQ(rows.text(i, 3), rows.text(i, 8)) << name << ": losses vs games stored";
      EXPECT_EQ(rows.text(i, 4), rows.text(i, 9)) << name << ": draws vs games stored";
      if (last_rating.contains(name)) {
        EXPECT_NEAR(std::stod(rows.text(i, 5)), last_rating[name], 0.01)
            << name << ": the rating kept vs the rating told";
      }
    }
    EXPECT_EQ(
        one("SELECT COUNT(*) FROM games a JOIN games b ON a.id < b.id AND "
            "(a.x_player IN (b.x_player, b.o_player) OR a.o_player IN (b.x_player, "
            "b.o_player)) JOIN players p ON p.id IN (a.x_player, a.o_player) AND p.is_bot = 0 "
            "AND p.id IN (b.x_player, b.o_player) WHERE a.started_ms < b.ended_ms AND "
            "b.started_ms < a.ended_ms"),
        "0")
        << "a player sat in two games at once";
  }

 private:
  std::map<std::pair<std::uint64_t, std::uint32_t>, wire::GameState> ended_;
};

}  // namespace ttt::testing
