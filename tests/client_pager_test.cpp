// Long output a page at a time: a list longer than the screen waits for
// Enter, q stops it, any other line stops it and is left to the client; a
// script gets the first 200 lines and a line saying how many were left out.
#include <gtest/gtest.h>

#include "client_support/child_process.hpp"
#include "console/pager.hpp"

namespace ttt::client {
namespace {

// "line 1\n" ... "line N\n".
std::string numbered_lines(int n) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

class PagerTest : public ::testing::Test {
 protected:
  Terminal& screen(bool interactive, ScreenSize size = {10, 80}) {
    terminal_.emplace(
        interactive, false, [this](std::string_view text) { out_ += text; }, size);
    return *terminal_;
  }
  std::string take_output() { return std::exchange(out_, {}); }

  std::optional<Terminal> terminal_;
  std::string out_;
};

TEST_F(PagerTest, TextThatFitsIsShownAtOnce) {
  Pager pager(screen(true));
  pager.show(numbered_lines(9));
  EXPECT_FALSE(pager.waiting());
  const std::string out = take_output();
  EXPECT_TRUE(has(out, "line 1\n") && has(out, "line 9\n")) << out;
}

TEST_F(PagerTest, ALongListIsShownAScreenfulAtATime) {
  Pager pager(screen(true));
  pager.show(numbered_lines(30));
  ASSERT_TRUE(pager.waiting());
  std::string out = take_output();
  EXPECT_TRUE(has(out, "line 9\n")) << out;
  EXPECT_FALSE(has(out, "line 10\n")) << "a screen of 10 rows keeps one for the prompt:\n" << out;
  EXPECT_EQ(pager.prompt(), "more: Enter for line 10 of 30, q to stop> ");

  EXPECT_TRUE(pager.take(""));  // Enter: eight more (the typed line took a row)
  out = take_output();
  EXPECT_TRUE(has(out, "line 10\n") && has(out, "line 17\n")) << out;
  EXPECT_FALSE(has(out, "line 18\n")) << out;
  EXPECT_EQ(pager.prompt(), "more: Enter for line 18 of 30, q to stop> ");

  EXPECT_TRUE(pager.take("  q "));
  EXPECT_FALSE(pager.waiting());
  EXPECT_FALSE(has(take_output(), "line 18")) << "q stops without showing more";
}

TEST_F(PagerTest, EnterToTheEndFinishesThePager) {
  Pager pager(screen(true));
  pager.show(numbered_lines(20));
  for (int i = 0; i < 10 && pager.waiting(); ++i) EXPECT_TRUE(pager.take(""));
  EXPECT_FALSE(pager.waiting());
  EXPECT_TRUE(has(take_output(), "line 20\n"));
}

TEST_F(PagerTest, AnyOtherLineStopsThePagerAndIsTheClients) {
  Pager pager(screen(true));
  pager.show(numbered_lines(30));
  EXPECT_FALSE(pager.take("/top"));
  EXPECT_FALSE(pager.waiting());
}

TEST_F(PagerTest, WrappedLinesCountAsTheRowsTheyTake) {
  Pager pager(screen(true, {10, 10}));
  std::string text;
  for (int i = 0; i < 6; ++i) text += std::string(25, static_cast<char>('a' + i)) + "\n";
  pager.show(text);  // 6 lines of 3 rows each
  ASSERT_TRUE(pager.waiting());
  const std::string out = take_output();
  // The terminal's lines are broken to its width where the screen would
  // have wrapped them.
  EXPECT_TRUE(has(
      out, std::string(10, 'c') + "\n" + std::string(10, 'c') + "\n" + std::string(5, 'c') + "\n"))
      << out;
  EXPECT_FALSE(has(out, std::string(5, 'd'))) << "three lines fill nine rows:\n" << out;
}

TEST_F(PagerTest, AScriptGetsTheFirst200LinesAndHowManyWereLeftOut) {
  Pager pager(screen(false));
  pager.show(numbered_lines(3002));
  EXPECT_FALSE(pager.waiting());
  EXPECT_EQ(take_output(),
            numbered_lines(200) +
                "(2802 more lines not shown: a script gets the first 200 lines of a list)\n");
  pager.show(numbered_lines(200));
  EXPECT_EQ(take_output(), numbered_lines(200));
}

TEST_F(PagerTest, ANewTextReplacesTheOneWaiting) {
  Pager pager(screen(true));
  pager.show(numbered_lines(30));
  pager.show(numbered_lines(12));
  EXPECT_EQ(pager.prompt(), "more: Enter for line 10 of 12, q to stop> ");
  pager.clear();
  EXPECT_FALSE(pager.waiting());
}

}  // namespace
}  // namespace ttt::client
