// The shared command line and config file: values, ranges, aliases, the
// precedence of flags over the file, and every kind of bad input.
#include "ttt/cli/flags.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <vector>

#include "ttt/cli/config_file.hpp"

namespace ttt::cli {
namespace {

namespace fs = std::filesystem;

struct Parsed {
  ParseResult result;
  std::int64_t port = 7777;
  std::string host = "localhost";
  bool verbose = false;
  std::chrono::milliseconds grace{30'000};
  std::string level = "info";
  std::string name;  // no default
  std::string effective;
};

Parsed parse(std::vector<const char*> args) {
  Parsed p;
  Flags flags("prog", "A test program.");
  flags.add_int("--port", "-p", &p.port, 1, 65535, "N", "port");
  flags.add_string("--host", "", &p.host, "H", "host");
  flags.add_bool("--verbose", "-v", &p.verbose, "talk more");
  flags.add_seconds("--grace", &p.grace, 3600, "grace period");
  flags.add_choice("--level", "", &p.level, {"info", "warn"}, "log level");
  flags.add_string("--name", "", &p.name, "NAME", "a name");
  args.insert(args.begin(), "prog");
  p.result = flags.parse(static_cast<int>(args.size()), args.data());
  p.effective = flags.effective_config();
  return p;
}

// A config file in a fresh directory, removed with the test.
class ConfigFileTest : public ::testing::Test {
 protected:
  ConfigFileTest()
      : dir_(fs::temp_directory_path() /
             ("ttt-flags-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::create_directories(dir_);
  }
  ~ConfigFileTest() override { fs::remove_all(dir_); }

  std::string write(const std::string& text) {
    const std::string path = (dir_ / "prog.toml").string();
    std::ofstream(path) << text;
    return path;
  }
  Parsed parse_with(const std::string& text, std::vector<const char*> more = {}) {
    path_ = write(text);
    std::vector<const char*> args = {"--config", path_.c_str()};
    args.insert(args.end(), more.begin(), more.end());
    return parse(args);
  }
  // Expects the file to be refused with FILE:LINE: and the words wanted.
  void expect_refused(const std::string& text, int line, const std::string& wanted) {
    const Parsed p = parse_with(text);
    EXPECT_FALSE(p.result.ok) << text;
    const std::string where = path_ + ":" + std::to_string(line) + ": ";
    EXPECT_TRUE(p.result.error.starts_with(where))
        << "got: " << p.result.error << "\nwanted it to start with: " << where;
    EXPECT_NE(p.result.error.find(wanted), std::string::npos)
        << "got: " << p.result.error << "\nwanted: " << wanted;
  }

  fs::path dir_;
  std::string path_;
};

TEST(Flags, DefaultsStandWithoutArguments) {
  const Parsed p = parse({});
  EXPECT_TRUE(p.result.ok);
  EXPECT_FALSE(p.result.help);
  EXPECT_FALSE(p.result.print_config);
  EXPECT_EQ(p.port, 7777);
  EXPECT_EQ(p.host, "localhost");
}

TEST(Flags, ValuesBySpaceEqualsAndAlias) {
  const Parsed p =
      parse({"--port", "80", "--host=example.org", "-v", "--grace", "0.25", "--level", "warn"});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 80);
  EXPECT_EQ(p.host, "example.org");
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.grace, std::chrono::milliseconds(250));
  EXPECT_EQ(p.level, "warn");
  EXPECT_EQ(parse({"-p", "81"}).port, 81);
}

TEST(Flags, AFlagGivenTwiceTakesItsLastValue) {
  EXPECT_EQ(parse({"--port", "80", "--port", "81"}).port, 81);
}

TEST(Flags, HelpIsReported) {
  EXPECT_TRUE(parse({"--help"}).result.help);
  EXPECT_TRUE(parse({"-h"}).result.help);
}

TEST(Flags, EveryBadInputIsOneClearError) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--port", "abc"}, "--port expects a whole number from 1 to 65535, got 'abc'"},
      {{"-p", "abc"}, "--port expects a whole number from 1 to 65535, got 'abc'"},
      {{"--port", "0"}, "--port expects a whole number from 1 to 65535, got '0'"},
      {{"--port", "70000"}, "--port expects a whole number from 1 to 65535, got '70000'"},
      {{"--port", "12x"}, "--port expects a whole number from 1 to 65535, got '12x'"},
      {{"--port", "99999999999999999999"}, "--port expects a whole number from 1 to 65535"},
      {{"--port"}, "--port needs a value (N)"},
      {{"-v", "--host"}, "--host needs a value (H)"},
      {{"--nope"}, "unknown flag --nope"},
      {{"--nope=3"}, "unknown flag --nope"},
      {{"stray"}, "unexpected argument 'stray'"},
      {{"--verbose=yes"}, "--verbose takes no value"},
      {{"--grace", "-1"}, "--grace expects seconds from 0 to 3600, got '-1'"},
      {{"--grace", "nan"}, "--grace expects seconds from 0 to 3600, got 'nan'"},
      {{"--grace", "1e9"}, "--grace expects seconds from 0 to 3600, got '1e9'"},
      {{"--grace", "2s"}, "--grace expects seconds from 0 to 3600, got '2s'"},
      {{"--level", "loud"}, "--level expects one of info|warn, got 'loud'"},
      {{"--host", ""}, "--host must not be empty"},
  };
  for (const auto& [args, message] : cases) {
    const Parsed p = parse(args);
    EXPECT_FALSE(p.result.ok) << message;
    EXPECT_NE(p.result.error.find(message), std::string::npos)
        << "got: " << p.result.error << "\nwanted: " << message;
  }
}

