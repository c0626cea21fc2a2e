// What a player sees during and after a game, end to end: the real
// ttt-server, ttt-client (in tmux at 80x24, full screen and --plain) and
// ttt-bot over loopback. The move limit counts down next to the names and
// warns at 10 s with a line and a bell; what the client says last stays on
// the terminal after the full screen closes; the lobby, /help and /history
// fit 80x24; someone joining, our own moves and a draw offer are said the
// right way to the right people; /who says `playing` only while a game is
// on; mutes, /unblock, the --no-tls refusal; bots that take challenges until
// stopped and that take turns in quick match. Every wait is bounded.
#include <gtest/gtest.h>

#include <csignal>
#include <regex>

#include "client_support/client_programs.hpp"
#include "client_support/tmux.hpp"
#include "identity/name_claim.hpp"

namespace ttt::testing {
namespace {

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

::testing::AssertionResult step(ChildProcess& who, const std::string& line, ChildProcess& reader,
                                std::string_view expected) {
  const std::size_t from = reader.output().size();
  who.write(line + "\n");
  if (reader.wait_for_text(expected, 10s, from)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "after '" << line << "', no '" << expected << "' in:\n"
                                       << reader.output().substr(from);
}

// The first number the pattern's group matches on the screen now.
std::optional<int> number_on(const std::string& screen, const std::regex& pattern) {
  std::smatch match;
  if (!std::regex_search(screen, match, pattern)) return std::nullopt;
  return std::stoi(match[1].str());
}

// The countdown the pattern finds goes down while nobody types.
void expect_counting_down(Tmux& tmux, const std::regex& pattern) {
  std::optional<int> first;
  ASSERT_TRUE(tmux.wait_screen(
      [&](const std::string&) { return (first = number_on(tmux.visible(), pattern)).has_value(); },
      10s))
      << tmux.visible();
  std::optional<int> later;
  EXPECT_TRUE(tmux.wait_screen(
      [&](const std::string&) {
        later = number_on(tmux.visible(), pattern);
        return later && *later < *first;
      },
      5s))
      << "it stood at " << *first << ":\n"
      << tmux.visible();
}

constexpr const char* kWarning = " s left to move: the game is lost when it runs out.";

TEST(LiveGame, TheMoveLimitCountsDownInTheLineModeAndWarnsAtTenSeconds) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "14"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name alice --play-bot random", 80, 24));
  ASSERT_TRUE(tmux.record());
  // The prompt carries the mover's time left, and it runs.
  expect_counting_down(tmux, std::regex(R"(X (\d+) s \| your move \(X\)>)"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, kWarning); }, 10s))
      << tmux.visible();
  EXPECT_TRUE(std::regex_search(tmux.screen(), std::regex(R"((10|9) s left to move)")))
      << tmux.screen();
  EXPECT_TRUE(has(tmux.recorded(), "\a")) << "the bell rang";
  tmux.type("b2");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "(O) played"); }, 10s))
      << tmux.visible();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(LiveGame, TheMoveLimitCountsDownNextToTheNamesInFullScreen) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "14"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(
      tmux.start_full_screen(server.port(), config, "--name alice --play-bot random", 80, 24));
  ASSERT_TRUE(tmux.record());
  // In a column two spaces after the longer name ("  O  bot (random) (1200)",
  // 24 wide), not at the panel's far edge.
  expect_counting_down(tmux, std::regex(R"(> X  alice \(1200\) you {5}(\d+) s)"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, kWarning); }, 10s))
      << tmux.visible();
  EXPECT_TRUE(has(tmux.recorded(), "\a")) << "the bell rang";
  tmux.press({"Enter"});  // b2, where the cursor starts
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "(O) played"); }, 10s))
      << tmux.visible();
  // Our own move, placed with the cursor, is in the log too.
  EXPECT_TRUE(has(tmux.visible(), "You (X) played b2.")) << tmux.visible();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

// bob, seated against alice (who runs in tmux, full screen or not), drops
// without a word: alice's screen counts his seat down.
void expect_the_away_seat_counting_down(bool full_screen) {
  ServerProcess server({"--move-timeout", "0", "--reconnect-grace", "20"});
  TempDir config;
  Tmux tmux;
  const std::string flags = "--name alice";
  ASSERT_TRUE(full_screen ? tmux.start_full_screen(server.port(), config, flags, 80, 24)
                          : tmux.start_client(server.port(), config, flags, 80, 24));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.visible();
  tmux.type("/create 3");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "Waiting for an opponent"); }, 10s))
      << tmux.visible();
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  ASSERT_TRUE(step(*bob, "/join 1", *bob, "You play O in game 1."));
  bob->kill(SIGKILL);
  // The panel's line for bob, or the prompt.
  expect_counting_down(tmux, full_screen ? std::regex(R"(bob \(1200\) \[away, (\d+) s left\])")
                                         : std::regex(R"(O away (\d+) s \| your move)"));
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(LiveGame, TheAwayOpponentsSeatCountsDownInFullScreen) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  expect_the_away_seat_counting_down(true);
}

