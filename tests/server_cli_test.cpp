// ttt-server's command line as a user meets it: --help, bad flags, a port in
// use, a clean exit on SIGTERM, --export-games refusing a database that
// isn't there, and --config / --print-config (of every program).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

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
  for (const char* flag : {"--bind",
                           "--port",
                           "--threads",
                           "--log-level",
                           "--move-timeout",
                           "--reconnect-grace",
                           "--max-connections",
                           "--max-frame",
                           "--bot-fallback",
                           "--db",
                           "--export-games",
                           "--rate-limit",
                           "--config FILE",
                           "--print-config",
                           "--max-hello-frame",
                           "--read-buffer-budget",
                           "--bot-game-grace",
                           "--bot-queue",
                           "--max-spectators",
                           "--max-games-per-address",
                           "--max-bot-games-per-address",
                           "--token-lifetime",
                           "--stats-token",
                           "--send-queue",
                           "--web",
                           "--web-origin",
                           "--web-url",
                           "--web-trusted-proxy",
                           "--max-connection-rate-per-ip",
                           "--challenges-per-minute",
                           "--challenge-cooldown"}) {
    EXPECT_NE(result.output.find(flag), std::string::npos) << flag;
  }
}

TEST(ServerCli, BadFlagsAreOneLineErrorsWithExitCodeTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--port", "http"},
                                        {"--threads", "0"},
                                        {"--log-level", "chatty"},
                                        {"--move-timeout", "-3"},
                                        {"--frobnicate"},
                                        {"--web", "maybe"},
                                        {"--web-origin", "ttt.example.org"},
                                        {"--web-url", "ftp://ttt.example.org"},
                                        {"--web-trusted-proxy", "proxy.example.org"},
                                        {"--web", "off", "--web-url", "https://ttt.example.org"},
                                        {"--stats-token", "guessable"},
                                        {"--config"},
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
                                   std::to_string(first.port()), "--db", "none", "--no-tls"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("cannot listen on 127.0.0.1 port"), std::string::npos)
      << result.output;
}

TEST(ServerCli, NotAnAddressIsAClearError) {
  const auto result = run_command(
      {bin_dir() + "/ttt-server", "--bind", "localhost:80", "--db", "none", "--no-tls"});
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
  TempDir dir;  // no ttt/ttt.db here
  ChildProcess server({bin_dir() + "/ttt-server", "--export-games", "games.txt"},
                      {"XDG_STATE_HOME=" + dir.path()}, dir.path());
  server.close_stdin();
  EXPECT_EQ(server.wait_exit(10s), 1) << server.output();
  EXPECT_NE(server.output().find("no database at " + dir.path() + "/ttt/ttt.db"), std::string::npos)
      << server.output();
  EXPECT_TRUE(entries_of(dir.path()).empty())
      << "left behind: " << ::testing::PrintToString(entries_of(dir.path()));
}

// Starts ttt-server with env and args in cwd, waits for it to listen, stops it
// with SIGTERM; its output.
std::string serve_once(std::vector<std::string> env, std::vector<std::string> args,
                       const std::string& cwd) {
  std::vector<std::string> argv{
      bin_dir() + "/ttt-server", "--bind", "127.0.0.1", "--port", "0", "--log-level", "info"};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess server(argv, std::move(env), cwd);
  EXPECT_TRUE(server.wait_for_text("listening on port", 10s)) << server.output();
  ::kill(server.pid(), SIGTERM);
  // Bounded, with room for a loaded machine under ThreadSanitizer, which
  // holds a signal back until the thread it interrupts reaches a safe point.
  EXPECT_EQ(server.wait_exit(30s), 0) << server.output();
  return server.output();
}

// The mode bits of a file, e.g. 0600.
unsigned mode_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

TEST(ServerCli, TheDefaultDatabaseLivesInTheStateDirPrivately) {
  TempDir dir;
  const std::string state = dir.path() + "/state";  // not there yet
  const std::string out = serve_once({"XDG_STATE_HOME=" + state}, {}, dir.path());
  const std::string db = state + "/ttt/ttt.db";
  EXPECT_NE(out.find("database " + db + ": 0 players"), std::string::npos) << out;
  ASSERT_TRUE(fs::exists(db)) << out;
  EXPECT_EQ(mode_of(state + "/ttt"), 0700u);
  EXPECT_EQ(mode_of(db), 0600u);
  for (const auto& name : entries_of(dir.path())) EXPECT_EQ(name, "state") << "written in the cwd";
}

