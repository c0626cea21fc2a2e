// ExitStatus: the server's fatal errors as ttt-client says them, and the
// exit code and last line when the connection gives up.
#include <gtest/gtest.h>

#include "client_support/console_parts.hpp"
#include "console/exit_status.hpp"

namespace ttt::client {
namespace {

using ttt::testing::has;
using ttt::testing::Screen;

wire::Error fatal_error(wire::ErrorCode code, const std::string& text = "") {
  wire::Error error;
  error.set_code(code);
  error.set_text(text);
  error.set_fatal(true);
  return error;
}

class ExitStatusTest : public ::testing::Test {
 protected:
  Screen screen_;
  ExitStatus exit_{screen_.terminal()};
};

TEST_F(ExitStatusTest, ALostServerIsExitCodeOneWithItsReason) {
  exit_.failed("cannot connect to 127.0.0.1:7777: refused", "alice", "", "");
  EXPECT_EQ(exit_.code(), ExitStatus::kLost);
  EXPECT_EQ(screen_.take(), "ttt-client: cannot connect to 127.0.0.1:7777: refused\n");
}

TEST_F(ExitStatusTest, ARefusedNameIsSaidWhenTheConnectionEnds) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_NAME_TAKEN, "taken"), false, "alice");
  EXPECT_TRUE(exit_.name_refused());
  EXPECT_EQ(screen_.take(), "") << "said at the end, with what to do about it";
  exit_.failed("the server refused the name", "alice", "The name alice belongs to another.", "");
  EXPECT_EQ(exit_.code(), ExitStatus::kNameRefused);
  EXPECT_EQ(screen_.take(), "ttt-client: The name alice belongs to another.\n");
}

TEST_F(ExitStatusTest, ASessionActiveElsewhereSaysHowToTakeItOver) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_SESSION_ACTIVE), false, "alice");
  EXPECT_FALSE(exit_.name_refused());
  exit_.failed("session active", "alice", "", "");
  EXPECT_EQ(exit_.code(), ExitStatus::kNameRefused);
  EXPECT_TRUE(has(screen_.take(), "alice is connected from another terminal; `--take-over`"));
}

TEST_F(ExitStatusTest, AnUntrustedServerSaysTheTrustRefusal) {
  exit_.failed("handshake failed", "alice", "", "the server's certificate changed");
  EXPECT_EQ(exit_.code(), ExitStatus::kUntrusted);
  EXPECT_EQ(screen_.take(), "ttt-client: the server's certificate changed\n");
}

TEST_F(ExitStatusTest, AFatalErrorAfterAWelcomeIsSaidOnceNotAgainAtTheEnd) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_INTERNAL, "oops"), true, "alice");
  EXPECT_EQ(screen_.take(), "The server closed the connection: oops\n");
  exit_.failed("the server closed the connection: oops", "alice", "", "");
  EXPECT_EQ(exit_.code(), ExitStatus::kLost);
  EXPECT_EQ(screen_.take(), "") << "once is enough";
}

TEST_F(ExitStatusTest, BeforeAWelcomeTheConnectionsReasonSaysIt) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_INTERNAL, "oops"), false, "alice");
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(ExitStatusTest, ErrorsTheConnectionGetsOverAreSaidAtOnce) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_BAD_RESUME_TOKEN), true, "alice");
  EXPECT_EQ(screen_.take(),
            "The server no longer holds this session: signing in again as alice.\n");
  exit_.fatal(fatal_error(wire::ERROR_CODE_REPLACED), true, "alice");
  EXPECT_TRUE(has(screen_.take(), "This session was taken over by another terminal"));
  EXPECT_EQ(exit_.code(), 0) << "nothing has ended the run yet";
}

TEST_F(ExitStatusTest, AServersTextIsMadeSafe) {
  exit_.fatal(fatal_error(wire::ERROR_CODE_INTERNAL, "bad\x1b[2Jthing"), true, "alice");
  EXPECT_FALSE(has(screen_.take(), "\x1b")) << "no escape reaches the terminal";
}

}  // namespace
}  // namespace ttt::client