TEST(LiveGame, TheAwayOpponentsSeatCountsDownInTheLineMode) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  expect_the_away_seat_counting_down(false);
}

TEST(LiveGame, WhatTheClientSaysLastStaysAfterTheFullScreenCloses) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  const std::string notice = "ttt: another ./ttt play is running: this game is not kept";
  ASSERT_TRUE(tmux.start_full_screen(
      server.port(), config, "--name alice --play-bot random --notice '" + notice + "'", 80, 24));
  // Said when the game starts, on the full screen.
  ASSERT_TRUE(tmux.wait_screen(
      [&](const std::string&) {
        const std::string now = tmux.visible();
        return has(now, "Your turn (X)") && has(now, notice);
      },
      10s))
      << tmux.visible();
  tmux.type("/quit");
  ASSERT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
  const std::string after = tmux.visible();
  EXPECT_TRUE(has(after, "Your seat is held for a while")) << after;
  EXPECT_TRUE(has(after, notice)) << after;
  EXPECT_FALSE(has(after, "Your turn (X): move the cursor")) << "the full screen is gone:\n"
                                                             << after;
}

TEST(LiveGame, WhyTheClientStoppedStaysAfterTheFullScreenCloses) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  auto server = std::make_unique<ServerProcess>(std::vector<std::string>{"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server->port(), config, "--name alice --retry 1", 80, 24));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.visible();
  server.reset();  // gone for good
  ASSERT_TRUE(tmux.wait_exit(15s)) << tmux.visible();
  const std::string after = tmux.screen();  // (the error on stderr wraps as the terminal does)
  EXPECT_TRUE(has(after, "Connection lost (")) << "the last lines said:\n" << after;
  EXPECT_TRUE(has(after, "could not reconnect within 1 s")) << "and why it stopped:\n" << after;
}

TEST(LiveGame, TheLobbyAndTheKeysFitEightyByTwentyFour) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name alice", 80, 24));
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "/quick 3 finds a player."); }, 10s))
      << tmux.visible();
  auto bob = start_client(server.port(), config, {"--name", "bartholomew"});
  ASSERT_TRUE(step(*bob, "/create 3", *bob, "You play X in game 1."));
  // bob's game with both player columns; what he does, id included.
  ASSERT_TRUE(tmux.wait_screen(
      [&](const std::string&) {
        const std::string now = tmux.visible();
        return has(now, "bartholomew") && has(now, "opponent in game 1") &&
               std::regex_search(now, std::regex(R"(id +board +status +X +O)"));
      },
      10s))
      << tmux.visible();
  tmux.press({"?"});
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) {
        return has(s, "type a cell and Enter (from column h on: ROW COL)") &&
               has(s, "this help (? or Esc closes it)");
      },
      10s))
      << tmux.visible();
  tmux.press({"Escape"});
  bob->write("/quit\n");
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
  EXPECT_EQ(bob->wait_exit(10s), 0);
}

TEST(LiveGame, HelpAndHistoryFitEightyColumnsInTheLineMode) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  TempDir data;
  ServerProcess server({"--db", data.path() + "/ttt.db", "--move-timeout", "0"});
  TempDir config;
  auto player = start_client(server.port(), config, {"--name", "alice", "--play-bot", "random"});
  player->write("a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n");
  player->close_stdin();
  ASSERT_EQ(player->wait_exit(20s), 0) << player->output();
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name alice", 80, 24));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Connected to"); }, 10s))
      << tmux.screen();
  tmux.type("/history");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "/replay RECORD"); }, 10s))
      << tmux.screen();
  tmux.type("/help");
  // Longer than the screen: a page at a time.
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "more: Enter for line"); }, 10s))
      << tmux.screen();
  for (int page = 0; page < 5 && !has(tmux.screen(), "  /quit"); ++page) {
    const std::size_t before = tmux.screen().size();
    tmux.type("");  // Enter: the next screenful
    tmux.wait_screen([&](const std::string& s) { return s.size() > before; }, 5s);
  }
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "  /quit"); }, 10s))
      << tmux.screen();
  const auto wrapped = tmux.wrapped_lines();
  EXPECT_TRUE(wrapped.empty()) << "wider than 80 columns: " << wrapped.front() << "\n"
                               << tmux.screen();
  tmux.type("q");
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.screen();
}

