// RecordQueries: each answer is shown for the query it answers; a refusal
// names the query; a fatal error is the caller's.
#include <gtest/gtest.h>

#include "client_support/command_parse.hpp"
#include "client_support/console_parts.hpp"
#include "console/record_queries.hpp"

namespace ttt::client {
namespace {

using ttt::testing::has;
using ttt::testing::parsed;
using ttt::testing::Screen;

class RecordQueriesTest : public ::testing::Test {
 protected:
  Screen screen_;
  Pager pager_{screen_.terminal()};
  RecordQueries records_{screen_.terminal(), pager_};
};

TEST_F(RecordQueriesTest, AnAnswerIsTakenForItsQueryOnce) {
  records_.asked(3, parsed("/replay 12"));
  EXPECT_FALSE(records_.take(4).has_value());
  const auto query = records_.take(3);
  ASSERT_TRUE(query.has_value());
  EXPECT_EQ(query->record_id, 12u);
  EXPECT_FALSE(records_.take(3).has_value());
}

TEST_F(RecordQueriesTest, ARefusalNamesTheQuery) {
  const Command replay = parsed("/replay 12");
  wire::ServerMessage reply;
  reply.mutable_error()->set_code(wire::ERROR_CODE_NO_RECORD);
  EXPECT_TRUE(records_.show(reply, replay));
  EXPECT_TRUE(
      has(screen_.take(), "No finished game has record 12 (/history shows the record ids)"));
}

TEST_F(RecordQueriesTest, AFatalErrorIsLeftToTheCaller) {
  wire::ServerMessage reply;
  reply.mutable_error()->set_code(wire::ERROR_CODE_SHUTTING_DOWN);
  reply.mutable_error()->set_fatal(true);
  EXPECT_FALSE(records_.show(reply, parsed("/top")));
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(RecordQueriesTest, TheProfileAndTheLeaderboardAreShown) {
  wire::ServerMessage profile;
  profile.mutable_profile()->set_name("alice");
  EXPECT_TRUE(records_.show(profile, parsed("/me")));
  EXPECT_TRUE(has(screen_.take(), "alice")) << "the profile's line";
  wire::ServerMessage top;
  top.mutable_leaderboard();
  EXPECT_TRUE(records_.show(top, parsed("/top")));
  EXPECT_FALSE(screen_.take().empty());
}

TEST_F(RecordQueriesTest, ALostLinkDropsTheQueries) {
  records_.asked(3, parsed("/top"));
  records_.clear();
  EXPECT_FALSE(records_.take(3).has_value());
}

}  // namespace
}  // namespace ttt::client
