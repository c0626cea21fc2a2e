// The programs' hints name a command the user has: the one in
// TTT_INVOKED_AS (what ./ttt sets), else the program's own name.
#include <gtest/gtest.h>

#include "client_support/client_programs.hpp"
#include "client_support/loopback_trust.hpp"

namespace ttt::testing {
namespace {

CommandResult run_with(std::vector<std::string> argv, std::vector<std::string> env) {
  ChildProcess process(std::move(argv), std::move(env));
  process.close_stdin();
  CommandResult result;
  result.exit_code = process.wait_exit(10s).value_or(-1);
  result.output = process.output();
  return result;
}

TEST(Hints, ABadFlagPointsToTheHelpOfTheCommandTheUserRan) {
  for (const std::string program : {"client", "bot", "server", "engine"}) {
    const std::string binary = bin_dir() + "/ttt-" + program;
    const auto direct = run_with({binary, "--frobnicate"}, {"TTT_INVOKED_AS="});
    EXPECT_EQ(direct.exit_code, 2);
    EXPECT_NE(direct.output.find("(see ttt-" + program + " --help)"), std::string::npos)
        << direct.output;
    const auto scripted = run_with({binary, "--frobnicate"}, {"TTT_INVOKED_AS=./ttt " + program});
    EXPECT_EQ(scripted.exit_code, 2);
    EXPECT_NE(scripted.output.find("(see ./ttt " + program + " --help)"), std::string::npos)
        << scripted.output;
    const auto help = run_with({binary, "--help"}, {"TTT_INVOKED_AS=./ttt " + program});
    EXPECT_EQ(help.output.rfind("usage: ./ttt " + program + " [flags]", 0), 0u) << help.output;
  }
}

TEST(Hints, TheArenasHintsNameTheCommandTheUserRan) {
  const std::string binary = bin_dir() + "/ttt-arena";
  const auto bad_flag =
      run_with({binary, "easy", "hard", "--frobnicate"}, {"TTT_INVOKED_AS=./ttt arena"});
  EXPECT_EQ(bad_flag.exit_code, 2);
  EXPECT_NE(bad_flag.output.find("(see ./ttt arena --help)"), std::string::npos) << bad_flag.output;
  const auto bad_player = run_with({binary, "easy", "grandmaster"}, {"TTT_INVOKED_AS=./ttt arena"});
  EXPECT_EQ(bad_player.exit_code, 2);
  EXPECT_NE(bad_player.output.find("(see ./ttt arena --help)"), std::string::npos)
      << bad_player.output;
  const auto help = run_with({binary, "--help"}, {"TTT_INVOKED_AS=./ttt arena"});
  EXPECT_EQ(help.output.rfind("usage: ./ttt arena A B", 0), 0u) << help.output;
  const auto direct = run_with({binary, "easy", "hard", "--frobnicate"}, {"TTT_INVOKED_AS="});
  EXPECT_NE(direct.output.find("(see ttt-arena --help)"), std::string::npos) << direct.output;
}

TEST(Hints, QuittingMidGameSaysHowToComeBackWithTheCommandTheUserRan) {
  ServerProcess server;
  TempDir config;
  std::vector<std::string> argv{bin_dir() + "/ttt-client",     "--host", "127.0.0.1", "--port",
                                std::to_string(server.port()), "--name", "quitter"};
  for (auto& arg : trust_args(server.port())) argv.push_back(std::move(arg));
  ChildProcess client(std::move(argv), {"XDG_CONFIG_HOME=" + config.path(), "NO_COLOR=1",
                                        "TTT_INVOKED_AS=./ttt client"});
  client.write("/create 3 bot random\n");
  ASSERT_TRUE(client.wait_for_text("Your turn (X)", 10s)) << client.output();
  client.write("/quit\n");
  ASSERT_EQ(client.wait_exit(10s), 0) << client.output();
  EXPECT_NE(client.output().find(
                "Your seat is held for a while: run ./ttt client again to take it back."),
            std::string::npos)
      << client.output();
}

}  // namespace
}  // namespace ttt::testing
