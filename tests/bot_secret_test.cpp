// BotSecret: ttt-bot's secret is made and kept before the first Hello, taken
// from an older server that makes it, and replaced once with
// --rotate-secret.
#include <gtest/gtest.h>

#include "bot/bot_secret.hpp"
#include "client_support/child_process.hpp"

namespace ttt::client {
namespace {

wire::Welcome welcome_with(const std::string& secret) {
  wire::Welcome w;
  w.set_name("bot");
  w.set_secret(secret);
  return w;
}

TEST(BotSecret, TheSecretIsKeptBeforeTheHello) {
  ttt::testing::TempDir dir;
  const std::string path = dir.path() + "/secrets/host-7777-bot";
  BotSecret secret("bot", path, false);
  ConnectionOptions options;
  secret.load(options);
  EXPECT_EQ(options.secret.size(), 64u);
  EXPECT_EQ(read_secret(path), options.secret);
  EXPECT_FALSE(secret.welcomed(welcome_with(""), options.secret).has_value());
  std::string error;
  EXPECT_FALSE(secret.rotation(error).has_value()) << "not asked to rotate";
  EXPECT_EQ(error, "");
}

TEST(BotSecret, ASecretAnOlderServerMadeIsSaidFromThenOn) {
  ttt::testing::TempDir dir;
  const std::string path = dir.path() + "/s";
  BotSecret secret("bot", path, false);
  ConnectionOptions options;
  secret.load(options);
  const std::string made(32, 'a');
  EXPECT_EQ(secret.welcomed(welcome_with(made), options.secret), made);
  EXPECT_EQ(read_secret(path), made);
}

TEST(BotSecret, ItRotatesOnceWhenAsked) {
  ttt::testing::TempDir dir;
  const std::string path = dir.path() + "/s";
  BotSecret secret("bot", path, true);
  ConnectionOptions options;
  secret.load(options);
  secret.welcomed(welcome_with(""), options.secret);
  std::string error;
  const auto next = secret.rotation(error);
  ASSERT_TRUE(next.has_value()) << error;
  EXPECT_FALSE(secret.rotation(error).has_value()) << "once per run";
  EXPECT_EQ(secret.rotated(error), next);
  EXPECT_EQ(read_secret(path), *next);
}

TEST(BotSecret, WithNowhereToKeepItTheRotationIsAnError) {
  BotSecret secret("bot", "", true);
  ConnectionOptions options;
  secret.load(options);
  std::string error;
  EXPECT_FALSE(secret.rotation(error).has_value());
  EXPECT_EQ(error.rfind("could not replace its secret: ", 0), 0u) << error;
}

TEST(BotSecret, ARefusedNameNamesTheSecretFileButNoFlag) {
  ttt::testing::TempDir dir;
  BotSecret secret("bot", dir.path() + "/s", false);
  ConnectionOptions options;
  secret.load(options);
  secret.name_taken();
  const std::string text = secret.refusal_text("alice", "host:7777");
  EXPECT_NE(text.find("the name 'alice' on host:7777 belongs to someone else"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("--secret-file"), std::string::npos) << "ttt-bot has no such flag: " << text;
}

}  // namespace
}  // namespace ttt::client