TEST(Flags, UsageListsEveryFlagWithItsDefault) {
  Parsed p;
  Flags flags("prog", "A test program.");
  flags.add_int("--port", "-p", &p.port, 1, 65535, "N", "port");
  flags.add_seconds("--grace", &p.grace, 3600, "grace period");
  const std::string usage = flags.usage();
  EXPECT_NE(usage.find("usage: prog [flags]"), std::string::npos);
  EXPECT_NE(usage.find("A test program."), std::string::npos);
  EXPECT_NE(usage.find("--port, -p N"), std::string::npos);
  EXPECT_NE(usage.find("(default: 7777)"), std::string::npos);
  EXPECT_NE(usage.find("--grace SECONDS"), std::string::npos);
  EXPECT_NE(usage.find("(default: 30)"), std::string::npos);
  EXPECT_NE(usage.find("--config FILE"), std::string::npos);
  EXPECT_NE(usage.find("--print-config"), std::string::npos);
  EXPECT_NE(usage.find("--help, -h"), std::string::npos);
}

TEST(Flags, PrintConfigShowsEveryEffectiveValueAsToml) {
  const Parsed p = parse({"--print-config", "--port", "80", "--grace", "0.5", "-v"});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_TRUE(p.result.print_config);
  EXPECT_EQ(p.effective,
            "# prog: effective settings (defaults, then --config FILE, then flags)\n"
            "port = 80\n"
            "host = \"localhost\"\n"
            "verbose = true\n"
            "grace = 0.5\n"
            "level = \"info\"\n"
            "# name is not set\n");
}

TEST_F(ConfigFileTest, EveryFlagHasAKeyOfTheSameName) {
  const Parsed p = parse_with(
      "# a comment\n"
      "port = 8080\n"
      "host = \"example.org\"\n"
      "verbose = true\n"
      "grace = 1.5\n"
      "level = \"warn\"\n"
      "name = \"Zoë\"\n");
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 8080);
  EXPECT_EQ(p.host, "example.org");
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.grace, std::chrono::milliseconds(1500));
  EXPECT_EQ(p.level, "warn");
  EXPECT_EQ(p.name, "Zoë");
}

TEST_F(ConfigFileTest, WholeSecondsAndFalseSwitchesAreAccepted) {
  const Parsed p = parse_with("grace = 2\nverbose = false\n");
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.grace, std::chrono::milliseconds(2000));
  EXPECT_FALSE(p.verbose);
}

