// ttt-server's command line as a user meets it: --help, bad flags, a port in
// use, and a clean exit on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>

#include "client_support/child_process.hpp"

namespace ttt::testing {
namespace {

TEST(ServerCli, HelpListsEveryFlagAndExitsZero) {
  const auto result = run_command({bin_dir() + "/ttt-server", "--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--bind", "--port", "--threads", "--log-level", "--move-timeout",
                           "--reconnect-grace", "--max-connections", "--max-frame",
                           "--bot-fallback", "--db", "--export-games", "--rate-limit"}) {
    EXPECT_NE(result.output.find(flag), std::string::npos) << flag;
  }
}

TEST(ServerCli, BadFlagsAreOneLineErrorsWithExitCodeTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--port", "http"},
                                        {"--threads", "0"},
                                        {"--log-level", "chatty"},
                                        {"--move-timeout", "-3"},
                                        {"--frobnicate"},
                                        {"extra"}}) {
    args.insert(args.begin(), bin_dir() + "/ttt-server");
    const auto result = run_command(args);
    EXPECT_EQ(result.exit_code, 2) << args[1];
    EXPECT_NE(result.output.find("ttt-server: "), std::string::npos) << result.output;
  }
}

TEST(ServerCli, AnAddressInUseIsAClearError) {
  ServerProcess first({"--db", "none"});
  const auto result = run_command({bin_dir() + "/ttt-server", "--bind", "127.0.0.1", "--port",
                                   std::to_string(first.port()), "--db", "none"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("cannot listen on 127.0.0.1 port"), std::string::npos)
      << result.output;
}

TEST(ServerCli, NotAnAddressIsAClearError) {
  const auto result =
      run_command({bin_dir() + "/ttt-server", "--bind", "localhost:80", "--db", "none"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("not an IP address"), std::string::npos) << result.output;
}

TEST(ServerCli, SigtermStopsTheServerWithExitCodeZero) {
  ServerProcess server({"--db", "none", "--log-level", "info"});
  ::kill(server.process().pid(), SIGTERM);
  EXPECT_EQ(server.process().wait_exit(10s), 0);
  EXPECT_NE(server.process().output().find("shutting down: terminated (SIGTERM)"),
            std::string::npos)
      << server.process().output();
}

}  // namespace
}  // namespace ttt::testing
