// The first lines of every main(): a bad command line is said with the
// command that shows the help and ends with 2; --help and --print-config
// are answered; anything else lets the program go on.
#include <gtest/gtest.h>

#include <cstdlib>

#include "ttt/cli/program.hpp"

namespace ttt::cli {
namespace {

TEST(ParsedArgs, ARefusalMakesItBad) {
  ParsedArgs args;
  args.refuse("--win goes with --create");
  EXPECT_FALSE(args.result.ok);
  EXPECT_EQ(args.result.error, "--win goes with --create");
}

TEST(AnswerCommandLine, ABadCommandLineIsSaidWithTheHelpCommand) {
  ParsedArgs args;
  args.refuse("unknown flag --bogus");
  ::unsetenv("TTT_INVOKED_AS");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(answer_command_line("ttt-bot", args), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "ttt-bot: unknown flag --bogus\n(see ttt-bot --help)\n");
  ::setenv("TTT_INVOKED_AS", "./ttt bot", 1);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(answer_command_line("ttt-bot", args), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "ttt-bot: unknown flag --bogus\n(see ./ttt bot --help)\n");
  ::unsetenv("TTT_INVOKED_AS");
}

TEST(AnswerCommandLine, HelpPrintConfigAndVersionAreAnsweredOnStdout) {
  ParsedArgs help{{true, true, false, false, ""}, "usage: ttt-bot [flags]\n", "port = 7777\n"};
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(answer_command_line("ttt-bot", help), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "usage: ttt-bot [flags]\n");
  ParsedArgs print{{true, false, true, false, ""}, "usage: ttt-bot [flags]\n", "port = 7777\n"};
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(answer_command_line("ttt-bot", print), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "port = 7777\n");
  ParsedArgs version{{true, false, false, true, ""}, "usage: ttt-bot [flags]\n", ""};
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(answer_command_line("ttt-bot", version), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), std::string("ttt-bot ") + kVersion + "\n");
  EXPECT_STREQ(kVersion, "0.1.0") << "the project's version (CMakeLists.txt)";
}

TEST(AnswerCommandLine, AGoodCommandLineLetsTheProgramGoOn) {
  const ParsedArgs args{{}, "usage\n", "port = 7777\n"};
  ::testing::internal::CaptureStdout();
  EXPECT_FALSE(answer_command_line("ttt-bot", args).has_value());
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
}

TEST(NoColorRequested, OnlyANonEmptyNoColorCounts) {
  ::unsetenv("NO_COLOR");
  EXPECT_FALSE(no_color_requested());
  ::setenv("NO_COLOR", "", 1);
  EXPECT_FALSE(no_color_requested());
  ::setenv("NO_COLOR", "1", 1);
  EXPECT_TRUE(no_color_requested());
  ::unsetenv("NO_COLOR");
}

}  // namespace
}  // namespace ttt::cli