TEST_F(ConfigFileTest, FlagsWinOverTheFileAndTheFileOverDefaults) {
  const Parsed p = parse_with("port = 8080\nhost = \"file.example\"\nlevel = \"warn\"\n",
                              {"--port", "9090", "--level=info"});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 9090);            // flag over file
  EXPECT_EQ(p.level, "info");         // flag over file, even when it says the default
  EXPECT_EQ(p.host, "file.example");  // file over default
  EXPECT_EQ(p.grace, std::chrono::milliseconds(30'000));  // default
}

TEST_F(ConfigFileTest, ABadValueIsRefusedEvenWhereAFlagWouldWin) {
  const Parsed p = parse_with("port = \"http\"\n", {"--port", "80"});
  EXPECT_FALSE(p.result.ok);
  EXPECT_NE(p.result.error.find(":1: 'port' expects a whole number"), std::string::npos)
      << p.result.error;
}

TEST_F(ConfigFileTest, TheFlagOrderDoesNotMatter) {
  path_ = write("port = 8080\n");
  const Parsed p = parse({"--port", "9090", "--config", path_.c_str()});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 9090);
}

TEST_F(ConfigFileTest, PrintConfigShowsTheFileAndFlagsTogether) {
  const Parsed p = parse_with("port = 8080\nname = \"a \\\"quoted\\\" name\"\n",
                              {"--print-config", "--level", "warn"});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_TRUE(p.result.print_config);
  EXPECT_NE(p.effective.find("\nport = 8080\n"), std::string::npos) << p.effective;
  EXPECT_NE(p.effective.find("\nlevel = \"warn\"\n"), std::string::npos) << p.effective;
  EXPECT_NE(p.effective.find("\nname = \"a \\\"quoted\\\" name\"\n"), std::string::npos)
      << p.effective;
}

TEST_F(ConfigFileTest, WhatPrintConfigPrintsReadsBackTheSame) {
  const Parsed first =
      parse({"--print-config", "--port", "81", "--grace", "0.125", "-v", "--name", "tab\there"});
  ASSERT_TRUE(first.result.ok) << first.result.error;
  const Parsed second = parse_with(first.effective, {"--print-config"});
  ASSERT_TRUE(second.result.ok) << second.result.error;
  EXPECT_EQ(second.effective, first.effective);
  EXPECT_EQ(second.name, "tab\there");
}

TEST_F(ConfigFileTest, AnUnknownKeyNamesTheFileAndLine) {
  expect_refused("port = 80\n\nprot = 81\n", 3, "unknown key 'prot'");
}

TEST_F(ConfigFileTest, AWrongTypeNamesTheFileLineAndWhatWasExpected) {
  expect_refused("port = \"80\"\n", 1,
                 "'port' expects a whole number from 1 to 65535, not a string");
  expect_refused("host = \"h\"\nport = 8.5\n", 2, "'port' expects a whole number");
  expect_refused("verbose = \"yes\"\n", 1, "'verbose' expects true or false, not a string");
  expect_refused("grace = \"30\"\n", 1, "'grace' expects seconds from 0 to 3600, not a string");
  expect_refused("host = 7\n", 1, "'host' expects text, not a whole number");
  expect_refused("level = true\n", 1, "'level' expects one of info|warn, not a boolean");
}

TEST_F(ConfigFileTest, AValueOutOfRangeNamesTheFileAndLine) {
  expect_refused("\nport = 70000\n", 2,
                 "'port' expects a whole number from 1 to 65535, got '70000'");
  expect_refused("grace = -1\n", 1, "'grace' expects seconds from 0 to 3600, got '-1'");
  expect_refused("grace = nan\n", 1, "'grace' expects seconds from 0 to 3600");
  expect_refused("level = \"loud\"\n", 1, "'level' expects one of info|warn, got 'loud'");
  expect_refused("host = \"\"\n", 1, "'host' must not be empty");
}

