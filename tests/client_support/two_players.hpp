// Two people at ttt-client, alice and bob, as the end-to-end tests drive
// them: a line typed, then a bounded wait for what it should print; and
// the game every such test starts from (alice X, bob O, game 1, alice to
// move). TwoPlayers is the fixture with a server of its own; tests that
// start the programs elsewhere (in network namespaces) use the functions.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client_support/child_process.hpp"
#include "client_support/client_programs.hpp"

namespace ttt::testing {

// Writes line to `who`, then waits (up to timeout) for `expected` in what
// `reader` prints from then on.
inline ::testing::AssertionResult step(ChildProcess& who, const std::string& line,
                                       ChildProcess& reader, std::string_view expected,
                                       std::chrono::milliseconds timeout = 5s) {
  const std::size_t from = reader.output().size();
  who.write(line + "\n");
  if (reader.wait_for_text(expected, timeout, from)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "after '" << line << "', no '" << expected << "' in:\n"
                                       << reader.output().substr(from);
}

// alice creates game 1 and plays X; bob joins it as O; alice is to move.
inline ::testing::AssertionResult seat_two_players(ChildProcess& alice, ChildProcess& bob,
                                                   std::chrono::milliseconds timeout = 5s) {
  if (auto made = step(alice, "/create 3", alice, "You play X in game 1.", timeout); !made) {
    return made;
  }
  if (auto joined = step(bob, "/join 1", bob, "You play O in game 1.", timeout); !joined) {
    return joined;
  }
  if (alice.wait_for_text("Your turn (X)", timeout)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "alice is not told to move:\n" << alice.output();
}

// alice and bob at ttt-client on a server of their own (server_args: its
// flags), both started before each test.
class TwoPlayers : public ::testing::Test {
 protected:
  explicit TwoPlayers(std::vector<std::string> server_args = {})
      : server_(std::move(server_args)) {}

  void SetUp() override {
    alice_ = start_client(server_.port(), config_, {"--name", "alice"});
    bob_ = start_client(server_.port(), config_, {"--name", "bob"});
  }

  // alice X, bob O in game 1, alice to move.
  void start_game() { ASSERT_TRUE(seat_two_players(*alice_, *bob_)); }

  // Both end their input and exit 0.
  void finish() {
    alice_->close_stdin();
    bob_->close_stdin();
    EXPECT_EQ(alice_->wait_exit(5s), 0) << alice_->output();
    EXPECT_EQ(bob_->wait_exit(5s), 0) << bob_->output();
  }

  ServerProcess server_;
  TempDir config_;
  std::unique_ptr<ChildProcess> alice_;
  std::unique_ptr<ChildProcess> bob_;
};

}  // namespace ttt::testing
