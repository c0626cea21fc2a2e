// ttt-server's command line as a user meets it: --help, bad flags, a port in
// use, a clean exit on SIGTERM, and --export-games refusing a database that
// isn't there.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "client_support/child_process.hpp"

namespace ttt::testing {
namespace {

namespace fs = std::filesystem;

// The names of the entries of a directory, to show what a command left there.
std::vector<std::string> entries_of(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

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

TEST(ServerCli, ExportFromAMissingDatabaseIsAnErrorAndCreatesNothing) {
  TempDir dir;
  const std::string db = (fs::path(dir.path()) / "tt.db").string();  // a typo for ttt.db
  const std::string file = (fs::path(dir.path()) / "games.txt").string();
  const auto result = run_command({bin_dir() + "/ttt-server", "--db", db, "--export-games", file});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("ttt-server: no database at " + db), std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("exported "), std::string::npos) << result.output;
  EXPECT_TRUE(entries_of(dir.path()).empty())
      << "left behind: " << ::testing::PrintToString(entries_of(dir.path()));
}

TEST(ServerCli, ExportWithTheDefaultDatabaseMissingIsAnError) {
  TempDir dir;  // no ttt.db here
  ChildProcess server({bin_dir() + "/ttt-server", "--export-games", "games.txt"}, {}, dir.path());
  server.close_stdin();
  EXPECT_EQ(server.wait_exit(10s), 1) << server.output();
  EXPECT_NE(server.output().find("no database at ttt.db"), std::string::npos) << server.output();
  EXPECT_TRUE(entries_of(dir.path()).empty())
      << "left behind: " << ::testing::PrintToString(entries_of(dir.path()));
}

TEST(ServerCli, ExportNeedsADatabaseFileNotMemoryOrNone) {
  TempDir dir;
  const std::string file = (fs::path(dir.path()) / "games.txt").string();
  for (const std::string db : {":memory:", "none"}) {
    const auto result =
        run_command({bin_dir() + "/ttt-server", "--db", db, "--export-games", file});
    EXPECT_EQ(result.exit_code, 2) << db << ": " << result.output;
    EXPECT_NE(result.output.find(
                  "--export-games needs --db PATH of an existing database, not --db " + db),
              std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("exported "), std::string::npos) << result.output;
  }
  EXPECT_TRUE(entries_of(dir.path()).empty())
      << "left behind: " << ::testing::PrintToString(entries_of(dir.path()));
}

TEST(ServerCli, ExportFromAnExistingDatabaseStillWorks) {
  TempDir dir;
  const std::string db = (fs::path(dir.path()) / "ttt.db").string();
  const std::string file = (fs::path(dir.path()) / "games.txt").string();
  {
    ServerProcess server({"--db", db});  // creates the database, with no games
    ::kill(server.process().pid(), SIGTERM);
    ASSERT_EQ(server.process().wait_exit(10s), 0) << server.process().output();
  }
  const auto result = run_command({bin_dir() + "/ttt-server", "--db", db, "--export-games", file});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("exported 0 games to " + file), std::string::npos) << result.output;
  std::ifstream in(file);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(text, "# ttt games export, format 1\n\n");
}

}  // namespace
}  // namespace ttt::testing
