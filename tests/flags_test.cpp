// The shared flag parser: values, ranges, aliases and every kind of bad input.
#include "ttt/cli/flags.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace ttt::cli {
namespace {

struct Parsed {
  ParseResult result;
  std::int64_t port = 7777;
  std::string host = "localhost";
  bool verbose = false;
  std::chrono::milliseconds grace{30'000};
  std::string level = "info";
};

Parsed parse(std::vector<const char*> args) {
  Parsed p;
  Flags flags("prog", "A test program.");
  flags.add_int("--port", "-p", &p.port, 1, 65535, "N", "port");
  flags.add_string("--host", "", &p.host, "H", "host");
  flags.add_bool("--verbose", "-v", &p.verbose, "talk more");
  flags.add_seconds("--grace", &p.grace, 3600, "grace period");
  flags.add_choice("--level", "", &p.level, {"info", "warn"}, "log level");
  args.insert(args.begin(), "prog");
  p.result = flags.parse(static_cast<int>(args.size()), args.data());
  return p;
}

TEST(Flags, DefaultsStandWithoutArguments) {
  const Parsed p = parse({});
  EXPECT_TRUE(p.result.ok);
  EXPECT_FALSE(p.result.help);
  EXPECT_EQ(p.port, 7777);
  EXPECT_EQ(p.host, "localhost");
}

TEST(Flags, ValuesBySpaceEqualsAndAlias) {
  const Parsed p = parse({"--port", "80", "--host=example.org", "-v", "--grace", "0.25",
                          "--level", "warn"});
  ASSERT_TRUE(p.result.ok) << p.result.error;
  EXPECT_EQ(p.port, 80);
  EXPECT_EQ(p.host, "example.org");
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.grace, std::chrono::milliseconds(250));
  EXPECT_EQ(p.level, "warn");
  EXPECT_EQ(parse({"-p", "81"}).port, 81);
}

TEST(Flags, HelpIsReported) { EXPECT_TRUE(parse({"--help"}).result.help); }

TEST(Flags, EveryBadInputIsOneClearError) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--port", "abc"}, "--port expects a whole number from 1 to 65535, got 'abc'"},
      {{"--port", "0"}, "--port expects a whole number from 1 to 65535, got '0'"},
      {{"--port", "70000"}, "--port expects a whole number from 1 to 65535, got '70000'"},
      {{"--port", "12x"}, "--port expects a whole number from 1 to 65535, got '12x'"},
      {{"--port", "99999999999999999999"}, "--port expects a whole number from 1 to 65535"},
      {{"--port"}, "--port needs a value (N)"},
      {{"--nope"}, "unknown flag --nope"},
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
  EXPECT_NE(usage.find("--port, -p N"), std::string::npos);
  EXPECT_NE(usage.find("(default: 7777)"), std::string::npos);
  EXPECT_NE(usage.find("--grace SECONDS"), std::string::npos);
  EXPECT_NE(usage.find("(default: 30)"), std::string::npos);
  EXPECT_NE(usage.find("--help, -h"), std::string::npos);
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
