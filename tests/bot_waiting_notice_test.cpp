// WaitingNotice: while a bot waits, a line now and then says what for and
// how long so far; none once the wait is over.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <sstream>

#include "bot/waiting_notice.hpp"

namespace ttt::client {
namespace {

// The lines of text after the first `skip`.
std::string lines_after(const std::string& text, std::size_t skip) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < skip && at != std::string::npos; ++i) at = text.find('\n', at) + 1;
  return text.substr(at);
}

// A "still waiting" line, whatever its count of seconds.
::testing::AssertionResult still_waiting_for(const std::string& line, const std::string& what) {
  const std::string head = "bot: still waiting for " + what + " (";
  const std::string tail = " s so far)\n";
  if (line.rfind(head, 0) == 0 && line.size() > head.size() + tail.size() &&
      line.compare(line.size() - tail.size(), tail.size(), tail) == 0) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "not a line of waiting for " << what << ": " << line;
}

TEST(WaitingNotice, TheWaitIsSaidAtOnceWhenAskedAndAgainLater) {
  boost::asio::io_context io;
  std::ostringstream out;
  WaitingNotice notice(io.get_executor(), "bot", std::chrono::milliseconds(1), out);
  notice.start("challenges (/challenge bot)", true);
  EXPECT_EQ(out.str(), "bot: waiting for challenges (/challenge bot)\n");
  io.run_one();
  EXPECT_TRUE(still_waiting_for(lines_after(out.str(), 1), "challenges (/challenge bot)"));
  notice.stop();
  io.run();
  const std::string said = out.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 2) << said;
}

TEST(WaitingNotice, ANewWhatKeepsTheCount) {
  boost::asio::io_context io;
  std::ostringstream out;
  WaitingNotice notice(io.get_executor(), "bot", std::chrono::milliseconds(1), out);
  notice.start("an opponent in game 4", false);
  EXPECT_EQ(out.str(), "") << "said later only";
  notice.start("an opponent in quick match (3x3)", false);
  io.run_one();
  EXPECT_TRUE(still_waiting_for(out.str(), "an opponent in quick match (3x3)"));
  notice.stop();
  io.run();
}

TEST(WaitingNotice, EveryZeroSaysNothingLater) {
  boost::asio::io_context io;
  std::ostringstream out;
  WaitingNotice notice(io.get_executor(), "bot", std::chrono::milliseconds(0), out);
  notice.start("an opponent in game 4", false);
  io.run();
  EXPECT_EQ(out.str(), "");
}

TEST(WaitingNotice, ALineDueAfterItIsGoneIsNotSaid) {
  boost::asio::io_context io;
  std::ostringstream out;
  {
    WaitingNotice notice(io.get_executor(), "bot", std::chrono::milliseconds(1), out);
    notice.start("an opponent in game 4", false);
  }
  io.run();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace ttt::client