TEST(LiveGame, SpectatorsAreToldOfADrawOfferButNotOfferedIt) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  ASSERT_TRUE(step(*alice, "/create 3", *alice, "You play X in game 1."));
  // The one who waits hears who came.
  ASSERT_TRUE(
      step(*bob, "/join 1", *alice, "bob (O, 1200) joined game 1: the game begins, your move."));
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name carol", 80, 24));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Players online"); }, 10s))
      << tmux.visible();
  tmux.type("/watch 1");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "alice (X) to move."); }, 10s))
      << tmux.visible();
  bob->write("/draw\n");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "bob (O) offers a draw."); }, 10s))
      << tmux.visible();
  EXPECT_FALSE(has(tmux.visible(), "/draw or /decline")) << tmux.visible();
  for (auto* who : {alice.get(), bob.get()}) who->write("/quit\n");
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(LiveGameE2E, WhoSaysPlayingOnlyWhileTheGameIsOn) {
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  ASSERT_TRUE(step(*alice, "/create 3", *alice, "You play X in game 1."));
  ASSERT_TRUE(step(*bob, "/join 1", *bob, "You play O in game 1."));
  ASSERT_TRUE(step(*bob, "/who", *bob, "playing game 1 against alice (3x3)"));
  ASSERT_TRUE(step(*bob, "/resign", *bob, "Game over: X wins (O resigned)"));
  ASSERT_TRUE(step(*alice, "/leave", *alice, "You are in the lobby"));
  const std::size_t from = bob->output().size();
  ASSERT_TRUE(step(*bob, "/who", *bob, "just finished game 1 (3x3)"));
  EXPECT_FALSE(has(bob->output().substr(from), "playing game 1")) << bob->output().substr(from);
  for (auto* who : {alice.get(), bob.get()}) {
    who->write("/quit\n");
    EXPECT_EQ(who->wait_exit(10s), 0) << who->output();
  }
}

TEST(LiveGameE2E, AMutedPlayersChallengesAreDeclinedUnseen) {
  // No cool-down: bob challenges again at once once alice hears him.
  ServerProcess server({"--challenge-cooldown", "0"});
  TempDir config;
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  ASSERT_TRUE(bob->wait_for_text("Connected to", 10s)) << bob->output();
  ASSERT_TRUE(step(*alice, "/mute bob", *alice, "Muted bob"));
  // alice's client declines it (bob hears so) and says nothing.
  ASSERT_TRUE(step(*bob, "/challenge alice", *bob, "alice declined your challenge."));
  EXPECT_FALSE(has(alice->output(), "challenges you")) << alice->output();
  EXPECT_FALSE(has(alice->output(), "challenge 1")) << alice->output();
  EXPECT_FALSE(has(alice->output(), "bob's challenge")) << alice->output();
  ASSERT_TRUE(step(*alice, "/unmute bob", *alice, "You hear bob again."));
  ASSERT_TRUE(step(*bob, "/challenge alice", *alice, "bob (1200) challenges you"));
  for (auto* who : {alice.get(), bob.get()}) {
    who->write("/quit\n");
    EXPECT_EQ(who->wait_exit(10s), 0) << who->output();
  }
}

TEST(LiveGameE2E, TheNoTlsRefusalIsSaidOnce) {
  ServerProcess server;  // TLS
  TempDir config;
  ChildProcess client({bin_dir() + "/ttt-client", "--host", "127.0.0.1", "--port",
                       std::to_string(server.port()), "--name", "plain", "--no-tls"},
                      {"XDG_CONFIG_HOME=" + config.path(), "NO_COLOR=1"});
  EXPECT_EQ(client.wait_exit(10s), 1) << client.output();
  EXPECT_EQ(count_of(client.output(), "only speaks TLS"), 1u) << client.output();
}

