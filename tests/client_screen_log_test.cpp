// ScreenLog: the full screen's log shows the newest rows, wrapped between
// words, and scrolls back a page at a time as far as the oldest.
#include <gtest/gtest.h>

#include "console/screen_log.hpp"

namespace ttt::client {
namespace {

ScreenLog numbered(int n) {
  ScreenLog log;
  for (int i = 1; i <= n; ++i) log.add("line " + std::to_string(i));
  return log;
}

TEST(ScreenLog, TheNewestRowsShowAtTheBottom) {
  ScreenLog log = numbered(10);
  const ScreenLog::View view = log.view(40, 3);
  EXPECT_EQ(view.rows, (std::vector<std::string>{"line 8", "line 9", "line 10"}));
  EXPECT_FALSE(view.scrolled);
  EXPECT_EQ(numbered(2).view(40, 5).rows.size(), 2u) << "fewer rows than room";
}

TEST(ScreenLog, LongLinesWrapBetweenWords) {
  ScreenLog log;
  log.add("alpha beta gamma");
  EXPECT_EQ(log.view(11, 5).rows, (std::vector<std::string>{"alpha beta", "gamma"}));
}

TEST(ScreenLog, ScrollingBackStopsAtTheOldestAndComesBack) {
  ScreenLog log = numbered(10);
  log.page_back(4);
  ScreenLog::View view = log.view(40, 3);
  EXPECT_EQ(view.rows.front(), "line 4");
  EXPECT_TRUE(view.scrolled);
  log.page_back(100);
  EXPECT_EQ(log.view(40, 3).rows.front(), "line 1") << "no further than the oldest";
  log.page_forward(2);
  EXPECT_EQ(log.view(40, 3).rows.front(), "line 3");
  log.page_forward(100);
  EXPECT_FALSE(log.view(40, 3).scrolled);
  log.page_back(3);
  log.to_newest();
  EXPECT_EQ(log.view(40, 3).rows.back(), "line 10");
}

TEST(ScreenLog, ItKeepsTheNewestLinesAndGivesTheLast) {
  ScreenLog log = numbered(static_cast<int>(ScreenLog::kLines) + 5);
  log.page_back(1'000'000);
  EXPECT_EQ(log.view(40, 1).rows.front(), "line 6") << "the oldest 5 are gone";
  EXPECT_EQ(log.last(2), (std::vector<std::string>{"line 2004", "line 2005"}));
  EXPECT_EQ(numbered(1).last(8).size(), 1u);
}

}  // namespace
}  // namespace ttt::client
