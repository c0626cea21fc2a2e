// The full-screen client on a real terminal, driven through tmux:
// the board stays in place while the log below it grows, the cursor moves
// with the arrow keys and hjkl and places with Enter and space, a mouse
// click places on its cell, keys pressed out of turn send nothing, the
// screen is drawn again after a resize, NO_COLOR leaves it without colour,
// and a finished game shows its result with the winning line marked and
// still prints its `Game over:` line.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"
#include "client_support/tmux.hpp"

namespace ttt::testing {
namespace {

bool has(const std::string& text, std::string_view what) {
  return text.find(what) != std::string::npos;
}

// The screen's first `lines` lines (where the board is drawn).
std::string top_of(const std::string& screen, int lines) {
  std::size_t end = 0;
  for (int i = 0; i < lines && end != std::string::npos; ++i) end = screen.find('\n', end + 1);
  return screen.substr(0, end);
}

// The mark in a 3x3 board's cell as drawn (row 1..3, column 'a'..'c'): ' ',
// 'X' or 'O'; '?' if the board is not on the screen. A row's line reads
// " 2 | O | X |   |": the cell of column c is at 5 + 4c.
char cell(const std::string& screen, int row, char column) {
  const std::size_t at = screen.find(" " + std::to_string(row) + " |");
  const std::size_t offset = at + 5 + 4 * static_cast<std::size_t>(column - 'a');
  if (at == std::string::npos || offset >= screen.size()) return '?';
  return screen[offset];
}

// tmux send-keys without Enter (key names: Up, Left, Space, ...).
void press(Tmux& tmux, const std::vector<std::string>& keys) {
  std::vector<std::string> args{"send-keys", "-t", "ttt"};
  args.insert(args.end(), keys.begin(), keys.end());
  tmux.run(args);
}

TEST(FullScreen, TheCursorPlacesAndTheBoardStaysWhileTheLogGrows) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name alice --play-bot random"));
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "Your turn (X): move the cursor"); }, 10s))
      << tmux.visible();
  const std::string start = tmux.visible();
  EXPECT_TRUE(has(start, "     a   b   c")) << start;
  EXPECT_TRUE(has(start, " 1 |   |   |   |")) << start;
  EXPECT_TRUE(has(start, "Game 1, 3x3, unrated")) << start;
  EXPECT_TRUE(has(start, "X  alice (1200) you")) << start;
  const std::string board_before = top_of(start, 8);

  press(tmux, {"Enter"});  // the cursor starts on the centre
  // (The random bot answers anywhere: only b2 is known.)
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return cell(s, 2, 'b') == 'X' && has(s, "(O) played"); }, 10s))
      << tmux.visible();
  // The log grows below; the board's lines stay where they were.
  tmux.type("/say hello there");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "[alice (X)] hello there"); }, 10s))
      << tmux.visible();
  const std::string after_chat = tmux.visible();
  EXPECT_EQ(top_of(after_chat, 1), top_of(board_before, 1)) << after_chat;
  EXPECT_EQ(cell(top_of(after_chat, 8), 2, 'b'), 'X') << after_chat;

  // hjkl and the arrows move the cursor; space places: a1 if free, else c1
  // (the bot's one move can't have taken both).
  const bool a1_free = cell(tmux.visible(), 1, 'a') == ' ';
  press(tmux, {"k"});
  press(tmux, a1_free ? std::vector<std::string>{"h"} : std::vector<std::string>{"Right"});
  press(tmux, {"Space"});
  ASSERT_TRUE(tmux.wait_screen(
      [a1_free](const std::string& s) { return cell(s, 1, a1_free ? 'a' : 'c') == 'X'; }, 10s))
      << tmux.visible();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(FullScreen, OutOfTurnKeysSendNothingAndAClickPlacesOnItsCell) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name alice"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Players online"); }, 10s))
      << tmux.visible();
  tmux.type("/create 3");
  ASSERT_TRUE(
      tmux.wait_screen([](const std::string& s) { return has(s, "Waiting for an opponent"); }, 10s))
      << tmux.visible();
  auto bob = start_client(server.port(), config, {"--name", "bob"});
  bob->write("/join 1\n");
  ASSERT_TRUE(bob->wait_for_text("You play O in game 1.", 10s)) << bob->output();
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Your turn (X)"); }, 10s))
      << tmux.visible();
  press(tmux, {"Enter"});
  ASSERT_TRUE(bob->wait_for_text("alice (X) played b2.", 10s)) << bob->output();
  // bob's turn: alice's keys say so and send nothing.
  press(tmux, {"Up", "Enter"});
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "Not your turn: bob (O) is to move."); }, 10s))
      << tmux.visible();
  bob->write("a1\n");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, " 1 | O |"); }, 10s))
      << tmux.visible();
  // A click on c3 (line 6, column 13; 1-based 7 and 14) as the terminal
  // reports it to a program that asked for the mouse (SGR: down, then up).
  tmux.run({"send-keys", "-t", "ttt", "-l", "\x1b[<0;14;7M\x1b[<0;14;7m"});
  EXPECT_TRUE(bob->wait_for_text("alice (X) played c3.", 10s)) << bob->output() << tmux.visible();
  EXPECT_EQ(count_of(bob->output(), "alice (X) played"), 2u) << "nothing else was sent";
  // An offer changes nothing on the board; the panel shows it all the same.
  bob->write("/draw\n");
  EXPECT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "A draw is offered: /draw or /decline."); }, 10s))
      << tmux.visible();
  bob->write("/quit\n");
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
  EXPECT_EQ(bob->wait_exit(10s), 0);
}