TEST(ServerCli, WithoutXdgStateHomeTheDefaultDatabaseIsUnderHome) {
  TempDir dir;
  const std::string out = serve_once({"HOME=" + dir.path(), "XDG_STATE_HOME="}, {}, dir.path());
  const std::string db = dir.path() + "/.local/state/ttt/ttt.db";
  EXPECT_NE(out.find("database " + db + ": "), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(db)) << out;
}

TEST(ServerCli, DbChoosesAnotherFileAndLeavesTheStateDirAlone) {
  TempDir dir;
  const std::string db = dir.path() + "/mine.db";
  const std::string out =
      serve_once({"XDG_STATE_HOME=" + dir.path() + "/state"}, {"--db", db}, dir.path());
  EXPECT_NE(out.find("database " + db + ": "), std::string::npos) << out;
  EXPECT_EQ(mode_of(db), 0600u);
  EXPECT_FALSE(fs::exists(dir.path() + "/state")) << out;
}

TEST(ServerCli, NoPlaceForTheDefaultDatabaseIsAClearError) {
  TempDir dir;
  std::vector<std::string> env{"HOME=", "XDG_STATE_HOME="};
  ChildProcess server({bin_dir() + "/ttt-server", "--port", "0"}, env, dir.path());
  server.close_stdin();
  EXPECT_EQ(server.wait_exit(10s), 1) << server.output();
  EXPECT_NE(server.output().find("neither XDG_STATE_HOME nor HOME is set (choose one with --db "
                                 "PATH)"),
            std::string::npos)
      << server.output();
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
  EXPECT_EQ(text, "# ttt games export, format 3\n\n");
}

TEST(ServerCli, FilesTheServerWritesAreItsOwnersOnly) {
  TempDir dir;
  const std::string db = (fs::path(dir.path()) / "ttt.db").string();
  const std::string file = (fs::path(dir.path()) / "games.txt").string();
  {
    // An export file someone left world-readable before.
    std::ofstream(file) << "old\n";
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                              fs::perms::others_read);
    ServerProcess server({"--db", db});
    // While it runs, the database has its write-ahead log and its index.
    for (const std::string& f : {db, db + "-wal", db + "-shm"}) {
      EXPECT_EQ(mode_of(f), 0600u) << f;
    }
    ::kill(server.process().pid(), SIGTERM);
    ASSERT_EQ(server.process().wait_exit(10s), 0) << server.process().output();
  }
  const auto result = run_command({bin_dir() + "/ttt-server", "--db", db, "--export-games", file});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_EQ(mode_of(db), 0600u);
}

// Writes text to DIR/name and returns its path.
std::string write_file(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = (fs::path(dir.path()) / name).string();
  std::ofstream(path) << text;
  return path;
}

TEST(ServerConfig, TheServerRunsOnWhatTheFileSays) {
  TempDir dir;
  const std::string file = write_file(dir, "server.toml",
                                      "# a lobby for the test\n"
                                      "bind = \"127.0.0.1\"\n"
                                      "port = 0\n"
                                      "db = \"none\"\n"
                                      "log-level = \"info\"\n"
                                      "max-connections = 3\n");
  // Its own state folder: with db = "none" the self-signed certificate goes there.
  ChildProcess server({bin_dir() + "/ttt-server", "--config", file},
                      {"XDG_STATE_HOME=" + dir.path() + "/state"}, dir.path());
  ASSERT_TRUE(server.wait_for(
      [](const std::string& out) { return out.find("listening on port") != std::string::npos; },
      10s))
      << server.output();
  EXPECT_NE(server.output().find("listening on 127.0.0.1 port"), std::string::npos)
      << server.output();
  ::kill(server.pid(), SIGTERM);
  EXPECT_EQ(server.wait_exit(10s), 0) << server.output();
}