TEST_F(ConfigFileTest, TablesArraysAndDatesAreRefused) {
  expect_refused("port = 80\n[server]\nport = 81\n", 2, "'server' is a table");
  expect_refused("port = [80, 81]\n", 1, "'port' is an array");
  expect_refused("server.port = 80\n", 1, "'server' is a table");
  expect_refused("when = 2024-01-01\n", 1, "'when' is a date");
}

TEST_F(ConfigFileTest, ASyntaxErrorNamesTheFileAndLine) {
  expect_refused("port = 80\nhost = \"unterminated\n", 2, "");
  expect_refused("port = 80\nport = 81\n", 2, "");  // a key given twice
  expect_refused("port 80\n", 1, "");
}

TEST_F(ConfigFileTest, KeysOnlyForTheCommandLineAreRefused) {
  expect_refused("config = \"other.toml\"\n", 1, "'config' can only be given on the command line");
  expect_refused("print-config = true\n", 1, "can only be given on the command line");
}

TEST_F(ConfigFileTest, AMissingFileIsAClearError) {
  const std::string missing = (dir_ / "nowhere.toml").string();
  const Parsed p = parse({"--config", missing.c_str()});
  EXPECT_FALSE(p.result.ok);
  EXPECT_EQ(p.result.error, missing + ": cannot read the config file: No such file or directory");
}

TEST_F(ConfigFileTest, ADirectoryIsNotAConfigFile) {
  const Parsed p = parse({"--config", dir_.c_str()});
  EXPECT_FALSE(p.result.ok);
  EXPECT_NE(p.result.error.find("cannot read the config file: it is a directory"),
            std::string::npos)
      << p.result.error;
}

TEST_F(ConfigFileTest, AnEmptyFileChangesNothing) {
  const Parsed p = parse_with("");
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 7777);
}

TEST_F(ConfigFileTest, HelpDoesNotReadTheFile) {
  const std::string missing = (dir_ / "nowhere.toml").string();
  EXPECT_TRUE(parse({"--config", missing.c_str(), "--help"}).result.help);
}

TEST(ConfigText, SettingsComeInFileOrderWithTheirLines) {
  const ConfigFile file = parse_config_text("b = 1\n\na = \"x\"\nc = true\nd = 0.5\n", "f.toml");
  ASSERT_TRUE(file.ok) << file.error;
  ASSERT_EQ(file.settings.size(), 4u);
  EXPECT_EQ(file.settings[0].key, "b");
  EXPECT_EQ(file.settings[0].line, 1u);
  EXPECT_EQ(std::get<std::int64_t>(file.settings[0].value), 1);
  EXPECT_EQ(file.settings[1].key, "a");
  EXPECT_EQ(file.settings[1].line, 3u);
  EXPECT_EQ(std::get<std::string>(file.settings[1].value), "x");
  EXPECT_TRUE(std::get<bool>(file.settings[2].value));
  EXPECT_EQ(std::get<double>(file.settings[3].value), 0.5);
}

TEST(ConfigText, QuotingRoundTrips) {
  for (const std::string text :
       {"plain", "with \"quotes\"", "back\\slash", "tab\tand\nnewline", "Zoë", ""}) {
    const ConfigFile file = parse_config_text("k = " + toml_quote(text) + "\n", "f.toml");
    ASSERT_TRUE(file.ok) << file.error;
    EXPECT_EQ(std::get<std::string>(file.settings.at(0).value), text);
  }
}

TEST(ParseInt, AcceptsOnlyWholeNumbersInRange) {
  EXPECT_EQ(parse_int("42", 0, 100), 42);
  EXPECT_EQ(parse_int("-5", -10, 10), -5);
  EXPECT_FALSE(parse_int("", 0, 100));
  EXPECT_FALSE(parse_int(" 4", 0, 100));
  EXPECT_FALSE(parse_int("4 ", 0, 100));
  EXPECT_FALSE(parse_int("101", 0, 100));
  EXPECT_FALSE(parse_int("+4", 0, 100));
}

}  // namespace
}  // namespace ttt::cli