TEST(FullScreen, ResizeRedrawsAndAFinishedGameShowsItsResult) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name alice --play-bot random"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Your turn (X)"); }, 10s))
      << tmux.visible();
  tmux.run({"resize-window", "-t", "ttt", "-x", "60", "-y", "20"});
  ASSERT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "     a   b   c") && has(s, "Game 1, 3x3"); }, 10s))
      << tmux.visible();
  tmux.run({"resize-window", "-t", "ttt", "-x", "30", "-y", "8"});
  EXPECT_TRUE(tmux.wait_screen(
      [](const std::string& s) { return has(s, "The terminal is too small"); }, 10s))
      << tmux.visible();
  tmux.run({"resize-window", "-t", "ttt", "-x", "100", "-y", "30"});
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "     a   b   c"); }, 10s))
      << tmux.visible();
  // Every cell typed in turn: the game ends, whoever wins.
  for (const char* cell : {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}) tmux.type(cell);
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Game over:"); }, 15s))
      << tmux.visible();
  const std::string end = tmux.visible();
  EXPECT_TRUE(has(end, "/rematch to play again")) << end;
  EXPECT_TRUE(has(tmux.screen(), "\nGame over: ")) << "the line as in line mode";
  if (has(end, "wins (")) {
    // The winning line is marked (bold and underlined).
    EXPECT_TRUE(has(tmux.visible_with_attributes(), "4m")) << tmux.visible_with_attributes();
  }
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

TEST(FullScreen, NoColorMeansNoColour) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  ServerProcess server({"--move-timeout", "0"});
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_full_screen(server.port(), config, "--name alice --play-bot random", 100,
                                     30, "NO_COLOR=1"));
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "Your turn (X)"); }, 10s))
      << tmux.visible();
  press(tmux, {"Enter"});
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "(O) played"); }, 10s))
      << tmux.visible();
  const std::string painted = tmux.visible_with_attributes();
  for (const char* colour : {"[36m", "[35m", "[32m", ";36m", ";35m", "38;5"}) {
    EXPECT_FALSE(has(painted, colour)) << colour << " in:\n" << painted;
  }
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(5s)) << tmux.visible();
}

}  // namespace
}  // namespace ttt::testing