TEST(LiveGameE2E, ABotThatTakesChallengesStaysUntilStopped) {
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  auto taker =
      start_bot(server.port(), config, {"--name", "taker", "--accept-challenges", "--budget", "5"});
  ASSERT_TRUE(taker->wait_for_text("taker: waiting for challenges", 10s)) << taker->output();
  auto alice = start_client(server.port(), config, {"--name", "alice"});
  for (const char* game : {"1", "2"}) {
    ASSERT_TRUE(
        step(*alice, "/challenge taker", *alice, std::string("You play X in game ") + game + "."));
    alice->write("a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n");
    ASSERT_TRUE(alice->wait_for_text("Game over:", 20s, alice->output().rfind("You play X")))
        << alice->output();
    ASSERT_TRUE(step(*alice, "/leave", *alice, "You are in the lobby"));
    // Out of the game over, it waits for the next challenge.
    ASSERT_TRUE(taker->wait_for(
        [&](const std::string& out) {
          return count_of(out, "taker: waiting for challenges") >=
                 static_cast<std::size_t>(game[0] - '0') + 1;
        },
        10s))
        << taker->output();
  }
  EXPECT_FALSE(taker->wait_exit(1s)) << "it stays until stopped:\n" << taker->output();
  taker->kill(SIGTERM);
  ASSERT_EQ(taker->wait_exit(10s), 0) << taker->output();
  const auto summary = last_line_summary(taker->output());
  ASSERT_TRUE(summary) << taker->output();
  EXPECT_EQ(summary->games, 2) << taker->output();
  alice->write("/quit\n");
  EXPECT_EQ(alice->wait_exit(10s), 0);
}

TEST(LiveGameE2E, ThreeBotsInQuickMatchTakeTurnsAndTheOneWhoWaitsSaysSo) {
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  std::vector<std::unique_ptr<ChildProcess>> bots;
  // Five in a row on 15x15, 50 ms a move: a game takes a second or more, so
  // the third is in the queue before the first game ends.
  auto bot = [&](const char* name) {
    bots.push_back(
        start_bot(server.port(), config,
                  {"--name", name, "--quick-match", "15", "--win", "5", "--level", "hard",
                   "--games", "2", "--budget", "50", "--waiting-notice", "0.2"}));
  };
  // The first waits alone, and says so while it does.
  bot("cat");
  ASSERT_TRUE(
      bots[0]->wait_for_text("cat: still waiting for an opponent in quick match (15x15)", 5s))
      << bots[0]->output();
  bot("ann");  // plays cat
  bot("ben");  // waits for whichever of them comes back to the queue first
  // Each plays its two games: after each game a bot goes back to the queue,
  // where the one left waiting is paired next.
  for (auto& one : bots) {
    ASSERT_EQ(one->wait_exit(45s), 0) << one->output();
    const auto summary = last_line_summary(one->output());
    ASSERT_TRUE(summary) << one->output();
    EXPECT_EQ(summary->games, 2) << one->output();
    EXPECT_EQ(summary->errors, 0) << one->output();
  }
}

TEST(LiveGameE2E, TheServerCountsOneGameAndOneMoveInTheSingular) {
  TempDir data;
  const std::string db = data.path() + "/ttt.db";
  auto server = std::make_unique<ServerProcess>(std::vector<std::string>{"--db", db});
  const std::uint16_t port = server->port();
  TempDir config;
  auto alice = start_client(port, config, {"--name", "alice"});
  auto bob = start_client(port, config, {"--name", "bob"});
  ASSERT_TRUE(step(*alice, "/create 3", *alice, "You play X in game 1."));
  ASSERT_TRUE(step(*bob, "/join 1", *bob, "You play O in game 1."));
  ASSERT_TRUE(step(*alice, "a1", *bob, "alice (X) played a1."));
  alice->kill(SIGKILL);
  bob->kill(SIGKILL);
  server->process().kill(SIGKILL);
  server = std::make_unique<ServerProcess>(
      std::vector<std::string>{"--db", db, "--log-level", "info"}, port);
  ASSERT_TRUE(server->process().wait_for_text("restored 1 game in progress", 10s))
      << server->process().output();
  const std::string& log = server->process().output();
  EXPECT_TRUE(has(log, "restored after 1 move:")) << log;
  EXPECT_TRUE(has(log, ", 1 game in progress")) << log;
  EXPECT_FALSE(has(log, "1 games") || has(log, "1 moves")) << log;
}

TEST(LiveGameE2E, DefaultBotNamesSayWhoseTheyAre) {
  ServerProcess server;
  TempDir config;
  auto bot = start_bot(server.port(), config, {"--games", "1", "--log-level", "info"});
  const std::string base = client::bot_name_base(client::login_name());
  EXPECT_TRUE(bot->wait_for_text("playing as " + base + "\n", 10s)) << bot->output();
  bot->kill(SIGTERM);
  bot->wait_exit(10s);
}

}  // namespace
}  // namespace ttt::testing