TEST(ServerConfig, FlagsWinOverTheFileAndTheFileOverDefaults) {
  TempDir dir;
  const std::string file = write_file(dir, "server.toml",
                                      "port = 8000\n"
                                      "threads = 2\n"
                                      "move-timeout = 0.5\n"
                                      "db = \"/var/lib/ttt/ttt.db\"\n");
  const auto result = run_command(
      {bin_dir() + "/ttt-server", "--config", file, "--port", "9000", "--print-config"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* line : {"\nport = 9000\n", "\nthreads = 2\n", "\nmove-timeout = 0.5\n",
                           "\ndb = \"/var/lib/ttt/ttt.db\"\n", "\nbind = \"0.0.0.0\"\n",
                           "\nmax-connections = 10000\n"}) {
    EXPECT_NE(result.output.find(line), std::string::npos) << line << "in:\n" << result.output;
  }
}

TEST(ServerConfig, ABadFileIsAnErrorNamingFileAndLineAndNothingStarts) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"port = 7777\nmax-conections = 50\n", ":2: unknown key 'max-conections'"},
      {"\n\nport = \"7777\"\n", ":3: 'port' expects a whole number from 0 to 65535, not a string"},
      {"threads = 0\n", ":1: 'threads' expects a whole number from 1 to 64, got '0'"},
      {"log-level = \"chatty\"\n", ":1: 'log-level' expects one of trace|debug|info|warn|error"},
      {"[server]\nport = 1\n", ":1: 'server' is a table"},
      {"port = \n", ":1: "},
  };
  for (const auto& [text, wanted] : cases) {
    const std::string file = write_file(dir, "bad.toml", text);
    // A free port and no database: were it to start, it would say so.
    const auto result = run_command({bin_dir() + "/ttt-server", "--config", file, "--bind",
                                     "127.0.0.1", "--port", "0", "--db", "none"});
    EXPECT_EQ(result.exit_code, 2) << text << result.output;
    EXPECT_NE(result.output.find("ttt-server: " + file + wanted), std::string::npos)
        << "wanted: " << wanted << "\ngot: " << result.output;
    EXPECT_EQ(result.output.find("listening"), std::string::npos) << result.output;
  }
}

TEST(ServerConfig, AMissingFileIsAnError) {
  TempDir dir;
  const std::string file = (fs::path(dir.path()) / "server.toml").string();
  const auto result = run_command({bin_dir() + "/ttt-server", "--config", file, "--db", "none"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("ttt-server: " + file +
                               ": cannot read the config file: No such file or directory"),
            std::string::npos)
      << result.output;
}

TEST(ProgramsConfig, EachProgramReadsBackWhatItPrints) {
  TempDir dir;
  for (const std::string program : {"ttt-server", "ttt-client", "ttt-bot", "ttt-bench"}) {
    if (!fs::exists(bin_dir() + "/" + program)) continue;  // ttt-bench: only with TTT_BENCH
    const auto printed = run_command({bin_dir() + "/" + program, "--print-config"});
    ASSERT_EQ(printed.exit_code, 0) << program << ": " << printed.output;
    EXPECT_TRUE(printed.output.starts_with("# " + program + ": effective settings"))
        << printed.output;
    const std::string file = write_file(dir, program + ".toml", printed.output);
    const auto again = run_command({bin_dir() + "/" + program, "--config", file, "--print-config"});
    EXPECT_EQ(again.exit_code, 0) << program << ": " << again.output;
    EXPECT_EQ(again.output, printed.output) << program;
    const std::string bad = write_file(dir, program + "-bad.toml", "frobnicate = 1\n");
    const auto refused = run_command({bin_dir() + "/" + program, "--config", bad});
    EXPECT_EQ(refused.exit_code, 2) << program << ": " << refused.output;
    EXPECT_NE(refused.output.find(program + ": " + bad + ":1: unknown key 'frobnicate'"),
              std::string::npos)
        << refused.output;
  }
}

TEST(ProgramsConfig, TheBotTakesGameNumbersAsNumbers) {
  TempDir dir;
  const std::string file =
      write_file(dir, "bot.toml", "join = 12\ncode = \"k3y\"\nlevel = \"easy\"\n");
  const auto result =
      run_command({bin_dir() + "/ttt-bot", "--config", file, "--level", "hard", "--print-config"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* line : {"\njoin = 12\n", "\ncode = \"k3y\"\n", "\nlevel = \"hard\"\n",
                           "\n# quick-match is not set\n"}) {
    EXPECT_NE(result.output.find(line), std::string::npos) << line << "in:\n" << result.output;
  }
  const std::string both = write_file(dir, "both.toml", "join = 12\ncreate = 4\n");
  const auto refused = run_command({bin_dir() + "/ttt-bot", "--config", both});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("are ways to find a game: pick one"), std::string::npos)
      << refused.output;
}

}  // namespace
}  // namespace ttt::testing
